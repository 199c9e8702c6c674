// The promises of the module's async exports, held here — not in the module — so that they settle
// even when the module cannot. An export opens its promise here (`open`), hands it its bound
// (`bound`: the call's deadline and abort signal) and settles it through `settle` when its Rust future
// ends. If the module ever traps, the futures it was driving never end: then this registry rejects
// every call in flight with one Error, and every later call at once ("failed"). It knows the module
// failed when
//   - a call is still pending SLACK_MS after its deadline, or SLACK_MS after its signal aborted (the
//     module enforces both with its own timers; only a module that stopped misses them), the module
//     gave no sign of life for SLACK_MS (it settled no call, answered no ping), and then it fails the
//     registry's ping: the call into it throws (a trap left its timer's state behind), or no answer
//     comes while JS itself runs — ANSWER_MS of this registry's ticks, each on time (a tick late by
//     more than TICK_MS means the app, the machine or a garbage collection held the event loop, and
//     the module had no chance to answer either). The ping asks the module's own timer to fire at
//     once and call `alive` first thing, before its due sleepers: it shows the timer's state is whole
//     and its callbacks run. So a busy module — late only because the page blocked its event loop, or
//     because it works off thousands of calls a slice at a time, its timer's turns full of other runs
//     — is waited for, however long that takes; or
//   - a page's or worker's `error` (or `unhandledrejection`) event carries a `WebAssembly.RuntimeError`
//     thrown by this module (never a process-wide handler in Node).
// Its one timer is the backstop the module's own timer cannot be (it must run when the module cannot):
// armed only while a call with a bound is registered, in steps of at most 2³¹−1 ms (a host timer's
// longest: a longer delay would fire at once, again and again). Nothing here decides anything about a
// task.
//
// `cramped` guards every export's entry: an export entered near the JS stack limit would overflow
// inside the module, and an exception that unwinds through wasm frames leaves the module's state
// (its shadow stack, a `RefCell` borrow, a run never dropped) behind. So each export first checks,
// here, that a probe of PROBE_SLOTS stack slots fits, and otherwise refuses at once: a RangeError
// thrown (sync exports) or a promise rejected with it (async ones), before any of its code runs.
// 64 KB: the module's deepest synchronous path (an export that sends its first request, in V8's
// baseline-compiled wasm frames) was measured to need between 40 and 48 KB (tests/hostile,
// stack:near-limit); the probe costs about 5 µs per export call.

const SLACK_MS = 1000;
/** How long (in on-time ticks) the module may take to answer a ping, and the ticks' period. */
const ANSWER_MS = 500;
const TICK_MS = 50;
/** The longest delay a host timer takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const PROBE_SLOTS = 8192;

/** promise → {resolve, reject, due, signal} of every call in flight. */
const calls = new Map();
/** The calls' bounds, earliest first: a binary heap of [due, entry] (a node whose entry settled, or
 * whose due changed since, is dropped when it reaches the top). */
let dues = [];
/** The Error every call rejects with once the module failed (undefined while it works). */
let failure;
/** The RangeError of the last probe that did not fit (what a call refused near the stack limit rejects with). */
let overflow;
/** The backstop timer, and the time it is armed for. */
let timer;
let timerAt = Infinity;
/** signal → the calls it bounds (one abort listener per signal). */
const watched = new Map();
/** What the module asked to be told when it fails (it stops its runs), and how to ping it. */
let halt;
let ping;
/** While a ping is unanswered: when the last tick came, and the on-time ticks' time so far. */
let asked;
/** Where this module's wasm frames come from, as stack traces name them (learned at the first call). */
let origin;
let listening = false;
/** When the module last settled a call or answered a ping (its sign of life). */
let life = -Infinity;

const probe = new Array(PROBE_SLOTS);
function nothing() {}

/** undefined when the stack has room for an export's synchronous part, else the RangeError of the probe. */
export function cramped() {
  try {
    nothing.apply(undefined, probe);
    return undefined;
  } catch (e) {
    return (overflow = e);
  }
}

/** A new pending promise for an export's call, or undefined when the call must not start: the module
 * failed, or the stack has no room (`refused()` then gives the rejected promise). */
export function open(onFail, onPing) {
  if (failure || cramped() !== undefined) return undefined;
  if (!listening) listen(onFail, onPing);
  let entry;
  const promise = new Promise((resolve, reject) => {
    entry = { resolve, reject, due: Infinity, signal: undefined, done: false };
  });
  calls.set(promise, entry);
  return promise;
}

/** The promise of a call that may not start: rejected with the module's failure, or the stack overflow.
 * It rejects in a microtask, with a full stack: near the stack limit the host's own bookkeeping of a
 * rejection (Node's unhandled-rejection tracking) would overflow. */
export function refused() {
  const reason = failure ?? overflow;
  return new Promise((_, reject) => queueMicrotask(() => reject(reason)));
}

/** Bounds a call: `timeoutMs` from now (Infinity: none), and `signal`'s abort (when given). */
export function bound(promise, timeoutMs, signal) {
  const entry = calls.get(promise);
  if (!entry) return;
  const now = performance.now();
  if (timeoutMs < Infinity) due(entry, now + timeoutMs + SLACK_MS);
  if (signal) {
    if (signal.aborted === true) due(entry, now + SLACK_MS);
    else watch(signal, entry);
  }
}

/** Bounds `entry` by `at` (when that is sooner than its bound so far). */
function due(entry, at) {
  if (at >= entry.due) return;
  entry.due = at;
  dues.push([at, entry]);
  for (let i = dues.length - 1; i > 0; ) {
    const up = (i - 1) >> 1;
    if (dues[up][0] <= at) break;
    [dues[up], dues[i]] = [dues[i], dues[up]];
    i = up;
  }
  if (at < timerAt) arm(at);
}

/** The earliest bound of a call still in flight (dropping the nodes of settled calls and changed bounds;
 * when most nodes are such, the heap is rebuilt from the live ones: a sorted array is a heap). */
function earliest() {
  if (dues.length > 64 + 2 * calls.size) {
    const live = dues.filter(([at, entry]) => !entry.done && entry.due === at);
    live.sort((a, b) => a[0] - b[0]);
    dues = live;
  }
  while (dues.length > 0) {
    const [at, entry] = dues[0];
    if (!entry.done && entry.due === at) return at;
    const last = dues.pop();
    if (dues.length === 0) break;
    dues[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const m = l + 1 < dues.length && dues[l + 1][0] < dues[l][0] ? l + 1 : l;
      if (m >= dues.length || dues[m][0] >= dues[i][0]) break;
      [dues[m], dues[i]] = [dues[i], dues[m]];
      i = m;
    }
  }
  return Infinity;
}

/** Settles a call with what its Rust future ended with (a call already settled is left alone). */
export function settle(promise, ok, value) {
  life = performance.now();
  const entry = calls.get(promise);
  if (!entry) return;
  forget(promise, entry);
  (ok ? entry.resolve : entry.reject)(value);
}

/** The module answered a ping: its timer fired. */
export function alive() {
  life = performance.now();
}

/** How many calls are in flight (for `liveCounts()`). */
export function pending() {
  return calls.size;
}

/** The Error the module failed with, or null. */
export function failed() {
  return failure ?? null;
}

function forget(promise, entry) {
  calls.delete(promise);
  entry.done = true;
  if (entry.signal) unwatch(entry);
  if (calls.size === 0) {
    dues.length = 0;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    timerAt = Infinity;
    asked = undefined;
  }
}

/** Arms the timer for `at` (a time past MAX_TIMER_MS from now is reached in steps: the timer fires
 * early, finds nothing due, and re-arms). */
function arm(at) {
  if (timer !== undefined) clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(backstop, Math.min(Math.max(0, at - performance.now()), MAX_TIMER_MS));
}

/** The timer fired. Nothing past its bound: re-arm for the next bound. A call past its bound while
 * the module showed life within SLACK_MS: look again SLACK_MS after that. No sign of life for
 * SLACK_MS: ping the module, then tick until it answers (it is alive: back to the above) or ANSWER_MS
 * of on-time ticks passed without an answer (it failed). */
function backstop() {
  timer = undefined;
  timerAt = Infinity;
  const now = performance.now();
  const next = earliest();
  if (next > now || now - life < SLACK_MS) {
    asked = undefined;
    if (next > now) {
      if (next < Infinity) arm(next);
    } else {
      arm(life + SLACK_MS);
    }
  } else if (!asked) {
    asked = { last: now, live: 0 };
    try {
      ping();
    } catch (e) {
      return fail(e); // a call into the module traps: it failed
    }
    arm(now + TICK_MS);
  } else {
    const gap = now - asked.last;
    asked.last = now;
    if (gap < 2 * TICK_MS) asked.live += gap;
    if (asked.live < ANSWER_MS) arm(now + TICK_MS);
    else fail(new Error("mcp-tasks-wasm: the module failed to settle a call within 1 s of its deadline or its signal's abort"));
  }
}

function watch(signal, entry) {
  let bounded = watched.get(signal);
  if (!bounded) {
    bounded = new Set();
    const listener = () => aborted(signal);
    try {
      signal.addEventListener("abort", listener);
    } catch {
      return; // a duck-typed signal that cannot be watched: the deadline still bounds the call
    }
    bounded.listener = listener;
    watched.set(signal, bounded);
  }
  bounded.add(entry);
  entry.signal = signal;
}

function unwatch(entry) {
  const signal = entry.signal;
  const bounded = watched.get(signal);
  entry.signal = undefined;
  if (!bounded) return;
  bounded.delete(entry);
  if (bounded.size > 0) return;
  watched.delete(signal);
  try {
    signal.removeEventListener("abort", bounded.listener);
  } catch {}
}

function aborted(signal) {
  const bounded = watched.get(signal);
  if (!bounded) return;
  const at = performance.now() + SLACK_MS;
  for (const entry of bounded) due(entry, at);
}

/** The module failed: every call in flight rejects with one Error, later calls too (`refused`). */
function fail(cause) {
  if (failure) return;
  failure = new Error(
    "mcp-tasks-wasm: the module failed and cannot settle this call (the task may still run on the server); " +
      "reload the page or restart the worker to use it again",
    { cause },
  );
  failure.name = "McpTasksWasmFailure";
  const entries = [...calls.values()];
  calls.clear();
  dues.length = 0;
  for (const [signal, bounded] of watched) {
    try {
      signal.removeEventListener("abort", bounded.listener);
    } catch {}
  }
  watched.clear();
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  for (const entry of entries) entry.reject(failure);
  try {
    halt?.();
  } catch {}
}

/** Learns where the module's frames come from, keeps its halt switch and its ping, and, in pages and
 * workers (never in Node), listens for the module's traps. */
function listen(onFail, onPing) {
  listening = true;
  halt = onFail;
  ping = onPing;
  origin = /([^\s(@]+):wasm-function\[/.exec(new Error().stack ?? "")?.[1];
  const node = typeof process === "object" && typeof process.versions?.node === "string";
  if (node || typeof globalThis.addEventListener !== "function") return;
  const trapped = (e) => {
    const error = e.error ?? e.reason;
    if (!(error instanceof WebAssembly.RuntimeError)) return;
    if (origin === undefined || String(error.stack).includes(origin)) fail(error);
  };
  globalThis.addEventListener("error", trapped);
  globalThis.addEventListener("unhandledrejection", trapped);
}
