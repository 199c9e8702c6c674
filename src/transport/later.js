// The transports' JS side: the one call into application objects that must not run while the module
// is in the middle of an operation — a duck-typed signal's removeEventListener — runs in a microtask,
// what it throws ignored.

/** `signal.removeEventListener("abort", listener)`, in a microtask. */
export function unlistenLater(signal, listener) {
  Promise.resolve()
    .then(() => signal.removeEventListener("abort", listener))
    .then(undefined, () => {});
}
