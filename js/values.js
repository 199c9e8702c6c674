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

/** The elements an array really has, in index order, each read with `readKey`: its own index keys (a
 * sparse array of length 2³²−1 holding one element gives one), never a walk up to a claimed `length`;
 * none when `v` is no array or its keys cannot be read (a revoked Proxy, a throwing `ownKeys` trap). */
export function elementsOf(v) {
  let keys = [];
  try {
    if (Array.isArray(v)) keys = Object.keys(v);
  } catch {}
  // An index is a canonical integer below 2³²−1; a Proxy's keys may come in any order.
  const indices = keys.filter((k) => String(k >>> 0) === k && k !== "4294967295").map(Number);
  return indices.sort((a, b) => a - b).map((i) => readKey(v, i));
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

/** An async iterator (its own async iterable) of `next` and `return`. */
export const asyncIterator = (next, end) => ({
  next,
  return: end,
  [Symbol.asyncIterator]() {
    return this;
  },
});

/** A callback that does nothing (`promise.then(nothing, nothing)` drops a settlement). */
export const nothing = () => {};

/** Runs `f` after a microtask (application code never runs inside the caller), dropping what it
 * throws or rejects with. */
export function later(f) {
  Promise.resolve().then(f).then(nothing, nothing);
}

/** The longest delay a host timer takes (2³¹−1 ms, about 24.8 days): a longer one fires at once (with
 * a `TimeoutOverflowWarning` in Node), so a timer for it would spin or fire early. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls `f` once `ms` (any non-negative number of milliseconds, beyond 2³¹−1 too) have passed on the
 * monotonic clock: a longer delay is waited in steps of at most MAX_TIMER_MS, so it never fires early
 * and costs one timer per 24.8 days. The function that cancels it. */
export function after(ms, f) {
  let timer;
  const end = performance.now() + ms;
  const arm = (left) => {
    timer = left > MAX_TIMER_MS ? setTimeout(() => arm(end - performance.now()), MAX_TIMER_MS) : setTimeout(f, Math.max(left, 0));
  };
  arm(ms);
  return () => clearTimeout(timer);
}
