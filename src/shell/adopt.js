// A promise of the module's own for whatever application code returned — a value, a promise, any
// thenable — that settles exactly as `await value` would. The module only ever awaits promises it
// made: a foreign promise can carry its own `then` (one that settles twice, synchronously, throws, or is
// not a function), and handing it straight to wasm-bindgen-futures' JsFuture breaks JsFuture's
// settle-once assumption.
//   - A native promise is followed through the intrinsic `then` (its own `then` property ignored, as
//     `await` ignores it), and its value is taken as it is (not read again, so a Proxy armed after it
//     was fulfilled reaches the module as that value).
//   - Anything else goes through `Promise.resolve`: a thenable's `then` is read once and called in a
//     job of its own with settle-once functions (a throwing read or call rejects), a non-function `then`
//     is a plain value.
// The value comes boxed (`[value]`): a promise resolved with a thenable would read its `then` again.
const then = Promise.prototype.then;

export function adopt(value) {
  return new Promise((resolve, reject) => {
    const box = (v) => resolve([v]);
    try {
      then.call(value, box, reject);
    } catch {
      then.call(Promise.resolve(value), box, reject);
    }
  });
}
