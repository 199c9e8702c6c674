// The small helpers the JS modules share (channel.js, direct.js, http.js): reading
// application values without ever throwing — what a getter, a Proxy trap or a revoked Proxy throws
// counts as absent — and running application code safely (`attempt`, `later`, `nothing`).
// (`readKey`, `isObject` and `entriesOf` keep their own try/catch rather than use `attempt`:
// `directClient`'s app ships only them, and that way it ships no more.)

/** `v[key]` of an object (not null, not a function), else undefined — also when the read throws. */
export function readKey(v, key) {
  if (typeof v !== "object" || v === null) return undefined;
  try {
    return v[key];
  } catch {
    return undefined;
  }
}

/** A plain object (not null, not an array, not a function; a revoked Proxy is none). */
export function isObject(v) {
  try {
    return typeof v === "object" && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

/** The own enumerable `[key, value]` pairs of a plain object whose values are not undefined (none
 * when its keys cannot be read), each value read with `readKey`. */
export function entriesOf(v) {
  let keys = [];
  try {
    if (isObject(v)) keys = Object.keys(v);
  } catch {}
  return keys.map((k) => [k, readKey(v, k)]).filter(([, x]) => x !== undefined);
}

/** What `f()` returns, or `fallback` when it throws. */
export function attempt(f, fallback) {
  try {
    return f();
  } catch {
    return fallback;
  }
}

/** Whether `v` is an object: not null, not a function (arrays and Proxies included). */
export const isObjectLike = (v) => typeof v === "object" && v !== null;

/** A callback that does nothing (`promise.then(nothing, nothing)` drops a settlement). */
export const nothing = () => {};

/** Runs `f` after a microtask (application code never runs inside the caller), dropping what it
 * throws or rejects with. */
export function later(f) {
  Promise.resolve().then(f).then(nothing, nothing);
}
