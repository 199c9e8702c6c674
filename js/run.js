// The JS driver of the engine: the public async functions (`callTool`, `awaitTask`, `callAndAwait`,
// `getTask`, `updateTask`, `cancelTask`) and `liveCounts`. Each reads and checks every argument first
// (a bad one rejects with a `TypeError` "function: message"; nothing is sent), starts a machine in the
// wasm module, then carries out what the machine decides: it sends the requests through the client,
// calls the input handlers and `onStatus`, reads the listen stream, watches the abort signals, keeps
// the module's one timer, and settles the returned promise. It makes no protocol decision; no
// exported function throws.
//
// Re-entrancy: application code (a client, a handler, `onStatus`, a getter or Proxy trap, a
// duck-typed signal) may call back into the library at any moment. An event for a run that is being
// fed waits in the run's inbox and is fed right after.
import { dropRun, feedRun, startRun } from "./mcp_tasks_wasm.js";
import { attempt, isObject, isObjectLike, nothing, readKey } from "./values.js";

// Event codes of feedRun (src/wasm/runs.rs).
const NONE = 0, TICK = 1, RESULT = 2, REJECTED = 3, ANSWER = 4, THROW = 5, MESSAGE = 6, END = 7, FAILED = 8,
  UNSUPPORTED = 9, ABORT = 10;
// Abort scopes: the whole call, only the call part of callAndAwait, only its wait part.
const ALL = 0, CALL = 1, WAIT = 2;
// What a pending handle stands for.
const REQUEST = 1, ASK = 2, DETACHED = 3;
/** The longest delay `setTimeout` takes; longer waits re-arm. */
const MAX_TIMER_MS = 2147483647;
const HANDLER_NAMES = ["form", "url", "sampling", "roots"];

/** Milliseconds on the monotonic clock. */
const now = () => Math.floor(Math.max(0, performance.now()));

// ---- Reading the arguments: a bad one throws its message (a string), `launch` makes the TypeError.

/** A function property: undefined when absent, the message when present but not a function. */
function fn(o, key) {
  const v = readKey(o, key);
  if (v === undefined || typeof v === "function") return v;
  throw `${key} must be a function`;
}

/** A duration property in milliseconds: NaN when absent, else a non-negative number (or Infinity). */
function millis(o, key) {
  const v = readKey(o, key);
  if (v === undefined) return NaN;
  if (typeof v === "number" && v >= 0) return v;
  throw `${key} must be a non-negative number of milliseconds (or Infinity)`;
}

/** A boolean property (default false). */
function flag(o, key) {
  const v = readKey(o, key);
  if (v === undefined || typeof v === "boolean") return v === true;
  throw `${key} must be a boolean`;
}

/** An options object (`undefined` and `null` read as none). */
function options(v) {
  if (v === undefined || v === null) return undefined;
  if (isObject(v)) return v;
  throw "options must be an object";
}

/** A non-empty string argument. */
function name(v, what) {
  if (typeof v === "string" && v !== "") return v;
  throw `the ${what} must be a non-empty string`;
}

/** The client read last without `clientCapabilities`: the next call on the same unchanged client
 * shares its reading (thousands of waits on one client hold one). */
let lastClient;

/** Reads a duck-typed client: any object with a `request` function. */
function readClient(c) {
  if (!isObjectLike(c)) throw "the client must be an object with a request function";
  const request = fn(c, "request");
  if (request === undefined) throw "the client has no request function";
  const listen = fn(c, "listen");
  const caps = readKey(c, "clientCapabilities");
  if (caps !== undefined) {
    if (!isObjectLike(caps)) throw "client.clientCapabilities must be an object";
    if (!isObject(caps) || !attempt(() => Object.keys(caps))) throw "client.clientCapabilities cannot be read";
  }
  const timeout = millis(c, "requestTimeoutMs");
  const handlers = readKey(c, "inputHandlers");
  const l = lastClient;
  if (caps === undefined && l && l.object === c && l.request === request && l.listen === listen && l.handlers === handlers &&
    Object.is(l.timeout, timeout)) return l;
  const read = { object: c, request, listen, caps, timeout, handlers };
  if (caps === undefined) lastClient = read;
  return read;
}

/** The `signal` option: an AbortSignal (duck-typed: `aborted` and `addEventListener`). */
function signalOf(o) {
  const s = readKey(o, "signal");
  if (s === undefined) return undefined;
  if (readKey(s, "aborted") !== undefined && fn(s, "addEventListener") !== undefined) return s;
  throw "signal must be an AbortSignal";
}

/**
 * The options every machine shares, as the module takes them (src/wasm/exports.rs, `at`): [now,
 * timeoutMs, requestTimeoutMs (the client's when not given), input mode, handlers given, retries, seed];
 * and the application callbacks.
 */
function common(client, o, withInput) {
  const nums = [now(), millis(o, "timeoutMs"), readKey(o, "requestTimeoutMs") === undefined ? client.timeout : millis(o, "requestTimeoutMs"), 0, 0, NaN, NaN];
  const hooks = { onStatus: undefined, input: undefined, handlers: undefined, next: undefined };
  if (withInput) {
    let handlers = readKey(o, "inputHandlers");
    if (handlers === undefined) handlers = client.handlers;
    else if (!isObjectLike(handlers)) throw "inputHandlers must be an object";
    hooks.handlers = handlers;
    nums[4] = HANDLER_NAMES.reduce((bits, h, i) => (typeof readKey(handlers, h) === "function" ? bits | (1 << i) : bits), 0);
    const input = readKey(o, "input");
    if (input === "return") nums[3] = 1;
    else if (typeof input === "function") {
      nums[3] = 2;
      hooks.input = input;
    } else if (input !== undefined && input !== "handlers") throw 'input must be "handlers", "return" or a function';
  }
  return { nums, hooks };
}

/** The `retries` option (default 3) and the seed of the backoff jitter, into `nums`. */
function retry(o, nums) {
  const v = readKey(o, "retries");
  if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v <= 4294967295)) throw "retries must be a whole number, at least 0";
  nums[5] = v ?? NaN;
  nums[6] = Math.floor(Math.random() * 9007199254740991);
}

/** Everything `callTool` reads. */
function readCall(client, tool, args, opts) {
  const c = readClient(client);
  const n = name(tool, "tool name");
  if (args === null) args = undefined;
  else if (args !== undefined && !isObjectLike(args)) throw "args must be an object";
  const o = options(opts);
  const { nums, hooks } = common(c, o, true);
  return { c, n, args, responses: readKey(o, "inputResponses"), state: readKey(o, "requestState"), nums, hooks, signal: signalOf(o) };
}

/** Everything `awaitTask` reads (`answered` and the seed are the module's to check). */
function readWait(c, opts) {
  const o = options(opts);
  const { nums, hooks } = common(c, o, true);
  retry(o, nums);
  nums.push(millis(o, "pollIntervalMs"), millis(o, "minPollIntervalMs"), millis(o, "maxPollIntervalMs"), millis(o, "listenCheckMs"),
    (flag(o, "cancelOnAbort") ? 1 : 0) | (flag(o, "listen") ? 2 : 0));
  hooks.onStatus = fn(o, "onStatus");
  return { o, nums, hooks, signal: signalOf(o) };
}

// ---- Running.

/** Runs in progress. */
const runs = new Set();
/** Detached requests (best-effort cancels) whose bound is still armed. */
const detached = new Set();

/**
 * Reads the arguments with `read` (which returns `[handle or TypeError message, client, hooks,
 * [[signal, scope]...]]`) and runs the machine; the promise settles with its outcome. A signal already
 * aborted (but the wait's own) rejects at once with its reason, before anything is sent.
 */
function launch(what, read) {
  let parts;
  try {
    parts = read();
  } catch (m) {
    return Promise.reject(typeof m === "string" ? new TypeError(`${what}: ${m}`) : m);
  }
  const [handle, client, hooks, signals] = parts;
  if (typeof handle === "string") return Promise.reject(new TypeError(`${what}: ${handle}`));
  const early = signals.find(([s, scope]) => scope !== WAIT && isAborted(s));
  if (early) {
    dropRun(handle);
    return Promise.reject(reasonOf(early[0]));
  }
  let resolve, reject;
  const promise = new Promise((a, b) => {
    resolve = a;
    reject = b;
  });
  const run = {
    handle, client, hooks, resolve, reject,
    /** Pending request and ask handles (undefined when none). */
    live: undefined,
    /** The open listen stream. */
    stream: undefined,
    /** The functions that stop watching the signals. */
    stops: undefined,
    /** Events that came while the run was being fed: [kind, id, value]... */
    inbox: undefined,
    busy: false,
    done: false,
    /** The earliest time the run is queued at in the timer. */
    wake: Infinity,
    /** `[error]` once `onStatus` threw: the promise rejects with it, whatever the outcome. */
    thrown: undefined,
  };
  runs.add(run);
  for (const [s, scope] of signals) {
    const stop = watch(run, s, scope);
    if (stop) (run.stops ??= []).push(stop);
  }
  deliver(run, NONE, 0, undefined);
  for (const [s, scope] of signals) if (isAborted(s)) deliver(run, ABORT, scope, reasonOf(s));
  return promise;
}

/** Feeds `run` the event and carries out what it decides, then every event that came meanwhile. */
function deliver(run, kind, id, value) {
  if (run.done) return;
  if (run.busy) {
    (run.inbox ??= []).push(kind, id, value);
    return;
  }
  run.busy = true;
  try {
    for (;;) {
      const out = [];
      const wakeAt = feedRun(run.handle, kind, id, value, now(), out);
      perform(run, out);
      if (run.done || wakeAt === -2) return; // -2 cannot happen: nobody else feeds the run
      if (!run.inbox?.length) {
        run.inbox = undefined; // an idle run keeps no buffers (memory per wait)
        if (wakeAt >= 0 && wakeAt < run.wake) {
          run.wake = wakeAt;
          wake(wakeAt, run);
        }
        return;
      }
      [kind, id, value] = run.inbox.splice(0, 3);
    }
  } catch (e) {
    // Only a bug in the module itself can get here (a trap); say so instead of an unhandled rejection.
    console.error("mcp-tasks-wasm: internal error", e);
  } finally {
    run.busy = false;
  }
}

/** Carries out the actions `(code, id, a, b, c, d, ms)...` of one feed, in order. */
function perform(run, out) {
  for (let i = 0; i < out.length && !run.done; i += 7) {
    const id = out[i + 1], a = out[i + 2], b = out[i + 3], c = out[i + 4], d = out[i + 5], ms = out[i + 6];
    switch (out[i]) {
      case 1: // send (id, method, params; ms its time, -1 none)
        add(run, send(run, a, b, ms < 0 ? undefined : ms, REQUEST, id));
        break;
      case 2: // send detached (method, params; ms): aborted by the timer at its bound
        sendDetached(run, a, b, ms);
        break;
      case 3: // abort a request
      case 7: // stop an ask
        abort(remove(run, out[i] === 3 ? REQUEST : ASK, id));
        break;
      case 4: // status
        status(run, a);
        break;
      case 5: { // ask a handler (id, handler name, key, params, status)
        const handlers = run.hooks.handlers;
        const f = readKey(handlers, a);
        // The handler vanished since the options were read: an invalid answer.
        if (typeof f !== "function") deliver(run, ANSWER, id, undefined);
        else ask(run, id, (hd) => f.call(handlers, c, { key: b, status: d, get signal() { return signalFor(hd); } }));
        break;
      }
      case 6: { // ask the input function (id, status)
        const f = run.hooks.input;
        if (f === undefined) deliver(run, ANSWER, id, undefined);
        else ask(run, id, (hd) => f.call(undefined, a, { get signal() { return signalFor(hd); } }));
        break;
      }
      case 8: // open the listen stream (params)
        if (run.client.listen === undefined) deliver(run, UNSUPPORTED, 0, undefined);
        else run.stream = openStream(run, a);
        break;
      case 9: { // close it
        const s = run.stream;
        run.stream = undefined;
        if (s) closeStream(s);
        break;
      }
      case 10: // the next part's callbacks apply from now on
        if (run.hooks.next) run.hooks = run.hooks.next;
        break;
      case 11: // resolve
        end(run, run.thrown === undefined, run.thrown === undefined ? a : run.thrown[0]);
        break;
      case 12: // reject
        end(run, false, a);
        break;
    }
  }
}

/** Calls `onStatus` with a status; what it throws ends the run (the promise rejects with it). */
function status(run, value) {
  const f = run.hooks.onStatus;
  if (f === undefined) return;
  try {
    f.call(undefined, value);
  } catch (e) {
    run.thrown ??= [e];
    deliver(run, THROW, 0, e);
  }
}

/**
 * A pending request or ask. Its AbortController is made when its `signal` is first read (most clients
 * and handlers never read it, and an AbortController is one of the dearest objects a wait would make):
 * a signal read after `abort` is already aborted, one read before fires as usual.
 */
function handle(kind, id) {
  return { kind, id, c: undefined, aborted: false };
}

/** The handle's signal (made on first read). */
function signalFor(hd) {
  if (hd.c === undefined) {
    hd.c = new AbortController();
    if (hd.aborted) hd.c.abort();
  }
  return hd.c.signal;
}

/** Aborts a handle (the signal's listeners are application code: what they throw stays with them). */
function abort(hd) {
  if (hd === undefined) return;
  hd.aborted = true;
  attempt(() => hd.c?.abort());
}

function add(run, hd) {
  (run.live ??= []).push(hd);
}

/** Takes the pending handle of `kind` and `id` (or `hd` itself) out of the run; undefined when gone. */
function remove(run, kind, id, hd) {
  const live = run.live;
  const at = live ? live.findIndex((x) => (hd ? x === hd : x.kind === kind && x.id === id)) : -1;
  if (at < 0) return undefined;
  const [taken] = live.splice(at, 1);
  if (!live.length) run.live = undefined;
  return taken;
}

/** Calls `f()` and reports how the promise it returns (or its synchronous throw) ends to `then`. */
function settleFrom(f, then) {
  let p;
  try {
    p = Promise.resolve(f());
  } catch (e) {
    p = Promise.reject(e);
  }
  p.then((v) => then(true, v), (e) => then(false, e));
}

/** `client.request(method, params, {signal, timeoutMs?})`; the answer is fed as `kind`'s event. */
function send(run, method, params, timeoutMs, kind, id) {
  const hd = handle(kind, id);
  // `signal` is an own enumerable property, its AbortController made on first read.
  const opts = timeoutMs === undefined
    ? { get signal() { return signalFor(hd); } }
    : { get signal() { return signalFor(hd); }, timeoutMs };
  const { object, request } = run.client;
  settleFrom(() => request.call(object, method, params, opts), (ok, v) => {
    if (kind === DETACHED) {
      if (detached.delete(hd)) arm();
    } else if (remove(run, kind, id, hd)) deliver(run, ok ? RESULT : REJECTED, id, v);
  });
  return hd;
}

/** A best-effort request whose answer nobody awaits, aborted after `timeoutMs` by the timer. */
function sendDetached(run, method, params, timeoutMs) {
  const hd = send(run, method, params, timeoutMs, DETACHED, 0);
  detached.add(hd);
  wake(now() + timeoutMs, hd);
}

/** Calls an input handler or the input function (`call(handle)`); its answer (or what it threw) is fed. */
function ask(run, id, call) {
  const hd = handle(ASK, id);
  settleFrom(() => call(hd), (ok, v) => {
    if (remove(run, ASK, id, hd)) deliver(run, ok ? ANSWER : THROW, id, v);
  });
  add(run, hd);
}

/** Asks an iterator to return, ignoring what that throws or rejects with. */
function quietReturn(it) {
  attempt(() => {
    const r = it.return?.();
    if (r && typeof r.then === "function") r.then(undefined, nothing);
  });
}

/** Opens `listen.call(client, params, {signal})` and feeds each message, the end or the failure until
 * closed. Returns the stream's handle. */
function openStream(run, params) {
  const c = new AbortController();
  const s = { c, it: undefined, closed: false };
  const { object, listen } = run.client;
  (async () => {
    const source = await listen.call(object, params, { signal: c.signal });
    const it = typeof source?.[Symbol.asyncIterator] === "function" ? source[Symbol.asyncIterator]() : source;
    if (!it || typeof it.next !== "function") throw new TypeError("listen() did not give an async iterable");
    s.it = it;
    if (s.closed) return quietReturn(it);
    for (;;) {
      const step = await it.next();
      if (s.closed) return;
      if (step === null || typeof step !== "object") throw new TypeError("the listen iterator gave a step that is not an object");
      if (step.done) return deliver(run, END, 0, undefined);
      deliver(run, MESSAGE, 0, step.value);
    }
  })().catch((e) => {
    if (!s.closed) deliver(run, FAILED, 0, e);
  });
  return s;
}

/** Closes a stream without waiting for it: aborts its signal and asks its iterator to return. */
function closeStream(s) {
  s.closed = true;
  attempt(() => s.c.abort());
  if (s.it) quietReturn(s.it);
}

/** `signal.aborted === true`, false when it cannot be read. */
function isAborted(signal) {
  return attempt(() => signal.aborted === true, false);
}

/** `signal.reason` (what reading it throws when it cannot be read). */
function reasonOf(signal) {
  try {
    return signal.reason;
  } catch (e) {
    return e;
  }
}

/** Watches an abort signal: feeds the abort once. Returns the function that stops watching, or
 * undefined when the signal cannot be watched. */
function watch(run, signal, scope) {
  const on = () => deliver(run, ABORT, scope, reasonOf(signal));
  return attempt(() => {
    signal.addEventListener("abort", on, { once: true });
    return () => attempt(() => signal.removeEventListener("abort", on));
  });
}

/** Ends a run: stops every request, ask, stream and signal watch (none awaited), then settles. */
function end(run, ok, value) {
  run.done = true;
  runs.delete(run);
  const { stops, live, stream } = run;
  run.live = run.stream = run.stops = run.inbox = undefined;
  if (stops) for (const stop of stops) stop();
  if (live) for (const hd of live) abort(hd);
  if (stream) closeStream(stream);
  (ok ? run.resolve : run.reject)(value);
  arm();
}

// ---- The one timer: a binary heap of [at, target] (a run, or a detached request's handle); only the
// earliest live entry is armed. Entries of targets that ended are dropped when they reach the top, so
// an idle module holds no timer (and a Node process can exit).

const heap = [];
let timer, armedAt;

const dead = (t) => (t.kind === DETACHED ? !detached.has(t) : t.done);

function wake(at, target) {
  let i = heap.push([at, target]) - 1;
  while (i > 0) {
    const up = (i - 1) >> 1;
    if (heap[up][0] <= at) break;
    [heap[up], heap[i]] = [heap[i], heap[up]];
    i = up;
  }
  arm();
}

function pop() {
  const top = heap[0];
  const last = heap.pop();
  if (heap.length) {
    heap[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < heap.length && heap[l][0] < heap[m][0]) m = l;
      if (r < heap.length && heap[r][0] < heap[m][0]) m = r;
      if (m === i) break;
      [heap[m], heap[i]] = [heap[i], heap[m]];
      i = m;
    }
  }
  return top;
}

/** Arms the timer for the earliest entry of a live target (or disarms it when there is none). */
function arm() {
  while (heap.length && dead(heap[0][1])) pop();
  const at = heap.length ? heap[0][0] : undefined;
  if (at === armedAt) return;
  clearTimeout(timer);
  armedAt = at;
  timer = at === undefined ? undefined : setTimeout(fire, Math.min(Math.max(at - now(), 0), MAX_TIMER_MS));
}

/** The timer fired: wakes every due target, then re-arms. */
function fire() {
  timer = armedAt = undefined;
  const t = now();
  const due = [];
  while (heap.length && heap[0][0] <= t) due.push(pop());
  for (const [at, target] of due) {
    if (target.kind === DETACHED) {
      if (detached.delete(target)) abort(target);
    } else if (!target.done) {
      if (target.wake === at) target.wake = Infinity;
      deliver(target, TICK, 0, undefined);
    }
  }
  arm();
}

// ---- The API.

/** Sends a task-augmented `tools/call` (the tasks extension declared in its `_meta`) and resolves
 * with `{tag: "task", status}`, `{tag: "ok", result}`, `{tag: "input_required", status}` or
 * `{tag: "error", error}`. MRTR rounds are answered through the `input` option. */
export function callTool(client, tool, args, opts) {
  return launch("callTool", () => {
    const r = readCall(client, tool, args, opts);
    return [startRun(0, r.n, r.args, r.responses, r.state, r.c.caps, r.nums, []), r.c, r.hooks, watched(r.signal, ALL)];
  });
}

/** Waits for a task to finish (polling `tasks/get`, or listening with `listen: true`), answering
 * input requests on the way. Resolves with `{tag: "ok", result}`, `{tag: "error", error}`,
 * `{tag: "cancelled", status}` or `{tag: "input_required", status}`. */
export function awaitTask(client, statusOrTaskId, opts) {
  return launch("awaitTask", () => {
    const c = readClient(client);
    const w = readWait(c, opts);
    return [startRun(1, "", statusOrTaskId, readKey(w.o, "answered"), undefined, c.caps, w.nums, []), c, w.hooks, watched(w.signal, ALL)];
  });
}

/** `callTool`, then `awaitTask` when it created a task; an immediate result, error or
 * `input_required` is returned as is. Every argument of both parts is checked before anything is
 * sent. The call's `signal` also bounds the wait unless `awaitOptions` has its own. */
export function callAndAwait(client, tool, args, callOptions, awaitOptions) {
  return launch("callAndAwait", () => {
    const r = readCall(client, tool, args, callOptions);
    const w = readWait(r.c, awaitOptions);
    const signals = [...watched(r.signal, w.signal === undefined ? ALL : CALL), ...watched(w.signal, WAIT)];
    r.hooks.next = w.hooks;
    return [startRun(2, r.n, r.args, r.responses, r.state, r.c.caps, r.nums, w.nums), r.c, r.hooks, signals];
  });
}

function watched(signal, scope) {
  return signal === undefined ? [] : [[signal, scope]];
}

/** A one-request run: `kind` 3 `tasks/get`, 4 `tasks/update`, 5 `tasks/cancel` (startRun's kinds). */
function step(what, kind, client, taskId, responses, opts) {
  return launch(what, () => {
    const c = readClient(client);
    const id = name(taskId, "task id");
    const o = options(opts);
    const { nums, hooks } = common(c, o, false);
    retry(o, nums);
    return [startRun(kind, id, responses, undefined, undefined, c.caps, nums, []), c, hooks, watched(signalOf(o), ALL)];
  });
}

/** Reads a task's status once (`tasks/get`): `{tag: "ok", status}` or `{tag: "error", error}`. */
export function getTask(client, taskId, opts) {
  return step("getTask", 3, client, taskId, undefined, opts);
}

/** Answers input requests by hand (`tasks/update` with `responses` as `inputResponses`):
 * `{tag: "ok"}` or `{tag: "error", error}`. */
export function updateTask(client, taskId, responses, opts) {
  if (!isObject(responses)) return Promise.reject(new TypeError("updateTask: responses must be an object (key → response)"));
  return step("updateTask", 4, client, taskId, responses, opts);
}

/** Asks the server to cancel a task (`tasks/cancel`): `{tag: "ok"}` or `{tag: "error", error}`.
 * The acknowledgement does not mean the task ended `cancelled`; `awaitTask` tells. */
export function cancelTask(client, taskId, opts) {
  return step("cancelTask", 5, client, taskId, undefined, opts);
}

/** Live counts of what the library holds, for leak checks: `{runs, requests, asks, streams, timers}`
 * (calls in progress, requests in flight incl. detached cancels, input handler calls running, open
 * listen streams, armed timers — at most one). All zero when nothing is running. */
export function liveCounts() {
  let requests = detached.size, asks = 0, streams = 0;
  for (const run of runs) {
    for (const hd of run.live ?? []) hd.kind === REQUEST ? requests++ : asks++;
    if (run.stream) streams++;
  }
  return { runs: runs.size, requests, asks, streams, timers: timer === undefined ? 0 : 1 };
}
