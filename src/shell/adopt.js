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
// Also the listen stream's iterator as the driver uses it (lookup, `next()`, `return()`), one import each,
// and the catching field read they share with the module (`readKey`).
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

/** `v[key]` of an object (not null, not a function), else undefined — also when the read throws: every
 * field read of the module, in one call (src/shell/values.rs `read_key`). (The same as js/values.js's: a
 * wasm-bindgen snippet is copied alone and cannot import the package's modules.) */
export function readKey(v, key) {
  if (typeof v !== "object" || v === null) return undefined;
  try {
    return v[key];
  } catch {
    return undefined;
  }
}

/** The async iterator of what `listen` gave: `source[Symbol.asyncIterator]()`, or `source` itself when
 * it has a `next` function. Throws what that call throws, or a TypeError. */
export function iteratorOf(source) {
  const make = readKey(source, Symbol.asyncIterator);
  const it = typeof make === "function" ? make.call(source) : source;
  if (typeof readKey(it, "next") !== "function") throw new TypeError("listen() did not give an async iterable");
  return it;
}

/** `it.next()`; throws what it throws, or a TypeError when there is no `next` function. */
export function nextOf(it) {
  const next = readKey(it, "next");
  if (typeof next !== "function") throw new TypeError("the listen iterator has no next function");
  return next.call(it);
}

/** `it.return?.()`, ignoring what it throws or rejects with (never awaited; attaching handlers marks
 * a rejection as handled). */
export function quietReturn(it) {
  const f = readKey(it, "return");
  if (typeof f !== "function") return;
  let r;
  try {
    r = f.call(it);
  } catch {
    return;
  }
  adopt(r).then(undefined, () => {});
}
