// The wasm shell's JS side: the plumbing that runs application code (a client's `request` and
// `listen`, input handlers, abort signals) and reports back to the shell through one callback.
// Every function catches what application code throws or rejects with, so nothing thrown ever
// crosses into the wasm module; the shell makes every decision.

/** The shell's one callback: `(run, token, kind, value)`. */
let report = () => {};

/** Installs the shell's callback (once, at start). */
export function rtInit(f) {
  report = f;
}

const OK = 1;
const FAILED = 0;
/** A listen stream ended (`{done: true}`). */
const END = 2;

function tell(run, token, kind, value) {
  try {
    report(run, token, kind, value);
  } catch (e) {
    // Only a bug in the module itself can get here (a trap); say so instead of an unhandled rejection.
    console.error("mcp-tasks-wasm: internal error", e);
  }
}

/** Calls `f()` and reports how the promise it returns (or its synchronous throw) ends. */
function settleFrom(f, run, token) {
  let p;
  try {
    p = Promise.resolve(f());
  } catch (e) {
    p = Promise.reject(e);
  }
  p.then((v) => tell(run, token, OK, v), (e) => tell(run, token, FAILED, e));
}

/**
 * The abort handle of one request or ask. Its AbortController is made when its `signal` is first read
 * (most clients and handlers never read it, and an AbortController is one of the dearest objects a
 * wait would make): a signal read after `abort` is already aborted, one read before fires as usual.
 */
function handle() {
  return { c: undefined, aborted: false };
}

function signalOf(h) {
  if (h.c === undefined) {
    h.c = new AbortController();
    if (h.aborted) h.c.abort();
  }
  return h.c.signal;
}

/** `client.request(method, params, {signal, timeoutMs?})` (`signal` an own enumerable property, made
 * on first read); returns the request's abort handle. */
export function send(client, request, method, params, timeoutMs, run, token) {
  const h = handle();
  const options = timeoutMs === undefined
    ? { get signal() { return signalOf(h); } }
    : { get signal() { return signalOf(h); }, timeoutMs };
  settleFrom(() => request.call(client, method, params, options), run, token);
  return h;
}

/** Calls an input handler `f.call(self, arg, {key, status, signal})` (or the input function with
 * `{signal}` when `key` is undefined); returns the call's abort handle. */
export function ask(f, self, arg, key, status, run, token) {
  const h = handle();
  const context = key === undefined
    ? { get signal() { return signalOf(h); } }
    : { key, status, get signal() { return signalOf(h); } };
  settleFrom(() => f.call(self, arg, context), run, token);
  return h;
}

/** Aborts a request's or an ask's handle (the signal's listeners are application code: what they
 * throw stays with them). */
export function abort(h) {
  h.aborted = true;
  try {
    h.c?.abort();
  } catch {}
}

function quietReturn(it) {
  try {
    const r = it.return?.();
    if (r && typeof r.then === "function") r.then(undefined, () => {});
  } catch {}
}

/**
 * Opens `listen.call(client, params, {signal})` and reports each message (OK), the end (END) or a
 * failure (FAILED) until closed. Returns the stream's handle for `closeStream`.
 */
export function openStream(client, listen, params, run, token) {
  const c = new AbortController();
  const s = { c, it: undefined, closed: false };
  (async () => {
    const source = await listen.call(client, params, { signal: c.signal });
    const it = typeof source?.[Symbol.asyncIterator] === "function" ? source[Symbol.asyncIterator]() : source;
    if (!it || typeof it.next !== "function") throw new TypeError("listen() did not give an async iterable");
    s.it = it;
    if (s.closed) return quietReturn(it);
    for (;;) {
      const step = await it.next();
      if (s.closed) return;
      if (step === null || typeof step !== "object") throw new TypeError("the listen iterator gave a step that is not an object");
      if (step.done) return tell(run, token, END, undefined);
      tell(run, token, OK, step.value);
    }
  })().catch((e) => {
    if (!s.closed) tell(run, token, FAILED, e);
  });
  return s;
}

/** Closes a stream without waiting for it: aborts its signal and asks its iterator to return. */
export function closeStream(s) {
  s.closed = true;
  try {
    s.c.abort();
  } catch {}
  if (s.it) quietReturn(s.it);
}

/** Watches an abort signal: reports `(run, token, OK, reason)` once. Returns the function that stops
 * watching, or undefined when the signal cannot be watched. */
export function watch(signal, run, token) {
  const on = () => {
    let reason;
    try {
      reason = signal.reason;
    } catch (e) {
      reason = e;
    }
    tell(run, token, OK, reason);
  };
  try {
    signal.addEventListener("abort", on, { once: true });
  } catch {
    return undefined;
  }
  return () => {
    try {
      signal.removeEventListener("abort", on);
    } catch {}
  };
}

/** Calls `f(arg)` and returns `undefined`, or `[error]` when it throws. */
export function call1(f, self, arg) {
  try {
    f.call(self, arg);
    return undefined;
  } catch (e) {
    return [e];
  }
}

/** Calls `f()` when it is a function, ignoring what it throws. */
export function callQuietly(f) {
  try {
    if (typeof f === "function") f();
  } catch {}
}

/** `signal.aborted === true`, false when it cannot be read. */
export function isAborted(signal) {
  try {
    return signal.aborted === true;
  } catch {
    return false;
  }
}

/** `signal.reason` (what reading it throws when it cannot be read). */
export function reasonOf(signal) {
  try {
    return signal.reason;
  } catch (e) {
    return e;
  }
}

/** A new promise and its resolving functions: `[promise, resolve, reject]`. */
export function deferred() {
  let resolve, reject;
  const promise = new Promise((a, b) => {
    resolve = a;
    reject = b;
  });
  return [promise, resolve, reject];
}

/** Settles with `f(value)`; never throws. */
export function settleWith(f, value) {
  try {
    f(value);
  } catch {}
}

/** `target[key]` of an object (not null, not a function), else undefined — also when reading it
 * throws (a getter, a Proxy trap, a revoked Proxy). */
export function readKey(target, key) {
  if (typeof target !== "object" || target === null) return undefined;
  try {
    return target[key];
  } catch {
    return undefined;
  }
}

/** `target[key] = value` on an object the module just made. */
export function writeKey(target, key, value) {
  target[key] = value;
}

/** The own enumerable keys of an object, or undefined when they cannot be read. */
export function keysOf(v) {
  try {
    return Object.keys(v);
  } catch {
    return undefined;
  }
}

/** The items of an array (a copy), or undefined when `v` is not a readable array. */
export function itemsOf(v) {
  try {
    return Array.isArray(v) ? Array.from(v) : undefined;
  } catch {
    return undefined;
  }
}

/** 0 null, 1 boolean, 2 number, 3 string, 4 array, 5 object, 6 anything else (also unreadable). */
export function kindOf(v) {
  if (v === null) return 0;
  switch (typeof v) {
    case "boolean":
      return 1;
    case "number":
      return 2;
    case "string":
      return 3;
    case "object":
      try {
        return Array.isArray(v) ? 4 : 5;
      } catch {
        return 6;
      }
    default:
      return 6;
  }
}

/** `true` for a DOMException (never a JSON-RPC error, though it has a numeric `code`). */
export function isException(v) {
  try {
    return typeof DOMException === "function" && v instanceof DOMException;
  } catch {
    return false;
  }
}

/** `true` for an absolute http(s) URL with a host and no credentials, by the WHATWG URL parser. */
export function isSafeWebUrl(s) {
  try {
    const u = new URL(s);
    return (u.protocol === "https:" || u.protocol === "http:") && u.hostname !== "" && u.username === "" && u.password === "";
  } catch {
    return false;
  }
}

/** Freezes a value the module built, deeply (it is then safe to share between calls). */
export function deepFreeze(v) {
  if (v !== null && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze(v[k]);
  }
  return v;
}
