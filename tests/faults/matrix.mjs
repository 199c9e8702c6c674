// The fault matrix: one scenario module run unchanged in Node and in headless Chromium, through the
// built package, against instrumented clients that misbehave in every documented way. `lib` is the
// package module (pkg/node.js, or pkg/index.js after `await init()`).
//
// Every cell calls the library once (`t.outcome`) and then the harness checks, whatever the cell:
//  1. the documented outcome (asserted by the cell itself);
//  2. the outcome came no later than the call's timeoutMs + 50 ms;
//  3. everything still in flight at the outcome (requests, listen streams, input handler calls) had its
//     signal aborted, and nothing went out after the outcome (checked again 100 ms later);
//  4. lib.liveCounts() is back to the baseline within ~20 ms (all zero; with the background wait of the
//     "parallel" pass, exactly that one run and its one timer);
//  5. the module still works: a quick awaitTask against a tiny healthy client ends "cancelled";
//  and no uncaught exception, unhandled rejection or console.error happened during the cell.

const now = () => performance.now();
/** Orders records and outcomes even where performance.now() is coarse (browsers). */
let seq = 0;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const never = () => new Promise(() => {});

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** A short, never-throwing description of any value (Proxies, revoked Proxies and deep objects included). */
export function show(v, depth = 0) {
  try {
    if (v === undefined) return "undefined";
    if (v === null || typeof v === "number" || typeof v === "boolean") return String(v);
    if (typeof v === "string") return JSON.stringify(v.length > 120 ? `${v.slice(0, 120)}…` : v);
    if (typeof v === "function") return `[function ${v.name}]`;
    if (typeof v !== "object") return String(v);
    if (v instanceof Error) return `${v.name}(${JSON.stringify(v.message)})`;
    if (depth > 3) return "{…}";
    if (Array.isArray(v)) return `[${v.slice(0, 8).map((x) => show(x, depth + 1)).join(", ")}${v.length > 8 ? ", …" : ""}]`;
    const keys = Object.keys(v);
    const parts = keys.slice(0, 12).map((k) => {
      let x;
      try {
        x = show(v[k], depth + 1);
      } catch {
        x = "<unreadable>";
      }
      return `${k}: ${x}`;
    });
    return `{${parts.join(", ")}${keys.length > 12 ? ", …" : ""}}`;
  } catch {
    return "<unreadable>";
  }
}

const ZERO = { runs: 0, requests: 0, asks: 0, streams: 0, timers: 0, calls: 0, failed: null };
/** What liveCounts() shows while only the background wait of the parallel pass runs. */
const WITH_BACKGROUND = { runs: 1, requests: 0, asks: 0, streams: 0, timers: 1, calls: 1, failed: null };
const sameCounts = (a, b) => a && Object.keys(b).length === Object.keys(a).length && Object.keys(b).every((k) => a[k] === b[k]);

// ---- wire values ------------------------------------------------------------------------------

const ACK = (ids = ["t1"]) => ({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds: ids } } });
const EVENT = (fields) => ({ jsonrpc: "2.0", method: "notifications/tasks", params: { taskId: "t1", ...fields } });
const COMPLETED_EVENT = () => EVENT({ status: "completed", result: { content: [] } });
const FORM = (message = "?") => ({ method: "elicitation/create", params: { message, requestedSchema: { type: "object", properties: { v: { type: "string" } } } } });
const ACCEPT = () => ({ tag: "ok", response: { action: "accept", content: { v: "yes" } } });
const working = (extra) => ({ resultType: "complete", taskId: "t1", status: "working", pollIntervalMs: 20, ...extra });
const done = (result = { content: [{ type: "text", text: "done" }] }) => ({ resultType: "complete", taskId: "t1", status: "completed", result });
const asking = (inputRequests, extra) => ({ resultType: "complete", taskId: "t1", status: "input_required", pollIntervalMs: 20, inputRequests, ...extra });

/** A Proxy over a task reply whose traps pass until `arm()`, then every get/ownKeys/getOwnPropertyDescriptor
 * (and has) throws. Arming after the promise is fulfilled is the only way such a value can reach the library:
 * fulfilling a promise reads `then`, and a throwing `then` turns the fulfilment into a rejection. */
function armedProxy(target) {
  let armed = false;
  const trap = (name, fallback) => (...a) => {
    if (armed) throw new Error(`${name} trap`);
    return fallback(...a);
  };
  const proxy = new Proxy(target, {
    get: trap("get", Reflect.get),
    ownKeys: trap("ownKeys", Reflect.ownKeys),
    getOwnPropertyDescriptor: trap("getOwnPropertyDescriptor", Reflect.getOwnPropertyDescriptor),
    has: trap("has", Reflect.has),
  });
  return { proxy, arm: () => (armed = true) };
}

/** A promise fulfilled with `value`, after which `after()` runs (synchronously). */
function fulfilledThen(value, after) {
  const p = Promise.resolve(value);
  after();
  return p;
}

function deepObject(levels) {
  let o = { content: [{ type: "text", text: "bottom" }] };
  for (let i = 0; i < levels; i += 1) o = { a: o };
  return o;
}

// ---- a controllable listen stream -------------------------------------------------------------

/** An async iterator the cell drives: `push(message)`, `end()`, `fail(e)`; or custom `next`/`return`. */
function stream({ next, ret } = {}) {
  const queue = [];
  const waiters = [];
  const s = {
    nextCalls: 0,
    returnCalls: 0,
    returned: false,
    deliver(step) {
      const w = waiters.shift();
      if (w) step.error !== undefined ? w.reject(step.error) : w.resolve(step.value);
      else queue.push(step);
    },
    push(message) {
      s.deliver({ value: { done: false, value: message } });
    },
    end() {
      s.deliver({ value: { done: true, value: undefined } });
    },
    fail(error) {
      s.deliver({ error });
    },
  };
  const it = {
    next() {
      s.nextCalls += 1;
      if (next) return next(s.nextCalls);
      const step = queue.shift();
      if (step) return step.error !== undefined ? Promise.reject(step.error) : Promise.resolve(step.value);
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    },
    return() {
      s.returnCalls += 1;
      s.returned = true;
      if (ret) return ret();
      for (const w of waiters.splice(0)) w.resolve({ done: true, value: undefined });
      return Promise.resolve({ done: true, value: undefined });
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  s.iterator = it;
  return s;
}

// ---- the per-cell context ---------------------------------------------------------------------

function isPromise(v) {
  try {
    return v instanceof Promise;
  } catch {
    return false;
  }
}

class Cell {
  constructor(lib) {
    this.lib = lib;
    /** Every request and listen open of every client of this cell, in order. */
    this.log = [];
    /** Every input handler call. */
    this.asks = [];
    this.out = undefined;
    /** Records exempt from "aborted at the outcome" (the detached best-effort cancel). */
    this.exempt = () => false;
    /** How long liveCounts may take to come back to the baseline after the outcome. */
    this.settleMs = 25;
  }

  /**
   * An instrumented client. `answers` maps a method to `(ctx) => value | promise` with
   * ctx = {n, params, signal, timeoutMs, rec} (n counts that method's requests, from 1);
   * `listen` is `(params, ctx) => iterable | promise` (omitted: the client has no listen).
   */
  client(answers = {}, { listen, ...props } = {}) {
    const counts = {};
    const log = this.log;
    const client = {
      ...props,
      request(method, params, options = {}) {
        counts[method] = (counts[method] ?? 0) + 1;
        const rec = { seq: ++seq, kind: "request", method, params, at: now(), signal: options.signal, timeoutMs: options.timeoutMs, settledAt: null, abortedAt: null, n: counts[method] };
        log.push(rec);
        options.signal?.addEventListener("abort", () => (rec.abortedAt = now()), { once: true });
        const answer = answers[method];
        let p;
        try {
          p = answer ? answer({ n: rec.n, params, signal: options.signal, timeoutMs: options.timeoutMs, rec }) : Promise.reject(new Error(`unexpected ${method}`));
        } catch (e) {
          p = Promise.reject(e);
        }
        // A native promise is handed back as is (so a value fulfilled earlier is not re-resolved).
        if (!isPromise(p)) p = Promise.resolve(p);
        p.then(() => (rec.settledAt = now()), () => (rec.settledAt = now()));
        return p;
      },
    };
    if (listen) {
      client.listen = function (params, options = {}) {
        counts.listen = (counts.listen ?? 0) + 1;
        const rec = { seq: ++seq, kind: "listen", method: "subscriptions/listen", params, at: now(), signal: options.signal, settledAt: null, abortedAt: null, n: counts.listen };
        log.push(rec);
        options.signal?.addEventListener("abort", () => (rec.abortedAt = now()), { once: true });
        return listen(params, { n: rec.n, signal: options.signal, rec });
      };
    }
    return client;
  }

  /** Wraps an input handler so that its calls are recorded (params, key, signal, when it settled). */
  handler(kind, fn) {
    const asks = this.asks;
    return function (params, context) {
      const rec = { seq: ++seq, kind, params, key: context?.key, status: context?.status, signal: context?.signal, at: now(), settledAt: null, abortedAt: null };
      asks.push(rec);
      context?.signal?.addEventListener("abort", () => (rec.abortedAt = now()), { once: true });
      let r;
      try {
        r = fn(params, context, rec);
      } catch (e) {
        rec.settledAt = now();
        throw e;
      }
      if (isPromise(r)) r.then(() => (rec.settledAt = now()), () => (rec.settledAt = now()));
      else rec.settledAt = now();
      return r;
    };
  }

  requests(method) {
    return this.log.filter((r) => r.kind === "request" && (!method || r.method === method));
  }

  listens() {
    return this.log.filter((r) => r.kind === "listen");
  }

  /**
   * Calls the library (`start()` must return a promise, never throw) and records how and when it settled.
   * `timeoutMs` is the call's bound for the time check. Checks at once that everything still in flight
   * had its signal aborted.
   */
  async outcome(start, { timeoutMs = 60_000 } = {}) {
    assert(this.out === undefined, "a cell calls the library once");
    const t0 = now();
    let p;
    try {
      p = start();
    } catch (e) {
      this.out = { threw: e };
      throw new Error(`the call threw synchronously instead of rejecting: ${show(e)}`);
    }
    assert(isPromise(p), `the call returned ${show(p)}, not a Promise`);
    let o;
    try {
      o = { resolved: true, value: await p };
    } catch (e) {
      o = { resolved: false, error: e };
    }
    o.at = now();
    o.seq = ++seq;
    o.t0 = t0;
    o.ms = o.at - t0;
    o.timeoutMs = timeoutMs;
    this.out = o;
    this.inFlightAtOutcome = [];
    for (const r of this.log) {
      const open = r.kind === "listen" || r.settledAt === null;
      if (open && !this.exempt(r)) {
        this.inFlightAtOutcome.push(r);
        assert(r.signal?.aborted === true, `${r.method} #${r.n} still in flight at the outcome without its signal aborted`);
      }
    }
    for (const a of this.asks) {
      if (a.settledAt === null) assert(a.signal?.aborted === true, `the ${a.kind} handler for "${a.key}" still running at the outcome without its signal aborted`);
    }
    return o;
  }
}

// ---- expectations ------------------------------------------------------------------------------

function describe(o) {
  return o.resolved ? `resolved ${show(o.value)}` : `rejected with ${show(o.error)}`;
}

function expectTag(o, tag) {
  assert(o.resolved && o.value?.tag === tag, `expected {tag: "${tag}"}, got ${describe(o)}`);
  return o.value;
}

function expectError(o, { code, kind, type, method, key }) {
  const v = expectTag(o, "error");
  const e = v.error;
  const got = { code: e?.code, kind: e?.kind, type: e?.cause?.type, method: e?.cause?.method, key: e?.cause?.key };
  const want = { code, kind, type, method, key };
  for (const k of Object.keys(want)) {
    if (want[k] !== undefined) assert(got[k] === want[k], `expected error ${show(want)}, got ${show(got)} (${show(e?.message)})`);
  }
  return e;
}

function expectRejectedWith(o, value) {
  assert(!o.resolved, `expected a rejection with ${show(value)}, got ${describe(o)}`);
  assert(o.error === value, `expected a rejection with that very value ${show(value)}, got ${show(o.error)}`);
}

function expectTypeError(o) {
  assert(!o.resolved, `expected a TypeError rejection, got ${describe(o)}`);
  assert(o.error instanceof TypeError, `expected a TypeError, got ${show(o.error)}`);
}

// ---- the cells ----------------------------------------------------------------------------------

/**
 * The cells: `[{name, expect, run(t)}]`. `expect` is the documented outcome (for the table in README.md).
 */
function cells() {
  const list = [];
  const cell = (name, expect, run) => list.push({ name, expect, run });
  const T300 = { timeoutMs: 300 };

  // -- tasks/get rejections ------------------------------------------------------------------
  const transient = [
    ['new Error("x")', () => new Error("x")],
    ['a string "x"', () => "x"],
    ["undefined", () => undefined],
    ["null", () => null],
    ["{code: -32602} (no message)", () => ({ code: -32602 })],
  ];
  for (const [label, make] of transient) {
    cell(`tasks/get rejects with ${label}`, "error -32000 transport request_failed (tasks/get), re-issued at most once, before the deadline", async (t) => {
      const thrown = [];
      const c = t.client({ "tasks/get": () => Promise.reject(thrown[thrown.push(make()) - 1]) });
      const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
      const gets = t.requests("tasks/get");
      if (o.value?.error?.cause?.type === "timeout" && gets.length === 2 && o.t0 + 300 - gets[1].at < 3) {
        // A known race (reported): the backoff drew ~299 ms, so the re-issue went out with ~1 ms left
        // and the deadline passed while it was in flight: the documented deadline outcome.
        expectError(o, { code: -32001, kind: "transport", type: "timeout" });
        t.note = `re-issued ${(o.t0 + 300 - gets[1].at).toFixed(1)} ms before the deadline: ended -32001 timeout`;
        return;
      }
      const e = expectError(o, { code: -32000, kind: "transport", type: "request_failed", method: "tasks/get" });
      assert("error" in e.cause && e.cause.error === thrown.at(-1), `cause.error is the rejection value: ${show(e.cause.error)}`);
      assert(gets.length >= 1 && gets.length <= 2, `1 or 2 tasks/get, got ${gets.length}`);
      if (gets.length === 2) assert(gets[1].at - gets[0].at >= 245, `re-issued after the 250 ms backoff (${gets[1].at - gets[0].at} ms)`);
      assert(o.ms < 300, `ended before the deadline (${o.ms} ms)`);
    });
  }
  cell('tasks/get rejects with new Error("x"), retries: 0', "error -32000 transport request_failed, exactly 1 request", async (t) => {
    const c = t.client({ "tasks/get": () => Promise.reject(new Error("x")) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", { timeoutMs: 300, retries: 0 }), T300);
    expectError(o, { code: -32000, kind: "transport", type: "request_failed", method: "tasks/get" });
    assert(t.requests().length === 1, `exactly one request, got ${t.requests().length}`);
  });
  cell('tasks/get rejects with new DOMException("…", "AbortError") (not our signal), retries: 0', "error -32000 transport request_failed (a DOMException is never a JSON-RPC error)", async (t) => {
    const thrown = new DOMException("The operation was aborted.", "AbortError");
    const c = t.client({ "tasks/get": () => Promise.reject(thrown) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", { timeoutMs: 300, retries: 0 }), T300);
    const e = expectError(o, { code: -32000, kind: "transport", type: "request_failed", method: "tasks/get" });
    assert(e.cause.error === thrown, `cause.error is the DOMException: ${show(e.cause.error)}`);
  });
  // Application code may hand back a promise whose own `then` breaks the rules. The library adopts
  // every returned value into a promise of its own (as `await` would), so each settles once.
  cell("tasks/get returns a native promise whose own then settles synchronously, twice", "ok (the first settlement), the module unharmed", async (t) => {
    const c = t.client({ "tasks/get": () => { const p = Promise.resolve(done()); p.then = (res, rej) => { res(done()); rej(new Error("again")); res(working()); }; return p; } });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
    assert(o.value?.tag === "ok", show(o));
  });
  cell("tasks/get returns a thenable whose then throws, retries: 0", "error -32000 transport request_failed with what then threw", async (t) => {
    const thrown = new Error("then threw");
    const c = t.client({ "tasks/get": () => ({ then() { throw thrown; } }) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", { timeoutMs: 300, retries: 0 }), T300);
    const e = expectError(o, { code: -32000, kind: "transport", type: "request_failed", method: "tasks/get" });
    assert(e.cause.error === thrown, show(e.cause.error));
  });
  cell("tasks/get returns a completed status whose then is not a function (then: 5)", "ok (a non-function then is a plain field)", async (t) => {
    const c = t.client({ "tasks/get": () => ({ ...done(), then: 5 }) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
    assert(o.value?.tag === "ok", show(o));
  });
  cell('tasks/get rejects with {code: -32602, message: "unknown task"}', "error -32602 server rpc_error (tasks/get), 1 request", async (t) => {
    const c = t.client({ "tasks/get": () => Promise.reject({ code: -32602, message: "unknown task" }) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
    const e = expectError(o, { code: -32602, kind: "server", type: "rpc_error", method: "tasks/get" });
    assert(e.message === "unknown task", show(e));
    assert(t.requests().length === 1, `exactly one request, got ${t.requests().length}`);
  });
  cell("tasks/get rejects with HTTP 503 three times, then completes (timeoutMs 3000)", "ok after exactly 4 requests (backoff 250/500/1000 ms + jitter)", async (t) => {
    const c = t.client({ "tasks/get": ({ n }) => (n <= 3 ? Promise.reject({ message: "down", status: 503 }) : done()) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", { timeoutMs: 3000 }), { timeoutMs: 3000 });
    expectTag(o, "ok");
    const gets = t.requests("tasks/get");
    assert(gets.length === 4, `4 requests, got ${gets.length}`);
    [250, 500, 1000].forEach((base, i) => {
      const gap = gets[i + 1].at - gets[i].at;
      assert(gap >= base - 5 && gap <= base * 1.5 + 60, `backoff ${i + 1}: ${gap} ms, expected ${base}–${base * 1.5}`);
    });
  });
  cell("tasks/get rejects with HTTP 400 (no JSON-RPC answer)", "error -32000 transport request_failed, data.status 400, exactly 1 request (not re-issued)", async (t) => {
    const c = t.client({ "tasks/get": () => Promise.reject({ message: "bad", status: 400 }) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", { timeoutMs: 3000 }), { timeoutMs: 3000 });
    const e = expectError(o, { code: -32000, kind: "transport", type: "request_failed", method: "tasks/get" });
    assert(e.data?.status === 400, `data.status 400: ${show(e.data)}`);
    assert(t.requests().length === 1, `exactly one request, got ${t.requests().length}`);
  });
  cell("tasks/get never settles", "error -32001 transport timeout at ~timeoutMs, cause.status null, the request aborted", async (t) => {
    const c = t.client({ "tasks/get": never });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
    const e = expectError(o, { code: -32001, kind: "transport", type: "timeout" });
    assert(e.cause.status === null, `cause.status null: ${show(e.cause.status)}`);
    assert(o.ms >= 295, `at the deadline (${o.ms} ms)`);
    assert(t.requests().length === 1 && t.requests()[0].signal.aborted, "the one request was aborted");
  });
  cell("tasks/get never settles, requestTimeoutMs 80, retries 0", "error -32001 transport request_timeout (tasks/get) at ~80 ms", async (t) => {
    const c = t.client({ "tasks/get": never });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", { timeoutMs: 300, requestTimeoutMs: 80, retries: 0 }), T300);
    const e = expectError(o, { code: -32001, kind: "transport", type: "request_timeout", method: "tasks/get" });
    assert(e.data?.timeoutMs === 80, show(e.data));
    assert(o.ms >= 78 && o.ms < 160, `at ~80 ms (${o.ms} ms)`);
    assert(t.requests()[0].timeoutMs === 80, `the request was handed timeoutMs 80 (${t.requests()[0].timeoutMs})`);
  });

  // -- tasks/get resolves with something that is not a task ---------------------------------------
  for (const [label, value] of [["null", null], ["an array", []], ['a string "task"', "task"], ["a number 7", 7]]) {
    cell(`tasks/get resolves with ${label}`, "error -32603 protocol protocol_violation (tasks/get)", async (t) => {
      const c = t.client({ "tasks/get": () => Promise.resolve(value) });
      const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
      const e = expectError(o, { code: -32603, kind: "protocol", type: "protocol_violation", method: "tasks/get" });
      assert(Object.is(e.cause.response, value), `cause.response is what was sent: ${show(e.cause.response)}`);
      assert(t.requests().length === 1, `exactly one request, got ${t.requests().length}`);
    });
  }

  // -- hostile values ------------------------------------------------------------------------------
  cell("tasks/get resolves with a Proxy whose get/ownKeys/getOwnPropertyDescriptor traps throw", "error -32603 protocol (no uncaught exception)", async (t) => {
    const c = t.client({ "tasks/get": () => { const { proxy, arm } = armedProxy(done()); return fulfilledThen(proxy, arm); } });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
    expectError(o, { code: -32603, kind: "protocol", type: "protocol_violation", method: "tasks/get" });
  });
  cell("tasks/get resolves with a revoked Proxy", "error -32603 protocol (no uncaught exception)", async (t) => {
    const c = t.client({ "tasks/get": () => { const { proxy, revoke } = Proxy.revocable(done(), {}); return fulfilledThen(proxy, revoke); } });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
    expectError(o, { code: -32603, kind: "protocol", type: "protocol_violation", method: "tasks/get" });
  });
  cell("tasks/get resolves with an object whose status getter throws", "error -32603 protocol (no uncaught exception)", async (t) => {
    const c = t.client({ "tasks/get": () => Promise.resolve({ resultType: "complete", taskId: "t1", get status() { throw new Error("getter"); } }) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
    expectError(o, { code: -32603, kind: "protocol", type: "protocol_violation", method: "tasks/get" });
  });
  // The literal reading of "resolves with a Proxy whose get trap throws": fulfilling any promise with
  // it reads `then` through the trap, so the request's promise REJECTS with the trap's error (JS
  // semantics, before the library sees anything): a transport failure by the client contract.
  cell("request returns a Proxy whose get trap throws from the start (also on `then`)", "error -32000 transport request_failed with the trap's error (the promise rejects: JS reads `then`)", async (t) => {
    const errors = [];
    const c = t.client({ "tasks/get": () => new Proxy({}, { get() { const e = new Error("get trap"); errors.push(e); throw e; } }) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
    const e = expectError(o, { code: -32000, kind: "transport", type: "request_failed", method: "tasks/get" });
    assert(errors.includes(e.cause.error), `cause.error is the trap's error: ${show(e.cause.error)}`);
  });
  cell("request returns a revoked Proxy (not yet in a promise)", "error -32000 transport request_failed with a TypeError (the promise rejects: JS reads `then`)", async (t) => {
    const c = t.client({ "tasks/get": () => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; } });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
    const e = expectError(o, { code: -32000, kind: "transport", type: "request_failed", method: "tasks/get" });
    assert(e.cause.error instanceof TypeError, show(e.cause.error));
  });
  cell("a completed task whose result is a revoked Proxy", "error -32603 protocol (result not an object)", async (t) => {
    const c = t.client({ "tasks/get": () => { const { proxy, revoke } = Proxy.revocable({ content: [] }, {}); revoke(); return Promise.resolve(done(proxy)); } });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
    const e = expectError(o, { code: -32603, kind: "protocol", type: "protocol_violation", method: "tasks/get" });
    assert(/not an object/.test(e.message), e.message);
  });
  cell("a completed task whose result is 100000 levels deep", "ok, out.result === the very object sent", async (t) => {
    const deep = deepObject(100_000);
    const c = t.client({ "tasks/get": () => Promise.resolve(done(deep)) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
    const v = expectTag(o, "ok");
    assert(v.result === deep, "out.result is the very object the client resolved with");
  });

  // -- malformed status fields ------------------------------------------------------------------------
  const malformed = [
    ['unknown status "paused"', { resultType: "complete", taskId: "t1", status: "paused" }],
    ["missing taskId", { resultType: "complete", status: "working" }],
    ['taskId of another task ("t2")', { resultType: "complete", taskId: "t2", status: "working" }],
    ['inputRequests not an object ("nope")', { resultType: "complete", taskId: "t1", status: "input_required", inputRequests: "nope" }],
    ["completed without result", { resultType: "complete", taskId: "t1", status: "completed" }],
    ["failed without error", { resultType: "complete", taskId: "t1", status: "failed" }],
    ['failed with error: "boom"', { resultType: "complete", taskId: "t1", status: "failed", error: "boom" }],
    ['resultType: "weird"', { resultType: "weird", taskId: "t1", status: "working" }],
  ];
  for (const [label, reply] of malformed) {
    cell(`tasks/get: ${label}`, "error -32603 protocol protocol_violation (tasks/get)", async (t) => {
      const c = t.client({ "tasks/get": () => Promise.resolve(reply) });
      const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
      expectError(o, { code: -32603, kind: "protocol", type: "protocol_violation", method: "tasks/get" });
      assert(t.requests().length === 1, `exactly one request, got ${t.requests().length}`);
    });
  }

  // -- odd pollIntervalMs -------------------------------------------------------------------------------
  const intervals = [
    ["pollIntervalMs -5 (defaults: floor 100)", -5, { timeoutMs: 600 }, [95, 180]],
    ['pollIntervalMs "fast" (option pollIntervalMs 30, minPollIntervalMs 10)', "fast", { timeoutMs: 600, pollIntervalMs: 30, minPollIntervalMs: 10 }, [28, 100]],
    ["pollIntervalMs 1e308 (maxPollIntervalMs 50, minPollIntervalMs 10)", 1e308, { timeoutMs: 600, maxPollIntervalMs: 50, minPollIntervalMs: 10 }, [48, 120]],
  ];
  for (const [label, interval, options, [lo, hi]] of intervals) {
    cell(`tasks/get: ${label}`, `ok; the second tasks/get ${lo}–${hi} ms after the first`, async (t) => {
      const c = t.client({ "tasks/get": ({ n }) => Promise.resolve(n === 1 ? working({ pollIntervalMs: interval }) : done()) });
      const o = await t.outcome(() => t.lib.awaitTask(c, "t1", options), options);
      expectTag(o, "ok");
      const gets = t.requests("tasks/get");
      assert(gets.length === 2, `2 requests, got ${gets.length}`);
      const gap = gets[1].at - gets[0].at;
      assert(gap >= lo && gap <= hi, `next poll ${gap} ms later, expected ${lo}–${hi}`);
    });
  }
  cell("tasks/get: pollIntervalMs 1e308 (default ceiling 60000)", "error -32001 timeout at the deadline, cause.status the working status, exactly 1 request", async (t) => {
    const c = t.client({ "tasks/get": () => Promise.resolve(working({ pollIntervalMs: 1e308 })) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
    const e = expectError(o, { code: -32001, kind: "transport", type: "timeout" });
    assert(e.cause.status?.status === "working", show(e.cause.status));
    assert(t.requests().length === 1, `exactly one request, got ${t.requests().length}`);
  });

  // -- terminal statuses -----------------------------------------------------------------------------
  cell("tasks/get: completed, then (if asked again) working", "ok, and no further request at all", async (t) => {
    const c = t.client({ "tasks/get": ({ n }) => Promise.resolve(n === 1 ? done() : working()) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
    expectTag(o, "ok");
    await sleep(60);
    assert(t.requests().length === 1, `exactly one request, got ${t.requests().length}`);
  });
  cell("tasks/get: failed with a JSON-RPC error", "error with the task's code, kind server, cause task_failed", async (t) => {
    const c = t.client({ "tasks/get": () => Promise.resolve({ resultType: "complete", taskId: "t1", status: "failed", error: { code: -32050, message: "tool crashed" } }) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
    const e = expectError(o, { code: -32050, kind: "server", type: "task_failed" });
    assert(e.cause.status?.status === "failed", show(e.cause));
  });
  cell("tasks/get: cancelled", '{tag: "cancelled"}', async (t) => {
    const c = t.client({ "tasks/get": () => Promise.resolve({ resultType: "complete", taskId: "t1", status: "cancelled" }) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", T300), T300);
    expectTag(o, "cancelled");
  });

  // -- tasks/update failures ---------------------------------------------------------------------------
  const updateCell = (name, expect, updateAnswer, check) => cell(name, expect, async (t) => {
    let acked = 0;
    const c = t.client({
      "tasks/get": () => Promise.resolve(acked > 0 ? done() : asking({ k: FORM() })),
      "tasks/update": (ctx) => {
        const r = updateAnswer(ctx);
        return r.then((v) => ((acked += 1), v));
      },
    });
    const form = t.handler("form", () => ACCEPT());
    const options = { timeoutMs: 600, minPollIntervalMs: 10, inputHandlers: { form } };
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", options), options);
    await check(t, o);
  });
  updateCell('tasks/update rejects with new Error("net") once', "ok; the task read again, the same answer re-sent once; the form handler called once", ({ n }) => (n === 1 ? Promise.reject(new Error("net")) : Promise.resolve({})), async (t, o) => {
    expectTag(o, "ok");
    assert(t.asks.length === 1, `the form handler called once, got ${t.asks.length}`);
    const ups = t.requests("tasks/update");
    assert(ups.length === 2, `2 tasks/update, got ${ups.length}`);
    const [a, b] = ups.map((u) => JSON.stringify(u.params.inputResponses));
    assert(a === b && a === JSON.stringify({ k: ACCEPT().response }), `the same answer both times: ${a} / ${b}`);
    const [i0, i1] = ups.map((u) => t.log.indexOf(u));
    const between = t.log.slice(i0 + 1, i1).filter((r) => r.method === "tasks/get");
    assert(between.length >= 1, "the task was read between the failed update and the re-send");
  });
  updateCell('tasks/update rejects with new Error("net") twice', "error -32000 transport request_failed (tasks/update) after the one re-send; handler called once", () => Promise.reject(new Error("net")), async (t, o) => {
    expectError(o, { code: -32000, kind: "transport", type: "request_failed", method: "tasks/update" });
    assert(t.asks.length === 1, `the form handler called once, got ${t.asks.length}`);
    assert(t.requests("tasks/update").length === 2, `2 tasks/update, got ${t.requests("tasks/update").length}`);
  });
  updateCell('tasks/update rejects with {code: -32602, message: "stale"} (task still going)', "error -32602 server rpc_error (tasks/update) after one more read", () => Promise.reject({ code: -32602, message: "stale" }), async (t, o) => {
    expectError(o, { code: -32602, kind: "server", type: "rpc_error", method: "tasks/update" });
    assert(t.requests("tasks/update").length === 1, "one tasks/update");
    assert(t.requests("tasks/get").length === 2, `read once more after the update failed (${t.requests("tasks/get").length} reads)`);
  });

  // -- input handlers ----------------------------------------------------------------------------------
  const inputCell = (name, expect, answer, check, { requests = { k: FORM() }, timeoutMs = 300, extra = {} } = {}) => cell(name, expect, async (t) => {
    const c = t.client({ "tasks/get": () => Promise.resolve(asking(requests)), "tasks/update": () => Promise.resolve({}) });
    const form = t.handler("form", answer);
    const url = t.handler("url", answer);
    const options = { timeoutMs, minPollIntervalMs: 10, inputHandlers: { form, url }, ...extra };
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", options), options);
    await check(t, o);
  });
  inputCell("form handler returns 42", 'error -32603 execution input_handler, key "k", reason.type invalid_outcome', () => 42, (t, o) => {
    const e = expectError(o, { code: -32603, kind: "execution", type: "input_handler", key: "k" });
    assert(e.cause.reason?.type === "invalid_outcome" && e.cause.reason.outcome === 42, show(e.cause.reason));
    assert(t.requests("tasks/update").length === 0, "nothing sent");
  });
  inputCell('form handler returns {tag: "ok"} without response', 'error -32603 execution input_handler, key "k", reason.type invalid_response', () => ({ tag: "ok" }), (t, o) => {
    const e = expectError(o, { code: -32603, kind: "execution", type: "input_handler", key: "k" });
    assert(e.cause.reason?.type === "invalid_response", show(e.cause.reason));
    assert(t.requests("tasks/update").length === 0, "nothing sent");
  });
  inputCell('form handler returns {tag: "ok", response: {action: "maybe"}}', 'error -32603 execution input_handler, key "k", reason.type invalid_response', () => ({ tag: "ok", response: { action: "maybe" } }), (t, o) => {
    const e = expectError(o, { code: -32603, kind: "execution", type: "input_handler", key: "k" });
    assert(e.cause.reason?.type === "invalid_response" && e.cause.reason.response?.action === "maybe", show(e.cause.reason));
    assert(t.requests("tasks/update").length === 0, "nothing sent");
  });
  inputCell('form handler returns {tag: "error", reason: "no"}', 'error -32603 execution input_handler, reason "no"', () => ({ tag: "error", reason: "no" }), (t, o) => {
    const e = expectError(o, { code: -32603, kind: "execution", type: "input_handler", key: "k" });
    assert(e.cause.reason === "no", show(e.cause.reason));
  });
  {
    const thrown = new Error("handler threw");
    inputCell("form handler throws e", "the promise rejects with that very e", () => { throw thrown; }, (t, o) => expectRejectedWith(o, thrown));
    const rejected = { why: "handler rejected" };
    inputCell("form handler rejects with e", "the promise rejects with that very e", () => Promise.reject(rejected), (t, o) => expectRejectedWith(o, rejected));
  }
  inputCell("form handler never resolves", "error -32001 timeout at the deadline; the handler's signal aborted", () => never(), (t, o) => {
    const e = expectError(o, { code: -32001, kind: "transport", type: "timeout" });
    assert(e.cause.status?.status === "input_required", show(e.cause.status));
    assert(o.ms >= 295, `at the deadline (${o.ms} ms)`);
    assert(t.asks.length === 1 && t.asks[0].signal.aborted, "the handler was called once and its signal aborted");
    assert(t.requests("tasks/get").length >= 3, "polling went on while the handler ran");
  });
  cell("two keys a, b in one round: a answers after 10 ms, b after 150 ms", "ok; each handler called once; exactly one tasks/update carrying both keys", async (t) => {
    let updated = false;
    const c = t.client({
      "tasks/get": () => Promise.resolve(updated ? done() : asking({ a: FORM("a?"), b: FORM("b?") }, { pollIntervalMs: 20 })),
      "tasks/update": () => ((updated = true), Promise.resolve({})),
    });
    const form = t.handler("form", async (params, { key }) => {
      await sleep(key === "a" ? 10 : 150);
      return { tag: "ok", response: { action: "accept", content: { v: key } } };
    });
    const options = { timeoutMs: 600, minPollIntervalMs: 10, inputHandlers: { form } };
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", options), options);
    expectTag(o, "ok");
    const keys = t.asks.map((a) => a.key).sort().join();
    assert(keys === "a,b", `each handler once: ${keys}`);
    const ups = t.requests("tasks/update");
    assert(ups.length === 1, `exactly one tasks/update, got ${ups.length}`);
    assert(Object.keys(ups[0].params.inputResponses ?? {}).sort().join() === "a,b", `both keys in it: ${show(ups[0].params.inputResponses)}`);
    assert(t.requests("tasks/get").length >= 4, "polls went on while b's handler ran");
  });
  for (const url of ["https://good.example@evil.example", "javascript:alert(1)"]) {
    inputCell(`url elicitation with url ${JSON.stringify(url)}`, "error -32603 protocol; the url handler never called", () => ACCEPT(), (t, o) => {
      expectError(o, { code: -32603, kind: "protocol", type: "protocol_violation" });
      assert(t.asks.length === 0, `no handler called, got ${t.asks.length}`);
    }, { requests: { k: { method: "elicitation/create", params: { mode: "url", message: "go", url, elicitationId: "e1" } } } });
  }
  inputCell('input: "return" with malformed inputRequests ({k: 42})', '{tag: "input_required"}', () => ACCEPT(), (t, o) => {
    expectTag(o, "input_required");
    assert(t.asks.length === 0, "no handler called");
  }, { requests: { k: 42 }, extra: { input: "return" } });
  inputCell("an elicitation without params", "error -32603 protocol; the handler never called", () => ACCEPT(), (t, o) => {
    expectError(o, { code: -32603, kind: "protocol", type: "protocol_violation" });
    assert(t.asks.length === 0, "no handler called");
  }, { requests: { k: { method: "elicitation/create" } } });
  cell("a form request and no form handler", '{tag: "input_required"}; nothing answered', async (t) => {
    const c = t.client({ "tasks/get": () => Promise.resolve(asking({ k: FORM() })) });
    const url = t.handler("url", () => ACCEPT());
    const options = { timeoutMs: 300, inputHandlers: { url } };
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", options), options);
    expectTag(o, "input_required");
    assert(t.asks.length === 0 && t.requests("tasks/update").length === 0, "nothing answered");
  });
  cell("onStatus throws on the terminal status", "the promise rejects with that exception", async (t) => {
    const thrown = new Error("onStatus threw");
    const c = t.client({ "tasks/get": ({ n }) => Promise.resolve(n === 1 ? working() : done()) });
    const options = { timeoutMs: 300, minPollIntervalMs: 10, onStatus: (s) => { if (s.status === "completed") throw thrown; } };
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", options), options);
    expectRejectedWith(o, thrown);
  });

  // -- listen ------------------------------------------------------------------------------------------
  const L600 = { listen: true, timeoutMs: 600 };
  cell("listen: ack, then a completed event", "ok; exactly one tasks/get (the read after the ack); the stream closed", async (t) => {
    const s = stream();
    const c = t.client({ "tasks/get": () => (setTimeout(() => s.push(COMPLETED_EVENT()), 10), Promise.resolve(working())) }, { listen: () => (s.push(ACK()), s.iterator) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", L600), L600);
    expectTag(o, "ok");
    assert(t.requests("tasks/get").length === 1, `exactly one tasks/get, got ${t.requests("tasks/get").length}`);
    assert(t.listens().length === 1 && s.returnCalls === 1, `one listen, return() called (${s.returnCalls})`);
  });
  for (const [label, next] of [["next() rejects every time", () => Promise.reject(new Error("stream broke"))], ["next() yields 5 (a non-object step)", () => Promise.resolve(5)]]) {
    cell(`listen: ${label}`, "ok; the stream reopened (listen called 2–4 times), then polling", async (t) => {
      const c = t.client({ "tasks/get": () => Promise.resolve(done()) }, { listen: () => stream({ next }).iterator });
      const o = await t.outcome(() => t.lib.awaitTask(c, "t1", L600), L600);
      expectTag(o, "ok");
      const n = t.listens().length;
      assert(n >= 2 && n <= 4, `listen reopened (called ${n} times)`);
      assert(t.requests("tasks/get").length === 1, `then polled: ${t.requests("tasks/get").length} tasks/get`);
    });
  }
  cell("listen: return() never settles (after a completed event)", "ok within ~100 ms; return() called; the listen signal aborted", async (t) => {
    const s = stream({ ret: never });
    const c = t.client({ "tasks/get": () => (setTimeout(() => s.push(COMPLETED_EVENT()), 5), Promise.resolve(working())) }, { listen: () => (s.push(ACK()), s.iterator) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", L600), L600);
    expectTag(o, "ok");
    assert(o.ms < 100, `within ~100 ms (${o.ms} ms)`);
    assert(s.returnCalls === 1 && t.listens()[0].signal.aborted, "return() called and the signal aborted");
  });
  cell("listen never acks, requestTimeoutMs 80, retries 0", "ok; the stream closed at ~80 ms, then polling", async (t) => {
    const s = stream();
    const c = t.client({ "tasks/get": () => Promise.resolve(done()) }, { listen: () => s.iterator });
    const options = { ...L600, requestTimeoutMs: 80, retries: 0 };
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", options), options);
    expectTag(o, "ok");
    const l = t.listens()[0];
    assert(t.listens().length === 1 && l.abortedAt !== null, "one listen, closed");
    const closed = l.abortedAt - l.at;
    assert(closed >= 78 && closed < 160, `closed at ~80 ms (${closed} ms)`);
    assert(t.requests("tasks/get").length === 1 && t.requests("tasks/get")[0].at >= l.abortedAt - 1, "then polled");
  });
  cell("listen throws synchronously", "ok; treated as a stream failure: reopened, then polling", async (t) => {
    const c = t.client({ "tasks/get": () => Promise.resolve(done()) }, { listen: () => { throw new Error("listen threw"); } });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", L600), L600);
    expectTag(o, "ok");
    const n = t.listens().length;
    assert(n >= 2 && n <= 4, `listen reopened (called ${n} times)`);
    assert(t.requests("tasks/get").length === 1, "then polled");
  });
  cell("listen: true with a client without listen", "error -32000 transport listen_unsupported; nothing sent", async (t) => {
    const c = t.client({ "tasks/get": () => Promise.resolve(done()) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", L600), L600);
    expectError(o, { code: -32000, kind: "transport", type: "listen_unsupported" });
    assert(t.requests().length === 0, `nothing sent, got ${t.requests().length}`);
  });
  cell("listen: an ack that does not list the task", "ok; falls back to polling", async (t) => {
    const s = stream();
    const c = t.client({ "tasks/get": () => Promise.resolve(done()) }, { listen: () => (s.push(ACK(["other"])), s.iterator) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", L600), L600);
    expectTag(o, "ok");
    assert(t.listens().length === 1 && t.requests("tasks/get").length === 1, "one listen, one poll");
  });
  cell("listen: the stream ends after the ack", "ok; polling for the rest of the wait", async (t) => {
    const s = stream();
    const c = t.client({ "tasks/get": ({ n }) => (n === 1 ? (setTimeout(() => s.end(), 5), Promise.resolve(working())) : Promise.resolve(done())) }, { listen: () => (s.push(ACK()), s.iterator) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", L600), L600);
    expectTag(o, "ok");
    assert(t.listens().length === 1 && t.requests("tasks/get").length === 2, `one listen, two reads (${t.requests("tasks/get").length})`);
  });
  cell("listen refused with a JSON-RPC error -32601 before the ack", "error -32601 server rpc_error (subscriptions/listen); no polling", async (t) => {
    const c = t.client({ "tasks/get": () => Promise.resolve(done()) }, { listen: () => stream({ next: () => Promise.reject({ code: -32601, message: "Method not found" }) }).iterator });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", L600), L600);
    expectError(o, { code: -32601, kind: "server", type: "rpc_error", method: "subscriptions/listen" });
    assert(t.requests().length === 0, "no polling");
  });

  // -- aborts --------------------------------------------------------------------------------------------
  cell("signal aborted before the call", "rejects with signal.reason; NO request sent", async (t) => {
    const c = t.client({ "tasks/get": () => Promise.resolve(done()) }, { listen: () => stream().iterator });
    const ac = new AbortController();
    const reason = { why: "aborted before" };
    ac.abort(reason);
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", { timeoutMs: 300, signal: ac.signal }), T300);
    expectRejectedWith(o, reason);
    assert(t.log.length === 0, `nothing sent, got ${t.log.length}`);
  });
  cell("signal aborted while tasks/get is in flight", "rejects with signal.reason at once; the request's signal aborted", async (t) => {
    const c = t.client({ "tasks/get": never });
    const ac = new AbortController();
    let abortedAt;
    setTimeout(() => ((abortedAt = now()), ac.abort()), 30);
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", { timeoutMs: 300, signal: ac.signal }), T300);
    expectRejectedWith(o, ac.signal.reason);
    assert(o.error instanceof Error && o.error.name === "AbortError", `the default reason: ${show(o.error)}`);
    assert(o.at - abortedAt < 15, `at once (${o.at - abortedAt} ms after the abort)`);
    assert(t.requests()[0].signal.aborted, "the request's signal aborted");
  });
  cell("signal aborted while an input handler runs", "rejects with signal.reason; the handler's signal aborted", async (t) => {
    const c = t.client({ "tasks/get": () => Promise.resolve(asking({ k: FORM() })) });
    const form = t.handler("form", () => never());
    const ac = new AbortController();
    const reason = new Error("stop");
    setTimeout(() => ac.abort(reason), 50);
    const options = { timeoutMs: 300, minPollIntervalMs: 10, inputHandlers: { form }, signal: ac.signal };
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", options), options);
    expectRejectedWith(o, reason);
    assert(t.asks.length === 1 && t.asks[0].signal.aborted, "the handler's signal aborted");
  });
  cell("signal aborted while listening", "rejects with signal.reason; the stream closed (signal aborted, return() called)", async (t) => {
    const s = stream();
    const c = t.client({ "tasks/get": () => Promise.resolve(working()) }, { listen: () => (s.push(ACK()), s.iterator) });
    const ac = new AbortController();
    const reason = new Error("stop");
    setTimeout(() => ac.abort(reason), 50);
    const options = { ...L600, signal: ac.signal };
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", options), options);
    expectRejectedWith(o, reason);
    assert(t.listens().length === 1 && t.listens()[0].signal.aborted && s.returnCalls === 1, "the stream closed");
  });
  cell("signal aborted during a retry backoff", "rejects with signal.reason at once; 1 request", async (t) => {
    const c = t.client({ "tasks/get": () => Promise.reject(new Error("x")) });
    const ac = new AbortController();
    const reason = new Error("stop");
    let abortedAt;
    setTimeout(() => ((abortedAt = now()), ac.abort(reason)), 50);
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", { timeoutMs: 600, signal: ac.signal }), { timeoutMs: 600 });
    expectRejectedWith(o, reason);
    assert(o.at - abortedAt < 15, `at once (${o.at - abortedAt} ms after the abort)`);
    assert(t.requests().length === 1, `1 request, got ${t.requests().length}`);
  });
  cell("signal aborted with cancelOnAbort, the tasks/cancel never settles (requestTimeoutMs 80)", "rejects with signal.reason; one tasks/cancel sent, aborted at ~80 ms; liveCounts back after it", async (t) => {
    const c = t.client({ "tasks/get": never, "tasks/cancel": never });
    const ac = new AbortController();
    const reason = new Error("stop");
    setTimeout(() => ac.abort(reason), 30);
    t.exempt = (r) => r.method === "tasks/cancel"; // detached by design: bounded by requestTimeoutMs, not by the outcome
    t.settleMs = 130;
    const options = { timeoutMs: 300, requestTimeoutMs: 80, cancelOnAbort: true, signal: ac.signal };
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", options), options);
    expectRejectedWith(o, reason);
    const cancels = t.requests("tasks/cancel");
    assert(cancels.length === 1 && cancels[0].params.taskId === "t1", `one tasks/cancel for t1: ${cancels.length}`);
    await sleep(120);
    const bound = cancels[0].abortedAt - cancels[0].at;
    assert(cancels[0].abortedAt !== null && bound >= 78 && bound < 160, `the cancel aborted at its bound (~80 ms): ${bound}`);
  });

  cell("callAndAwait: callOptions.signal aborted while the wait's tasks/get is in flight", "rejects with signal.reason; the tasks/get's signal aborted", async (t) => {
    const c = t.client({ "tools/call": () => Promise.resolve({ resultType: "task", taskId: "t1", status: "working", pollIntervalMs: 10, ttlMs: null }), "tasks/get": never });
    const ac = new AbortController();
    const reason = new Error("stop");
    setTimeout(() => ac.abort(reason), 60);
    const o = await t.outcome(() => t.lib.callAndAwait(c, "slow", {}, { signal: ac.signal }, { timeoutMs: 300, minPollIntervalMs: 10 }), T300);
    expectRejectedWith(o, reason);
    assert(t.requests("tools/call").length === 1 && t.requests("tasks/get").length === 1, `one call, one read: ${t.log.map((r) => r.method)}`);
  });

  // -- re-entrancy: application code calling back into the module ------------------------------------
  cell("re-entrant: request aborts the caller's signal synchronously", "rejects with signal.reason; the request's signal aborted; nothing else sent", async (t) => {
    const ac = new AbortController();
    const reason = new Error("aborted from inside request");
    const c = t.client({ "tasks/get": () => (ac.abort(reason), never()) });
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", { timeoutMs: 300, signal: ac.signal }), T300);
    expectRejectedWith(o, reason);
    assert(o.ms < 20, `at once (${o.ms} ms)`);
    assert(t.requests().length === 1 && t.requests()[0].signal.aborted, "one request, aborted");
  });
  cell("re-entrant: onStatus calls liveCounts() and starts another awaitTask; request calls liveCounts()", "ok for the outer wait, cancelled for the inner one", async (t) => {
    let inner;
    const counts = [];
    const healthy = { request: async (m, p) => ({ resultType: "complete", taskId: p.taskId, status: "cancelled" }) };
    const c = t.client({ "tasks/get": ({ n }) => (counts.push(t.lib.liveCounts()), Promise.resolve(n === 1 ? working() : done())) });
    const onStatus = (s) => {
      counts.push(t.lib.liveCounts());
      if (s.status === "working") inner = t.lib.awaitTask(healthy, "inner", { timeoutMs: 200 });
    };
    const options = { timeoutMs: 300, minPollIntervalMs: 10, onStatus };
    const o = await t.outcome(() => t.lib.awaitTask(c, "t1", options), options);
    expectTag(o, "ok");
    assert(inner && (await inner).tag === "cancelled", "the inner wait ended cancelled");
    assert(counts.length >= 3 && counts.every((x) => x.runs >= 1), `liveCounts readable from inside: ${show(counts)}`);
  });

  // -- caller mistakes: a Promise rejecting with a TypeError, never a synchronous throw, nothing sent ----
  const mistake = (name, call) => cell(name, "rejects with a TypeError (no synchronous throw); nothing sent", async (t) => {
    const c = t.client({ "tasks/get": () => Promise.resolve(done()), "tools/call": () => Promise.resolve({ resultType: "complete", content: [] }) });
    const o = await t.outcome(() => call(t.lib, c, t), { timeoutMs: 50 });
    expectTypeError(o);
    assert(o.ms < 50, `at once (${o.ms} ms)`);
    assert(t.log.length === 0, `nothing sent, got ${t.log.length}`);
  });
  const revoked = () => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; };
  mistake("awaitTask without a client", (lib) => lib.awaitTask(undefined, "t1"));
  mistake("awaitTask with a client without request", (lib) => lib.awaitTask({ listen() {} }, "t1"));
  mistake('callTool with tool name ""', (lib, c) => lib.callTool(c, ""));
  mistake("awaitTask with options a revoked Proxy", (lib, c) => lib.awaitTask(c, "t1", revoked()));
  mistake("awaitTask with seed a revoked Proxy", (lib, c) => lib.awaitTask(c, revoked()));
  mistake("awaitTask with seed 42", (lib, c) => lib.awaitTask(c, 42));
  mistake("awaitTask with clientCapabilities a Proxy whose ownKeys throws", (lib, c) => lib.awaitTask({ ...c, request: c.request, clientCapabilities: new Proxy({}, { ownKeys() { throw new Error("ownKeys trap"); } }) }, "t1"));
  mistake("awaitTask with timeoutMs: -1", (lib, c) => lib.awaitTask(c, "t1", { timeoutMs: -1 }));
  mistake("awaitTask with retries: -1", (lib, c) => lib.awaitTask(c, "t1", { retries: -1 }));
  mistake("awaitTask with retries: 1.5", (lib, c) => lib.awaitTask(c, "t1", { retries: 1.5 }));
  mistake("awaitTask with minPollIntervalMs 500 > maxPollIntervalMs 100", (lib, c) => lib.awaitTask(c, "t1", { minPollIntervalMs: 500, maxPollIntervalMs: 100 }));
  mistake('callAndAwait(client, "slow", {}, {}, "not an object")', (lib, c) => lib.callAndAwait(c, "slow", {}, {}, "not an object"));

  return list;
}

// ---- the harness -----------------------------------------------------------------------------------

async function settleCounts(lib, baseline, ms) {
  const until = now() + ms;
  let counts;
  for (;;) {
    counts = lib.liveCounts();
    if (sameCounts(counts, baseline) || now() >= until) return counts;
    await sleep(2);
  }
}

/** A tiny healthy client: the task is already cancelled. */
async function healthCheck(lib) {
  const healthy = { request: async (method, params) => ({ resultType: "complete", taskId: params.taskId, status: "cancelled" }) };
  const out = await lib.awaitTask(healthy, "h1", { timeoutMs: 200 });
  assert(out?.tag === "cancelled", `the module still works: a healthy awaitTask gave ${show(out)}`);
}

async function runCell(lib, c, { baseline, uncaught }) {
  const errorsBefore = uncaught.length;
  const t = new Cell(lib);
  await c.run(t);
  const o = t.out;
  assert(o, "the cell never called the library");
  // 2. the time bound.
  assert(o.ms <= o.timeoutMs + 50, `the outcome took ${o.ms.toFixed(1)} ms, more than timeoutMs ${o.timeoutMs} + 50`);
  // 4. nothing left behind.
  const counts = await settleCounts(lib, baseline, Math.max(0, o.at + t.settleMs - now()));
  assert(sameCounts(counts, baseline), `liveCounts ${show(counts)} ${t.settleMs} ms after the outcome, expected ${show(baseline)}`);
  // 5. the module still works.
  await healthCheck(lib);
  // 3. nothing went out after the outcome.
  await sleep(Math.max(0, o.at + 100 - now()));
  const late = t.log.filter((r) => r.seq > o.seq);
  assert(late.length === 0, `${late.map((r) => r.method).join(", ")} sent after the outcome`);
  const lateAsks = t.asks.filter((a) => a.seq > o.seq);
  assert(lateAsks.length === 0, "an input handler was called after the outcome");
  assert(uncaught.length === errorsBefore, `uncaught during the cell: ${uncaught.slice(errorsBefore).join("; ")}`);
  return t.note;
}

/**
 * The matrix as `[{name, expect, fn}]` (the interop matrix's shape); `fn()` runs one cell with every
 * harness check. `baseline` is what liveCounts() shows when the cell's call is over; `uncaught` is the
 * array the environment pushes uncaught exceptions and unhandled rejections into.
 */
export function faultScenarios(lib, { baseline = ZERO, uncaught = [] } = {}) {
  return cells().map((c) => ({ name: c.name, expect: c.expect, fn: () => runCell(lib, c, { baseline, uncaught }) }));
}

/** The background wait of the parallel pass: polls its own task until `finish()` completes it. */
function startBackground(lib) {
  const result = { content: [{ type: "text", text: "background" }] };
  const seen = [];
  let finished = false;
  const client = {
    request(method, params) {
      seen.push({ method, taskId: params?.taskId });
      return Promise.resolve(finished
        ? { resultType: "complete", taskId: "bg", status: "completed", result }
        : { resultType: "complete", taskId: "bg", status: "working", pollIntervalMs: 50 });
    },
  };
  const statuses = [];
  const outcome = lib.awaitTask(client, "bg", { timeoutMs: 600_000, minPollIntervalMs: 10, onStatus: (s) => statuses.push(s.taskId) });
  return {
    async finish() {
      finished = true;
      const out = await outcome;
      assert(out?.tag === "ok" && out.result === result, `the background wait ended ${show(out)}, expected ok with its own result`);
      assert(seen.length >= 10, `the background wait kept polling during the matrix (${seen.length} reads)`);
      assert(seen.every((r) => r.method === "tasks/get" && r.taskId === "bg"), "the background client only ever got its own tasks/get");
      assert(statuses.every((id) => id === "bg"), "the background onStatus only ever saw its own task");
    },
  };
}

/**
 * Runs the matrix in this environment: pass "solo" (liveCounts back to all zero) and pass "parallel"
 * (with an unrelated long-running awaitTask in parallel, started before the cells and ended after).
 * `log(line)` gets one line per cell. Returns `{results, passed, failed, ms}`.
 */
export async function runFaults(lib, { log = () => {}, uncaught = [], passes = ["solo", "parallel"] } = {}) {
  const started = now();
  const results = [];
  const consoleError = console.error;
  console.error = (...args) => {
    uncaught.push(`console.error: ${args.map((a) => show(a)).join(" ")}`);
    consoleError.apply(console, args);
  };
  const record = (pass, name, ok, ms, error) => {
    results.push({ pass, name, ok, ms: Math.round(ms), error });
    log(ok ? `ok   ${pass}: ${name} (${Math.round(ms)} ms)` : `FAIL ${pass}: ${name} (${Math.round(ms)} ms)\n     ${error}`);
  };
  try {
    for (const pass of passes) {
      const before = lib.liveCounts();
      if (!sameCounts(before, ZERO)) record(pass, "liveCounts all zero before the pass", false, 0, show(before));
      const bg = pass === "parallel" ? startBackground(lib) : undefined;
      if (bg) await sleep(20);
      const baseline = bg ? WITH_BACKGROUND : ZERO;
      for (const { name, fn } of faultScenarios(lib, { baseline, uncaught })) {
        const t0 = now();
        try {
          const note = await fn();
          record(pass, note ? `${name} [note: ${note}]` : name, true, now() - t0);
        } catch (e) {
          record(pass, name, false, now() - t0, e?.stack ?? String(e));
        }
      }
      if (bg) {
        const t0 = now();
        try {
          await bg.finish();
          const counts = await settleCounts(lib, ZERO, 25);
          assert(sameCounts(counts, ZERO), `liveCounts after the background wait: ${show(counts)}`);
          record(pass, "the background awaitTask gets its own ok outcome at the end", true, now() - t0);
        } catch (e) {
          record(pass, "the background awaitTask gets its own ok outcome at the end", false, now() - t0, e?.stack ?? String(e));
        }
      }
    }
  } finally {
    console.error = consoleError;
  }
  const failed = results.filter((r) => !r.ok).length;
  return { results, passed: results.length - failed, failed, ms: Math.round(now() - started), uncaughtSeen: uncaught.length };
}

/** The outcome table (markdown) of the cells. */
export function outcomeTable(lib) {
  const rows = cells().map((c, i) => `| ${i + 1} | ${c.name.replaceAll("|", "\\|")} | ${c.expect.replaceAll("|", "\\|")} |`);
  return ["| # | cell | documented outcome |", "|---|---|---|", ...rows].join("\n");
}
