// The HTTP client's JS side. Every call into the application's objects (its headers value, its
// `fetch`, the Response that fetch gives, the body's reader) is caught, and every call that may run
// application code from inside an exchange is deferred to a microtask, so it never runs while the
// module is in the middle of that exchange.

const later = (f) => Promise.resolve().then(f);

/** Builds the request headers: the caller's (an object, entries, a Headers, or nothing) under the
 * protocol ones (`fixed`: [name, value] pairs; a null value deletes). Runs in a microtask. */
export function headersLater(user, fixed, what) {
  return later(() => {
    if (user !== undefined && user !== null && typeof user !== "object") throw new TypeError(what);
    const h = new Headers(user ?? undefined);
    for (const [name, value] of fixed) {
      if (value === null) h.delete(name);
      else h.set(name, value);
    }
    return h;
  });
}

/** `fetch.call(self, url, {method: "POST", headers, body: JSON.stringify(message), signal})`, in a
 * microtask (a synchronous throw becomes a rejection). */
export function postLater(fetch, self, url, headers, message, signal) {
  return later(() => fetch.call(self, url, { method: "POST", headers, body: JSON.stringify(message), signal }));
}

/** `[status, contentType, body, retryAfterMs]` of what fetch resolved with (`retryAfterMs` from a
 * `Retry-After` of seconds or an HTTP date, -1 when absent); throws when it is not a usable Response. */
export function responseParts(r) {
  const type = r.headers.get("content-type");
  const after = r.headers.get("retry-after");
  let ms = -1;
  if (typeof after === "string" && after.trim() !== "") {
    ms = /^\s*\d+\s*$/.test(after) ? Number(after) * 1000 : Date.parse(after) - Date.now();
    ms = Number.isFinite(ms) ? Math.max(0, ms) : -1;
  }
  return [Number(r.status) || 0, typeof type === "string" ? type : "", r.body ?? null, ms];
}

/** `r.text()`, in a microtask. */
export function textLater(r) {
  return later(() => r.text());
}

/** `body.getReader()`; throws when the body cannot give one. */
export function readerOf(body) {
  return body.getReader();
}

/** `reader.read()`, in a microtask. */
export function readLater(reader) {
  return later(() => reader.read());
}

/** `reader.cancel()`, in a microtask, its outcome ignored. */
export function cancelLater(reader) {
  later(() => reader.cancel()).then(undefined, () => {});
}

/** What a `read()` step holds: `[true]` at the end, `[false, bytes]` for a chunk, or `[false]` when
 * the chunk is not bytes (or the step cannot be read). */
export function chunkOf(step) {
  try {
    if (step.done === true) return [true];
    const v = step.value;
    return v instanceof Uint8Array ? [false, v] : [false];
  } catch {
    return [false];
  }
}

/** `controller.abort()`, in a microtask (the signal's listeners are the application's). */
export function abortLater(controller) {
  later(() => controller.abort()).then(undefined, () => {});
}

/** `signal.removeEventListener("abort", listener)`, in a microtask, what it throws ignored. */
export function unlistenLater(signal, listener) {
  later(() => signal.removeEventListener("abort", listener)).then(undefined, () => {});
}
