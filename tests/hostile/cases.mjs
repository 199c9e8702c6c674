// The hostile-values matrix: one case module shared by Node
// (tests/hostile/case.mjs, one process per case) and headless Chromium (tests/hostile/page.html, one
// page per case), because a case may poison the module for the rest of its process. `lib` is the
// package module (pkg/node.js, or pkg/index.js after `await init()`).
//
// The promise under test: no value or timing from a server, a transport, an application callback or
// the caller's stack makes the module trap, makes an async export throw synchronously, leaves a call
// pending past its deadline (timeoutMs + 100 ms; with timeoutMs: Infinity, its signal's abort + 100 ms),
// freezes the event loop, or sends back an id, key or value other than the one received.
//
// After every case, whatever it checked itself (the universal checks, `finish` below):
//  - every call of an async export returned a Promise (no synchronous throw) and settled in time;
//  - no rejection with a WebAssembly.RuntimeError, no uncaught exception, unhandled rejection or
//    console.error in the process / page;
//  - the calls re-entered from inside a callback all settled, none threw synchronously;
//  - liveCounts() back to all zero within 200 ms (missing `calls` = 0, missing `failed` = null);
//  - the module still works: awaitTask against a tiny client that answers "completed" ends "ok".

const now = () => performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const never = () => new Promise(() => {});
const nothing = () => {};
const EXT = "io.modelcontextprotocol/tasks";
const SLACK = 100;

/** A failed check (reported by its message alone; anything else thrown is reported with its stack). */
class CaseFailure extends Error {}

function assert(cond, message) {
  if (!cond) throw new CaseFailure(message);
}

/** A short, never-throwing description of any value (Proxies, revoked ones and deep objects included). */
export function show(v, depth = 0) {
  try {
    if (v === undefined) return "undefined";
    if (v === null || typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
    if (typeof v === "string") return JSON.stringify(v.length > 100 ? `${v.slice(0, 100)}…` : v);
    if (typeof v === "symbol") return v.toString();
    if (typeof v === "function") return `[function ${v.name}]`;
    if (v instanceof Error || (typeof DOMException !== "undefined" && v instanceof DOMException)) return `${v.name}(${JSON.stringify(v.message)})`;
    if (depth > 2) return "{…}";
    if (Array.isArray(v)) return `[${v.slice(0, 6).map((x) => show(x, depth + 1)).join(", ")}${v.length > 6 ? `, … ${v.length}` : ""}]`;
    const keys = Object.keys(v);
    const parts = keys.slice(0, 8).map((k) => {
      try {
        return `${k}: ${show(v[k], depth + 1)}`;
      } catch {
        return `${k}: <unreadable>`;
      }
    });
    return `{${parts.join(", ")}${keys.length > 8 ? ", …" : ""}}`;
  } catch {
    return "<unreadable>";
  }
}

// ---- wire values ------------------------------------------------------------------------------

const TID = "t1";
const RESULT = () => ({ content: [{ type: "text", text: "done" }] });
const working = (id = TID) => ({ resultType: "complete", taskId: id, status: "working", pollIntervalMs: 20 });
const completed = (id = TID, result = RESULT()) => ({ resultType: "complete", taskId: id, status: "completed", result });
const asking = (inputRequests, id = TID) => ({ resultType: "complete", taskId: id, status: "input_required", pollIntervalMs: 20, inputRequests });
const ACK = (ids = [TID]) => ({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds: ids } } });
const EVENT = (taskId, status = "working") => ({ jsonrpc: "2.0", method: "notifications/tasks", params: { taskId, status } });
const ACCEPT = (v = "yes") => ({ tag: "ok", response: { action: "accept", content: { v } } });

/** One input request and a valid answer for each handler kind. */
const INPUT = {
  form: { request: () => ({ method: "elicitation/create", params: { message: "v?", requestedSchema: { type: "object", properties: { v: { type: "string" } } } } }), response: () => ({ action: "accept", content: { v: "yes" } }) },
  url: { request: () => ({ method: "elicitation/create", params: { mode: "url", message: "open", url: "https://example.com/x", elicitationId: "e1" } }), response: () => ({ action: "accept" }) },
  sampling: { request: () => ({ method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 } }), response: () => ({ role: "assistant", content: { type: "text", text: "hello" }, model: "m" }) },
  roots: { request: () => ({ method: "roots/list", params: {} }), response: () => ({ roots: [{ uri: "file:///tmp", name: "tmp" }] }) },
};

function deepObject(levels, bottom = { content: [{ type: "text", text: "bottom" }] }) {
  let o = bottom;
  for (let i = 0; i < levels; i += 1) o = { a: o };
  return o;
}

function bottomOf(o, levels) {
  for (let i = 0; i < levels; i += 1) o = o?.a;
  return o;
}

/** A tiny healthy server: tools/call completes at once, every task is completed, updates and cancels acknowledged. */
function healthyClient(id = "healthy://inner") {
  return {
    id,
    request(method, params) {
      if (method === "tools/call") return Promise.resolve({ resultType: "complete", content: [{ type: "text", text: "inner" }] });
      if (method === "tasks/get") return Promise.resolve(completed(params?.taskId));
      if (method === "tasks/update" || method === "tasks/cancel") return Promise.resolve({ resultType: "complete" });
      return Promise.reject({ code: -32601, message: `no ${method}` });
    },
  };
}

/** An async iterator: `items` first (each resolved at once), then a next() that settles only at return().
 * `next(n)` may answer call n itself (undefined: the default); `ret()` answers return(). */
function stream(items, { next, ret } = {}) {
  const waiters = [];
  let n = 0;
  return {
    next() {
      n += 1;
      const r = next?.(n);
      if (r !== undefined) return r;
      if (items.length) return Promise.resolve({ done: false, value: items.shift() });
      return new Promise((resolve) => waiters.push(resolve));
    },
    return() {
      for (const w of waiters.splice(0)) w({ done: true, value: undefined });
      return ret ? ret() : Promise.resolve({ done: true, value: undefined });
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

function gapMonitor() {
  let last = now();
  let max = 0;
  const id = setInterval(() => {
    const t = now();
    max = Math.max(max, t - last);
    last = t;
  }, 5);
  return {
    stop() {
      clearInterval(id);
      return Math.round(Math.max(max, now() - last));
    },
  };
}

// ---- liveCounts ---------------------------------------------------------------------------------

/** liveCounts() with `calls` (0) and `failed` (null) filled in when the build lacks them. */
function counts(lib) {
  const c = lib.liveCounts();
  return { ...c, calls: c?.calls ?? 0, failed: c?.failed ?? null };
}

const isZero = (c) => c && c.failed === null && Object.entries(c).every(([k, v]) => k === "failed" || v === 0);

async function settleCounts(lib, ms = 200) {
  const until = now() + ms;
  for (;;) {
    let c;
    try {
      c = counts(lib);
    } catch (e) {
      throw new CaseFailure(`liveCounts() threw ${show(e)}`);
    }
    if (isZero(c)) return c;
    if (now() >= until) throw new CaseFailure(`liveCounts ${show(c)} ${ms} ms after the last outcome, expected all zero`);
    await sleep(5);
  }
}

// ---- the per-case context -------------------------------------------------------------------------

class Ctx {
  constructor(lib, env) {
    this.lib = lib;
    this.env = env;
    this.ac = new AbortController();
    this.reason = new Error("aborted from inside the callback");
    this.err = new Error("thrown by the hostile callback");
    this.calls = [];
    this.inner = [];
    this.innerSync = [];
    this.hostileCalls = 0;
    this.notes = [];
    this.idErrors = [];
    this.trace = []; // requests, listens and next() calls of the listen sites, ms after the case began
    this.t0 = now();
  }

  progress(message) {
    try {
      this.env.progress?.(message);
    } catch {}
  }

  note(s) {
    this.notes.push(s);
  }

  /**
   * Calls an async export (`start()`), which must return a Promise and never throw; waits for it (or
   * for a watchdog 1000 ms past the deadline) and checks the time bound. `deadlineMs` is the call's
   * timeoutMs, or a function giving the absolute deadline (performance.now() time) once known.
   */
  async call(label, start, deadlineMs) {
    this.progress(`calling ${label}`);
    const t0 = now();
    // Started before the call: a stall during its synchronous part (the process starved of the CPU
    // right then) counts as the call's stall too.
    const gaps = gapMonitor();
    let p;
    try {
      p = start();
    } catch (e) {
      gaps.stop();
      throw new CaseFailure(`${label} threw synchronously instead of returning a Promise: ${show(e)}`);
    }
    if (!(p instanceof Promise)) gaps.stop();
    assert(p instanceof Promise, `${label} returned ${show(p)}, not a Promise`);
    const deadline = () => (typeof deadlineMs === "function" ? deadlineMs() : t0 + deadlineMs);
    const o = { label, t0 };
    const settled = p.then((value) => Object.assign(o, { resolved: true, value }), (error) => Object.assign(o, { resolved: false, error }));
    let watchdog;
    for (;;) {
      // The deadline may be unknown at first (an abort scheduled later): wait in 250 ms steps.
      const left = Number.isFinite(deadline()) ? deadline() + 1000 - now() : 250;
      const timedOut = await Promise.race([settled.then(() => false), new Promise((r) => (watchdog = setTimeout(() => r(true), Math.max(0, left))))]);
      clearTimeout(watchdog);
      if (!timedOut) break;
      if (Number.isFinite(deadline()) && now() >= deadline() + 1000) {
        gaps.stop();
        throw new CaseFailure(`${label} still pending ${Math.round(now() - deadline())} ms after its deadline (${Math.round(deadline() - t0)} ms after the call)`);
      }
    }
    o.at = now();
    o.ms = o.at - t0;
    const gap = gaps.stop();
    o.gap = gap;
    this.maxGap = Math.max(this.maxGap ?? 0, gap);
    this.calls.push(o);
    this.out = o;
    this.progress(`${label} settled: ${this.describe(o)}`);
    if (!o.resolved && o.error instanceof WebAssembly.RuntimeError) throw new CaseFailure(`${label} rejected with a WebAssembly.RuntimeError (a trap): ${show(o.error)}`);
    // A process starved of the CPU (cases run side by side on a small machine) sees its timers late by
    // as much as its own event loop stalls: that stall is added to the slack. The module's own stalls
    // are held to 100 ms by the exclusive cases (many:, loop:).
    const late = o.at - deadline();
    assert(late <= SLACK + gap, `${label} settled ${Math.round(late)} ms after its deadline (${Math.round(o.ms)} ms; slack ${SLACK} ms + the longest event-loop stall meanwhile, ${gap} ms): ${this.describe(o)}`);
    return o;
  }

  /** A short tag for an outcome: `ok`, `error -32603 protocol protocol_violation`, `rejected with …`. */
  describe(o) {
    if (!o) return "no outcome";
    if (!o.resolved) {
      if (o.error === this.reason) return "rejected with signal.reason";
      if (o.error === this.err) return "rejected with the callback's error";
      return `rejected with ${show(o.error)}`;
    }
    const one = (v) => {
      if (v?.tag === "error") return `error ${v.error?.code} ${v.error?.kind} ${v.error?.cause?.type ?? ""}`.trim();
      return typeof v?.tag === "string" ? v.tag : `resolved ${show(v)}`;
    };
    if (Array.isArray(o.value)) return `[${o.value.map((r) => one(r?.outcome)).join(", ")}]`;
    return one(o.value);
  }

  /** Calls every export from inside a callback (the re-entrant behaviour); the async ones are awaited in `finish`. */
  reenter() {
    const lib = this.lib;
    const c = healthyClient();
    const o = { timeoutMs: 1000 };
    const asyncCalls = {
      callTool: () => lib.callTool(c, "inner", {}, o),
      awaitTask: () => lib.awaitTask(c, "i1", o),
      callAndAwait: () => lib.callAndAwait(c, "inner", {}, o, o),
      getTask: () => lib.getTask(c, "i1", o),
      updateTask: () => lib.updateTask(c, "i1", { k: { action: "decline" } }, o),
      cancelTask: () => lib.cancelTask(c, "i1", o),
      pendingTasks: () => lib.pendingTasks(lib.memoryJournal()),
      resumeTasks: () => lib.resumeTasks(c, lib.memoryJournal(), o),
    };
    for (const [name, f] of Object.entries(asyncCalls)) {
      let p;
      try {
        p = f();
      } catch (e) {
        this.innerSync.push(`${name} threw synchronously: ${show(e)}`);
        continue;
      }
      if (!(p instanceof Promise)) {
        this.innerSync.push(`${name} returned ${show(p)}, not a Promise`);
        continue;
      }
      this.inner.push({ name, at: now(), settled: p.then((v) => ({ ok: true, v }), (e) => ({ ok: false, e })) });
    }
    const syncCalls = {
      capabilities: () => assert(lib.capabilities({ a: 1 })?.extensions?.[EXT], "capabilities gave no extension"),
      serverSupports: () => assert(lib.serverSupports({ capabilities: { extensions: { [EXT]: {} } } }) === true, "serverSupports not true"),
      liveCounts: () => assert(typeof lib.liveCounts()?.runs === "number", "liveCounts without runs"),
      validateElicitResult: () => assert(lib.validateElicitResult({ action: "decline" })?.tag === "ok", "validateElicitResult not ok"),
      validateCreateMessageResult: () => assert(lib.validateCreateMessageResult(INPUT.sampling.response())?.tag === "ok", "validateCreateMessageResult not ok"),
      validateListRootsResult: () => assert(lib.validateListRootsResult({ roots: [] })?.tag === "ok", "validateListRootsResult not ok"),
    };
    for (const [name, f] of Object.entries(syncCalls)) {
      try {
        f();
      } catch (e) {
        this.innerSync.push(`${name} from inside the callback: ${show(e)}`);
      }
    }
  }
}

// ---- expectations ------------------------------------------------------------------------------

function expectTag(t, o, tag) {
  assert(o.resolved && o.value?.tag === tag, `expected {tag: "${tag}"}, got ${t.describe(o)}`);
  return o.value;
}

function expectError(t, o, want) {
  const v = o.resolved ? o.value : undefined;
  const e = v?.error;
  const got = { code: e?.code, kind: e?.kind, type: e?.cause?.type };
  const ok = v?.tag === "error" && Object.keys(want).every((k) => want[k] === undefined || got[k] === want[k]);
  assert(ok, `expected error ${show(want)}, got ${t.describe(o)}${e?.message ? ` (${show(e.message)})` : ""}`);
  return e;
}

function expectRejected(t, o, value, label) {
  assert(!o.resolved && o.error === value, `expected a rejection with ${label}, got ${t.describe(o)}`);
}

/** Passes when one of the checks passes. */
function either(...checks) {
  return (t, o, site) => {
    const why = [];
    for (const c of checks) {
      try {
        c.check(t, o, site);
        return;
      } catch (e) {
        why.push(e.message);
      }
    }
    throw new CaseFailure(why.join("; or "));
  };
}

const X = {
  healthy: { text: "the healthy outcome", check: (t, o, site) => site.healthy(t, o) },
  reason: { text: "rejects with signal.reason", check: (t, o) => expectRejected(t, o, t.reason, "signal.reason") },
  thrown: { text: "rejects with what was thrown", check: (t, o) => expectRejected(t, o, t.err, "the very error thrown") },
  protocol: { text: "error -32603 protocol protocol_violation", check: (t, o) => expectError(t, o, { code: -32603, kind: "protocol", type: "protocol_violation" }) },
  requestFailed: {
    text: "error -32000 transport request_failed, cause.error = what was thrown",
    check: (t, o) => {
      const e = expectError(t, o, { code: -32000, kind: "transport", type: "request_failed" });
      assert(e.cause?.error === t.err, `cause.error is not the thrown error: ${show(e.cause?.error)}`);
    },
  },
  requestFailedTypeError: {
    text: "error -32000 transport request_failed with a TypeError",
    check: (t, o) => {
      const e = expectError(t, o, { code: -32000, kind: "transport", type: "request_failed" });
      assert(e.cause?.error instanceof TypeError, `cause.error is not a TypeError: ${show(e.cause?.error)}`);
    },
  },
  execution: { text: "error -32603 execution input_handler", check: (t, o) => expectError(t, o, { code: -32603, kind: "execution", type: "input_handler" }) },
  journalFailed: {
    text: "error -32603 journal journal_failed, cause.operation = the op, cause.error = what was thrown",
    check: (t, o, site) => {
      const e = expectError(t, o, { code: -32603, kind: "journal", type: "journal_failed" });
      assert(e.cause?.operation === site.op, `cause.operation ${show(e.cause?.operation)}, expected ${site.op}`);
      assert(e.cause?.error === t.err, `cause.error is not the thrown error: ${show(e.cause?.error)}`);
    },
  },
};
X.protocolOrTypeError = { text: `${X.requestFailedTypeError.text}, or ${X.protocol.text}`, check: either(X.requestFailedTypeError, X.protocol) };
X.healthyOrReason = { text: "the healthy outcome (decided before), or rejects with signal.reason", check: either(X.healthy, X.reason) };
// A delete fails at the terminal outcome: the README's "a store that fails ends the call with a journal
// error" or the task's own outcome (already decided) both read as documented.
X.healthyOrJournalFailed = { text: `the healthy outcome, or ${X.journalFailed.text}`, check: either(X.healthy, X.journalFailed) };
X.executionNullKey = {
  text: "error -32603 execution input_handler, cause.key null",
  check: (t, o) => {
    const e = expectError(t, o, { code: -32603, kind: "execution", type: "input_handler" });
    assert(e.cause?.key === null, `cause.key ${show(e.cause?.key)}, expected null (the input function)`);
  },
};

// ---- the hostile behaviours ------------------------------------------------------------------------

/** A copy of `v` (an object, else {}) whose `key` getter throws `err`. */
function throwingGetter(v, key, err) {
  const o = Array.isArray(v) ? v.slice() : typeof v === "object" && v !== null ? { ...v } : {};
  Object.defineProperty(o, key, { get() { throw err; }, enumerable: true, configurable: true });
  return o;
}

const objectOr = (v) => (typeof v === "object" && v !== null ? v : {});

/** Each behaviour turns the site's good value (`good()`, built lazily) into what the callback returns. */
const BEHAVIOURS = {
  syncThen: {
    label: "returns a native promise whose own then settles synchronously (res, rej, res)",
    make: (good) => {
      const x = good();
      const p = Promise.resolve(x);
      p.then = (res, rej) => {
        res(x);
        rej(new Error("again"));
        res(x);
      };
      return p;
    },
  },
  thenThrows: { label: "returns a thenable whose then throws", make: (good, t) => ({ then() { throw t.err; } }) },
  thenNotFn: {
    label: "returns the good value with then: 5",
    make: (good) => {
      const v = good();
      if (Array.isArray(v)) return Object.assign(v.slice(), { then: 5 });
      return Object.assign({ then: 5 }, objectOr(v));
    },
  },
  getterThrows: { label: "returns the good value with a getter that throws", make: (good, t, site) => throwingGetter(good(), site.getter, t.err) },
  revoked: { label: "returns a revoked Proxy (not in a promise)", make: (good) => { const { proxy, revoke } = Proxy.revocable(objectOr(good()), {}); revoke(); return proxy; } },
  resolvesRevoked: {
    label: "returns a promise fulfilled with a Proxy revoked right after",
    make: (good) => {
      const { proxy, revoke } = Proxy.revocable(objectOr(good()), {});
      const p = Promise.resolve(proxy);
      revoke();
      return p;
    },
  },
  reentrant: { once: true, label: "calls every export re-entrantly, then returns the good value", make: (good, t) => (t.reenter(), Promise.resolve(good())) },
  abort: { once: true, label: "aborts the call's own signal, then returns the good value", make: (good, t) => (t.ac.abort(t.reason), Promise.resolve(good())) },
  throws: { label: "throws", make: (good, t) => { throw t.err; } },
};

// ---- the callback sites ---------------------------------------------------------------------------

const T = 1000; // the timeoutMs of every site case

/** The expectations shared by the input handler sites (a documented one, or undefined: universal checks only). */
const HANDLER_EXPECT = { syncThen: X.healthy, thenThrows: X.thrown, getterThrows: X.execution, resolvesRevoked: X.execution, reentrant: X.healthy, abort: X.reason, throws: X.thrown };
const LISTEN_EXPECT = Object.fromEntries(Object.keys(BEHAVIOURS).map((b) => [b, b === "abort" ? X.reason : X.healthy]));
const JOURNAL_EXPECT = { syncThen: X.healthy, thenThrows: X.journalFailed, reentrant: X.healthy, abort: X.reason, throws: X.journalFailed };

const healthyOk = (t, o) => {
  const v = expectTag(t, o, "ok");
  assert(v.result?.content?.[0]?.text === "done", `ok, but not with the task's result: ${show(v.result)}`);
};

/** The case running in this process / page (one at a time). */
let current;

/** Notes `what` in the running case's trace, with the ms since the case began (shown on a failure). */
function traced(what) {
  current?.trace.push(`${Math.round(now() - current.t0)} ${what}`);
}

/** Records a tasks/* request whose taskId is not the one the server gave (checked in `finish`). */
function checkTaskId(method, params) {
  traced(method);
  if (method.startsWith("tasks/") && params?.taskId !== TID) current?.idErrors.push(`${method} sent taskId ${show(params?.taskId)}, expected ${show(TID)}`);
}

function handlerSite(kind) {
  return {
    name: kind,
    label: `the ${kind} input handler`,
    getter: "response",
    expect: HANDLER_EXPECT,
    healthy: (t, o) => {
      healthyOk(t, o);
      assert(t.answered && JSON.stringify(t.answered.k) === JSON.stringify(INPUT[kind].response()), `ok, but tasks/update carried ${show(t.answered)}`);
    },
    async run(t, h) {
      const client = {
        request(method, params) {
          checkTaskId(method, params);
          if (method === "tasks/update") return (t.answered = params.inputResponses), Promise.resolve({ resultType: "complete" });
          return Promise.resolve(t.answered ? completed() : asking({ k: INPUT[kind].request() }));
        },
      };
      const handler = () => h(() => ({ tag: "ok", response: INPUT[kind].response() }));
      return t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: T, inputHandlers: { [kind]: handler }, signal: t.ac.signal }), T);
    },
  };
}

function journalSite(op) {
  const base = () => {
    const m = new Map();
    return { m, get: (k) => m.get(k), put: (k, e) => void m.set(k, e), delete: (k) => void m.delete(k), list: () => [...m.values()] };
  };
  const wrap = (b, h) => {
    const store = {};
    for (const name of ["get", "put", "delete", "list"]) store[name] = (...a) => (name === op && h ? h(() => b[name](...a)) : Promise.resolve(b[name](...a)));
    return store;
  };
  const client = () => {
    let reads = 0;
    return {
      id: "hostile://journal",
      request(method, params) {
        checkTaskId(method, params);
        if (method === "tools/call") return Promise.resolve({ ...working(), resultType: "task", ttlMs: null });
        reads += 1;
        return Promise.resolve(reads === 1 ? working() : completed());
      },
    };
  };
  if (op === "list") {
    return {
      name: "journal.list",
      op,
      label: "a journal store's list (resumeTasks)",
      getter: "0",
      expect: { syncThen: X.healthy, reentrant: X.healthy, abort: X.reason },
      healthy: (t, o) => {
        assert(o.resolved && Array.isArray(o.value) && o.value.length === 1 && o.value[0]?.outcome?.tag === "ok", `expected [{outcome: ok}] from resumeTasks, got ${t.describe(o)}`);
      },
      async run(t, h) {
        const b = base();
        const c = client();
        // The harness's own step, not the case: a loaded machine may take over a second here (CI did).
        const created = await t.lib.callTool(c, "x", {}, { journal: wrap(b), timeoutMs: 30_000 });
        assert(created?.tag === "task" && b.m.size === 1, `harness: the journal was not populated (${show(created)}, ${b.m.size} entries)`);
        return t.call("resumeTasks", () => t.lib.resumeTasks(c, wrap(b, h), { timeoutMs: T, signal: t.ac.signal }), T);
      },
    };
  }
  return {
    name: `journal.${op}`,
    op,
    label: `a journal store's ${op} (awaitTask with journal)`,
    getter: "taskId",
    expect: op === "delete" ? { ...JOURNAL_EXPECT, thenThrows: X.healthyOrJournalFailed, throws: X.healthyOrJournalFailed, abort: X.healthyOrReason } : JOURNAL_EXPECT,
    healthy: healthyOk,
    async run(t, h) {
      return t.call("awaitTask", () => t.lib.awaitTask(client(), TID, { journal: wrap(base(), h), timeoutMs: T, signal: t.ac.signal }), T);
    },
  };
}

const SITES = [
  {
    name: "request",
    label: "the client's request (tasks/get), retries 1",
    getter: "status",
    every: true,
    expect: {
      syncThen: X.healthy,
      thenThrows: X.requestFailed,
      thenNotFn: { text: "ok (an unknown field is ignored)", check: (t, o, s) => s.healthy(t, o) },
      getterThrows: X.protocol,
      revoked: X.protocolOrTypeError,
      resolvesRevoked: X.protocol,
      reentrant: X.healthy,
      abort: X.reason,
      throws: X.requestFailed,
    },
    healthy: healthyOk,
    async run(t, h) {
      const client = { request: (method, params) => (checkTaskId(method, params), h(() => completed())) };
      return t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: T, retries: 1, signal: t.ac.signal }), T);
    },
  },
  {
    name: "listen",
    label: "the client's listen(), retries 1",
    getter: "next",
    every: true,
    expect: LISTEN_EXPECT,
    healthy: healthyOk,
    async run(t, h) {
      let listens = 0;
      const client = {
        request: (method, params) => (checkTaskId(method, params), Promise.resolve(listens ? completed() : working())),
        listen: () => (traced("listen"), (listens += 1), h(() => stream([ACK()]))),
      };
      return t.call("awaitTask", () => t.lib.awaitTask(client, TID, { listen: true, timeoutMs: T, retries: 1, signal: t.ac.signal }), T);
    },
  },
  {
    name: "next",
    label: "a listen stream's next() (its first call on each stream)",
    getter: "done",
    every: true,
    expect: LISTEN_EXPECT,
    healthy: healthyOk,
    async run(t, h) {
      let listens = 0;
      const client = {
        request: (method, params) => (checkTaskId(method, params), Promise.resolve(listens ? completed() : working())),
        listen: () => (traced("listen"), (listens += 1), Promise.resolve(stream([], { next: (n) => (traced(`next ${n}`), n === 1 ? h(() => ({ done: false, value: ACK() })) : undefined) }))),
      };
      return t.call("awaitTask", () => t.lib.awaitTask(client, TID, { listen: true, timeoutMs: T, retries: 1, signal: t.ac.signal }), T);
    },
  },
  {
    name: "return",
    label: "a listen stream's return() (called as the wait ends)",
    getter: "done",
    every: true,
    expect: { ...LISTEN_EXPECT, abort: X.healthyOrReason },
    healthy: healthyOk,
    async run(t, h) {
      let listens = 0;
      const client = {
        request: (method, params) => (checkTaskId(method, params), Promise.resolve(listens ? completed() : working())),
        listen: () => ((listens += 1), Promise.resolve(stream([ACK()], { ret: () => h(() => ({ done: true, value: undefined })) }))),
      };
      return t.call("awaitTask", () => t.lib.awaitTask(client, TID, { listen: true, timeoutMs: T, retries: 1, signal: t.ac.signal }), T);
    },
  },
  ...Object.keys(INPUT).map(handlerSite),
  {
    name: "input",
    label: "the input function (input: fn)",
    getter: "responses",
    expect: { ...HANDLER_EXPECT, getterThrows: X.executionNullKey, resolvesRevoked: X.executionNullKey },
    healthy: (t, o) => {
      healthyOk(t, o);
      assert(JSON.stringify(t.answered?.k) === JSON.stringify(INPUT.form.response()), `ok, but tasks/update carried ${show(t.answered)}`);
    },
    async run(t, h) {
      const client = {
        request(method, params) {
          checkTaskId(method, params);
          if (method === "tasks/update") return (t.answered = params.inputResponses), Promise.resolve({ resultType: "complete" });
          return Promise.resolve(t.answered ? completed() : asking({ k: INPUT.form.request() }));
        },
      };
      const input = () => h(() => ({ tag: "ok", responses: { k: INPUT.form.response() } }));
      return t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: T, input, signal: t.ac.signal }), T);
    },
  },
  {
    name: "onStatus",
    label: "onStatus (its first call: the working status)",
    getter: "value",
    expect: { syncThen: X.healthy, reentrant: X.healthy, abort: X.reason, throws: X.thrown },
    healthy: healthyOk,
    async run(t, h) {
      let reads = 0;
      const client = { request: (method, params) => (checkTaskId(method, params), Promise.resolve(++reads === 1 ? working() : completed())) };
      return t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: T, onStatus: () => h(() => undefined), signal: t.ac.signal }), T);
    },
  },
  ...["get", "put", "delete", "list"].map(journalSite),
];

function siteCase(site, bname) {
  const b = BEHAVIOURS[bname];
  const expect = site.expect[bname];
  return {
    name: `${site.name}:${bname}`,
    what: `${site.label} ${b.label}`,
    expectText: expect ? expect.text : "(README silent: universal checks; the outcome is recorded)",
    budgetMs: 8000,
    async run(t) {
      let used = false;
      const h = (good) => {
        if (used && (!site.every || b.once)) return Promise.resolve(good());
        used = true;
        t.hostileCalls += 1;
        return b.make(good, t, site);
      };
      const o = await site.run(t, h);
      if (site.name === "return") for (let i = 0; i < 20 && !t.hostileCalls; i += 1) await sleep(5); // return() is not awaited
      assert(t.hostileCalls >= 1, `harness: the ${site.label} was never called (outcome ${t.describe(o)})`);
      if (expect) expect.check(t, o, site);
      return `${t.describe(o)}${expect ? "" : " (recorded)"}`;
    },
  };
}

// ---- the special cases ------------------------------------------------------------------------------

const special = [];
const scenario = (name, what, expectText, run, extra = {}) => special.push({ name, what, expectText, run, budgetMs: 10_000, ...extra });

// Nesting: values 100 000 levels deep are passed through as the very objects, never walked.
scenario("nesting:deep-result", "a completed task whose result is 100 000 levels deep", "ok, out.result === the very object", async (t) => {
  const deep = deepObject(100_000);
  const client = { request: () => Promise.resolve(completed(TID, deep)) };
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: T }), T);
  assert(expectTag(t, o, "ok").result === deep, "out.result is not the very object the client resolved with");
  return "ok, the very object";
});
scenario("nesting:deep-status-field", "statuses (working, then completed) carrying an extra field 100 000 levels deep, with onStatus", "ok (what onStatus saw of the extra field is recorded)", async (t) => {
  const deep = deepObject(100_000);
  let reads = 0;
  const seen = [];
  const client = { request: () => Promise.resolve({ ...(++reads === 1 ? working() : completed()), extra: deep }) };
  const onStatus = (s) => seen.push(s.extra === deep ? "the very field" : s.extra === undefined ? "no field" : "a copy");
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: T, onStatus }), T);
  expectTag(t, o, "ok");
  return `ok; onStatus saw ${seen.join(", ")}`;
});
scenario("nesting:deep-capabilities", "capabilities() of an object 100 000 levels deep", "returns the merge (no throw): the deep part intact, the extension added, the base unmodified", async (t) => {
  const deep = deepObject(100_000, { bottom: true });
  let r;
  try {
    r = t.lib.capabilities(deep);
  } catch (e) {
    throw new CaseFailure(`capabilities() threw ${show(e)}`);
  }
  assert(r?.extensions?.[EXT] && typeof r.extensions[EXT] === "object", `no extension in ${show(r)}`);
  assert(bottomOf(r, 100_000)?.bottom === true, "the merge lost the deep part");
  assert(!("extensions" in deep), "the base was modified");
  return "merged";
}, { sync: true });
scenario("nesting:deep-rejection", "request rejects with a value 100 000 levels deep (retries 1)", "error -32000 transport request_failed, cause.error === the very value", async (t) => {
  const deep = deepObject(100_000);
  const client = { request: () => Promise.reject(deep) };
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: T, retries: 1 }), T);
  const e = expectError(t, o, { code: -32000, kind: "transport", type: "request_failed" });
  assert(e.cause?.error === deep, `cause.error is not the very value: ${show(e.cause?.error)}`);
  return t.describe(o);
});
scenario("nesting:deep-rpc-error-data", "request rejects with a JSON-RPC error whose data is 100 000 levels deep", "error -32602 server rpc_error (data recorded)", async (t) => {
  const deep = deepObject(100_000);
  const client = { request: () => Promise.reject({ code: -32602, message: "unknown task", data: deep }) };
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: T }), T);
  const e = expectError(t, o, { code: -32602, kind: "server", type: "rpc_error" });
  return `${t.describe(o)}; data ${e.data === deep ? "the very object" : show(e.data)}`;
});

// Many input requests in one status.
scenario("many:100k-inputs", "one input_required status with 100 000 input requests (form handler present, timeoutMs 5000)", "error -32603 protocol within 1000 ms; no event-loop gap over 100 ms", async (t) => {
  const requests = {};
  for (let i = 0; i < 100_000; i += 1) requests[`k${i}`] = INPUT.form.request();
  const status = asking(requests);
  let asks = 0;
  let updates = 0;
  const client = { request: (method) => (method === "tasks/update" ? (updates++, Promise.resolve({ resultType: "complete" })) : Promise.resolve(updates ? completed() : status)) };
  const gaps = gapMonitor();
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: 5000, inputHandlers: { form: async () => (asks++, ACCEPT()) } }), 5000);
  const gap = gaps.stop();
  const detail = `${t.describe(o)} in ${Math.round(o.ms)} ms, ${asks} asks, ${updates} updates, max gap ${gap} ms`;
  expectError(t, o, { code: -32603, kind: "protocol" });
  assert(o.ms <= 1000, `not quick: ${detail}`);
  assert(gap <= 100, `event loop gap over 100 ms: ${detail}`);
  return detail;
}, { exclusive: true, budgetMs: 5000 });
scenario("many:10k-forms", "one status with 10 000 form requests, an async handler, timeoutMs 5000", "ok; every key asked once; one tasks/update with all 10 000 answers; no event-loop gap over 100 ms", async (t) => {
  const requests = {};
  for (let i = 0; i < 10_000; i += 1) requests[`k${i}`] = INPUT.form.request();
  const updates = [];
  const asked = new Map();
  const client = {
    request(method, params) {
      if (method === "tasks/update") return updates.push(params.inputResponses), Promise.resolve({ resultType: "complete" });
      return Promise.resolve(updates.length ? completed() : asking(requests));
    },
  };
  const form = async (params, { key }) => {
    asked.set(key, (asked.get(key) ?? 0) + 1);
    await Promise.resolve();
    return ACCEPT(key);
  };
  const gaps = gapMonitor();
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: 5000, inputHandlers: { form } }), 5000);
  const gap = gaps.stop();
  const twice = [...asked.values()].filter((n) => n > 1).length;
  const detail = `${t.describe(o)} in ${Math.round(o.ms)} ms, ${asked.size} keys asked (${twice} more than once), ${updates.length} tasks/update (${updates.map((u) => Object.keys(u ?? {}).length).join("+")} answers), max gap ${gap} ms`;
  assert(o.resolved && o.value?.tag === "ok", `expected ok: ${detail}`);
  assert(asked.size === 10_000 && twice === 0, `every key asked once: ${detail}`);
  assert(updates.length === 1 && Object.keys(updates[0]).length === 10_000, `one tasks/update with all answers: ${detail}`);
  assert(Object.entries(updates[0]).every(([k, v]) => v?.content?.v === k), `an answer under the wrong key: ${detail}`);
  assert(gap <= 100, `event loop gap over 100 ms: ${detail}`);
  return detail;
}, { exclusive: true, budgetMs: 20_000 });

// Instant loops: answers that come back at once must not starve the event loop.
scenario("loop:mrtr-instant", "every tools/call answered at once with a new MRTR round (inputRequests {}), timeoutMs 1000", "no event-loop gap over 100 ms; successive tools/call ≥ ~100 ms apart, each echoing the previous requestState", async (t) => {
  const calls = [];
  let runaway = false;
  const client = {
    request(method, params) {
      if (method !== "tools/call") return Promise.reject({ code: -32601, message: method });
      if (calls.length >= 200) return (runaway = true), never();
      calls.push({ at: now(), state: params?.requestState });
      return Promise.resolve({ resultType: "input_required", inputRequests: {}, requestState: `s${calls.length}` });
    },
  };
  const gaps = gapMonitor();
  const o = await t.call("callTool", () => t.lib.callTool(client, "loop", {}, { timeoutMs: 1000 }), 1000);
  const gap = gaps.stop();
  const spacing = calls.slice(1).map((c, i) => c.at - calls[i].at);
  const minSpacing = spacing.length ? Math.round(Math.min(...spacing)) : null;
  const badEcho = calls.findIndex((c, i) => i > 0 && c.state !== `s${i}`);
  const detail = `${t.describe(o)}; ${calls.length} tools/call${runaway ? " (runaway: stopped answering at 200)" : ""}, min spacing ${minSpacing} ms, max gap ${gap} ms`;
  assert(!runaway, `no pacing: ${detail}`);
  assert(gap <= 100, `event loop gap over 100 ms: ${detail}`);
  assert(minSpacing === null || minSpacing >= 95, `rounds less than 100 ms apart: ${detail}`);
  assert(badEcho < 0, `tools/call #${badEcho + 1} carried requestState ${show(calls[badEcho]?.state)}, expected "s${badEcho}": ${detail}`);
  return detail;
}, { exclusive: true });

function instantListen(t, max) {
  const state = { nexts: 0, runaway: false };
  const client = {
    request: (method, params) => (checkTaskId(method, params), Promise.resolve(working())),
    listen: () => Promise.resolve(stream([ACK()], {
      next: () => {
        state.nexts += 1;
        if (state.nexts > max) return (state.runaway = true), undefined; // the default: pending until return()
        return state.nexts === 1 ? undefined : Promise.resolve({ done: false, value: EVENT("other") });
      },
    })),
  };
  return { client, state };
}
scenario("loop:listen-instant", "a listen stream whose next() always resolves at once with a notification for another task, timeoutMs 1000", "error -32001 timeout at the deadline; no event-loop gap over 100 ms", async (t) => {
  const { client, state } = instantListen(t, 100_000);
  const gaps = gapMonitor();
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { listen: true, timeoutMs: 1000 }), 1000);
  const gap = gaps.stop();
  const detail = `${t.describe(o)} in ${Math.round(o.ms)} ms; ${state.nexts} next() calls${state.runaway ? " (runaway: 100 000 reached, then left pending)" : ""}; max gap ${gap} ms`;
  assert(gap <= 100, `event loop gap over 100 ms: ${detail}`);
  expectError(t, o, { code: -32001, kind: "transport", type: "timeout" });
  return detail;
}, { exclusive: true });
scenario("loop:listen-instant-abort", "the same stream with timeoutMs: Infinity and a signal aborted 300 ms later from a setTimeout", "rejects with signal.reason within 100 ms of the abort; no event-loop gap over 100 ms", async (t) => {
  const { client, state } = instantListen(t, 100_000);
  let abortedAt = Infinity;
  setTimeout(() => ((abortedAt = now()), t.ac.abort(t.reason)), 300);
  const gaps = gapMonitor();
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { listen: true, timeoutMs: Infinity, signal: t.ac.signal }), () => abortedAt);
  const gap = gaps.stop();
  const detail = `${t.describe(o)} ${Math.round(o.at - abortedAt)} ms after the abort (${Math.round(o.ms)} ms after the call); ${state.nexts} next() calls${state.runaway ? " (runaway)" : ""}; max gap ${gap} ms`;
  assert(gap <= 100, `event loop gap over 100 ms: ${detail}`);
  expectRejected(t, o, t.reason, "signal.reason");
  return detail;
}, { exclusive: true });

// Ids and keys come back exactly as received.
scenario("ids:lone-surrogate-server", 'callAndAwait on a server that creates the task "t\\uD800"', "every tasks/get carries that very id (===); ok", async (t) => {
  const id = "t\uD800";
  const sent = [];
  const client = {
    request(method, params) {
      if (method === "tools/call") return Promise.resolve({ ...working(id), resultType: "task", ttlMs: null });
      sent.push(params?.taskId);
      return params?.taskId === id ? Promise.resolve(completed(id)) : Promise.reject({ code: -32602, message: "unknown task" });
    },
  };
  const o = await t.call("callAndAwait", () => t.lib.callAndAwait(client, "x", {}, { timeoutMs: T }, { timeoutMs: T }), T);
  const wrong = sent.filter((s) => s !== id);
  assert(sent.length >= 1 && wrong.length === 0, `tasks/get sent taskId ${wrong.map((s) => JSON.stringify(s)).join(", ") || "never"} (expected "t\\ud800"); outcome ${t.describe(o)}`);
  expectTag(t, o, "ok");
  return `ok; ${sent.length} tasks/get with the very id`;
});
scenario("ids:lone-surrogate-caller", 'awaitTask(client, "t\\uD800")', "every tasks/get carries that very id (===); ok", async (t) => {
  const id = "t\uD800";
  const sent = [];
  const client = { request: (method, params) => (sent.push(params?.taskId), params?.taskId === id ? Promise.resolve(completed(id)) : Promise.reject({ code: -32602, message: "unknown task" })) };
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, id, { timeoutMs: T }), T);
  const wrong = sent.filter((s) => s !== id);
  assert(sent.length >= 1 && wrong.length === 0, `tasks/get sent taskId ${wrong.map((s) => JSON.stringify(s)).join(", ") || "never"} (expected "t\\ud800"); outcome ${t.describe(o)}`);
  expectTag(t, o, "ok");
  return `ok; ${sent.length} tasks/get with the very id`;
});
scenario("keys:__proto__", 'input requests under the keys "__proto__", "constructor" and "k", answered by a form handler', 'ok; each key asked once; tasks/update\'s inputResponses has an own "__proto__" holding its answer, and the other keys', async (t) => {
  const requests = JSON.parse(`{"__proto__": ${JSON.stringify(INPUT.form.request())}, "constructor": ${JSON.stringify(INPUT.form.request())}, "k": ${JSON.stringify(INPUT.form.request())}}`);
  assert(Object.hasOwn(requests, "__proto__"), "harness: JSON.parse did not make an own __proto__");
  let update;
  const asked = [];
  const client = {
    request(method, params) {
      if (method === "tasks/update") return (update = params.inputResponses), Promise.resolve({ resultType: "complete" });
      return Promise.resolve(update ? completed() : asking(requests));
    },
  };
  const form = (params, { key }) => (asked.push(key), ACCEPT(key));
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: T, inputHandlers: { form } }), T);
  const desc = (k) => (update && Object.hasOwn(update, k) ? Object.getOwnPropertyDescriptor(update, k).value?.content?.v : "<missing>");
  const detail = `${t.describe(o)}; asked ${show(asked.sort())}; update own keys ${show(update ? Reflect.ownKeys(update) : null)}`;
  assert(asked.length === 3 && new Set(asked).size === 3 && asked.includes("__proto__"), `each key asked once: ${detail}`);
  for (const k of ["__proto__", "constructor", "k"]) assert(desc(k) === k, `inputResponses[${JSON.stringify(k)}] is ${show(desc(k))}, expected its own answer: ${detail}`);
  expectTag(t, o, "ok");
  return detail;
});
scenario("proto:throwing-setters", 'throwing setters on Object.prototype for "signal", "timeoutMs", "createdAt" and "lastUpdatedAt" (fields the module sets on the request options and status objects it builds), then callAndAwait with onStatus', "ok; the setters ran and threw (each caught: the field is left unset), no exception escaped; the statuses lack those fields", async (t) => {
  // (Not "pollIntervalMs": the created task's status object, without it, would make the wait poll at its
  // default interval, past this case's deadline — as it did when the fields were set with Reflect.set.)
  const keys = ["signal", "timeoutMs", "createdAt", "lastUpdatedAt"];
  const stamp = "2026-01-01T00:00:00Z";
  const client = {
    request(method) {
      if (method === "tools/call") return Promise.resolve({ ...working(), resultType: "task", createdAt: stamp, lastUpdatedAt: stamp, ttlMs: 60000 });
      return Promise.resolve({ ...completed(), createdAt: stamp });
    },
  };
  let thrown = 0;
  const statuses = [];
  for (const k of keys) Object.defineProperty(Object.prototype, k, { set() { thrown += 1; throw new Error(`setter ${k}`); }, configurable: true });
  let o;
  try {
    o = await t.call("callAndAwait", () => t.lib.callAndAwait(client, "x", {}, {}, { timeoutMs: T, onStatus: (s) => statuses.push(Object.keys(s)) }), T);
  } finally {
    for (const k of keys) delete Object.prototype[k];
  }
  const detail = `${t.describe(o)}; setters threw ${thrown} times; status keys ${show(statuses)}`;
  assert(thrown > 0, `harness: no setter ran (${detail})`);
  assert(statuses.length > 0 && statuses.every((s) => !s.some((k) => keys.includes(k))), `the statuses hold no polluted field: ${detail}`);
  expectTag(t, o, "ok");
  return detail;
});

scenario("proto:outcome-setters", 'throwing setters on Object.prototype for the fields of the outcome objects ("tag", "result", "status", "error", "code", "kind", "cause"), then callTool (ok), getTask (ok with a status) and awaitTask against a task that fails (error with a cause)', "each call settles with its outcome object, the setters ran and threw (each caught: the field is left unset), no exception escaped", async (t) => {
  // The outcome objects are written by one function (the engine's Outcome::to_json over the Json
  // builder), whose fields are set by catching assignments: a poisoned prototype leaves a field unset
  // instead of throwing through the module (which killed the process, or hung a page's call).
  const keys = ["tag", "result", "status", "error", "code", "kind", "cause"];
  const failed = { resultType: "complete", taskId: TID, status: "failed", error: { code: -32603, message: "boom" } };
  const client = {
    request(method) {
      if (method === "tools/call") return Promise.resolve(RESULT());
      return Promise.resolve(failed);
    },
  };
  let thrown = 0;
  const outcomes = [];
  for (const k of keys) Object.defineProperty(Object.prototype, k, { set() { thrown += 1; throw new Error(`setter ${k}`); }, configurable: true });
  try {
    outcomes.push(await t.call("callTool", () => t.lib.callTool(client, "x", {}, { timeoutMs: T }), T));
    outcomes.push(await t.call("getTask", () => t.lib.getTask(client, TID, { timeoutMs: T }), T));
    outcomes.push(await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: T }), T));
  } finally {
    for (const k of keys) delete Object.prototype[k];
  }
  const detail = `${outcomes.map((o) => `${o.resolved ? "resolved" : "rejected"} ${show(o.value)}`).join("; ")}; setters threw ${thrown} times`;
  assert(thrown >= 7, `the setters ran for the outcome fields: ${detail}`);
  assert(outcomes.every((o) => o.resolved && typeof o.value === "object" && o.value !== null), `every call resolved with an object: ${detail}`);
  // With the prototype clean again, the objects show what was set: the fields the setters refused are absent.
  assert(outcomes.every((o) => !Object.hasOwn(o.value, "tag")), `the refused "tag" fields stay unset: ${detail}`);
  return detail;
});

// The caller's stack: calls made within the last ~2000 frames before the JS stack limit.
scenario("stack:near-limit", "recursing to the stack limit, at each of the last 2000 depths: capabilities({a:1}) (RangeError caught) and callAndAwait against a healthy client; 3 times", "callAndAwait never throws synchronously where a call with 4 KB of arguments still fits (its entry's room); every call started settles; then at normal depth capabilities, a healthy callAndAwait (ok) and liveCounts all zero", async (t) => {
  const lib = t.lib;
  const client = healthyClient();
  const runs = [];
  for (let run = 1; run <= 3; run += 1) {
    const s = { probes: 0, capOk: 0, capRange: 0, capOther: 0, syncThrows: 0, unexplained: 0, refNoRoom: 0, example: null };
    const ps = new Array(2100);
    let np = 0;
    let deepest = -1;
    // What the export's own entry needs before it can refuse (its JS glue, its first wasm frame, the
    // registry's probe and a rejected promise): a call with 4 KB of arguments. Where even that does
    // not fit, the engine throws RangeError for any call, and so may the export.
    const entryRoom = new Array(512);
    const inner = () => undefined;
    const ref = () => {
      try {
        return inner.apply(undefined, entryRoom);
      } catch (x) {
        throw x;
      }
    };
    const probe = () => {
      s.probes += 1;
      let fits = false;
      try {
        ref();
        fits = true;
      } catch {
        s.refNoRoom += 1;
      }
      try {
        lib.capabilities({ a: 1 });
        s.capOk += 1;
      } catch (e) {
        if (e instanceof RangeError) s.capRange += 1;
        else s.capOther += 1;
      }
      try {
        ps[np] = lib.callAndAwait(client, "x", {}, { timeoutMs: 2000 }, { timeoutMs: 2000 });
        np += 1;
      } catch (e) {
        s.syncThrows += 1;
        if (fits) {
          s.unexplained += 1;
          s.example ??= e;
        }
      }
    };
    const dive = (level) => {
      try {
        dive(level + 1);
      } catch {
        if (deepest < 0) deepest = level;
      }
      if (deepest - level < 2000) probe();
    };
    const t0 = now();
    dive(0);
    s.depth = deepest;
    // Every call started near the limit must settle in time (the tag of each is recorded).
    const tags = {};
    const started = ps.slice(0, np);
    const all = Promise.all(started.map((p) => (p instanceof Promise ? p : Promise.reject(new Error(`returned ${show(p)}`))).then((v) => (v?.tag === "error" ? `error ${v.error?.code} ${v.error?.cause?.type}` : v?.tag ?? show(v)), (e) => `rejected ${e?.name ?? show(e)}`))).then((list) => list.forEach((k) => (tags[k] = (tags[k] ?? 0) + 1)));
    const inTime = await Promise.race([all.then(() => true), sleep(2000 + 1000 - (now() - t0)).then(() => false)]);
    assert(inTime, `run ${run}: calls started near the stack limit still pending 1000 ms past their deadline (${show(s)})`);
    s.tags = tags;
    const nonPromise = started.filter((p) => !(p instanceof Promise)).length;
    assert(nonPromise === 0, `run ${run}: ${nonPromise} callAndAwait calls returned a non-Promise`);
    if (s.example && !(s.example instanceof RangeError)) throw new CaseFailure(`run ${run}: callAndAwait threw ${show(s.example)} synchronously`);
    // Back at normal depth: the module works.
    let caps;
    try {
      caps = lib.capabilities({ a: 1 });
    } catch (e) {
      throw new CaseFailure(`run ${run}: capabilities({a: 1}) at normal depth threw ${show(e)} (${show(s)})`);
    }
    assert(caps?.a === 1 && caps?.extensions?.[EXT], `run ${run}: capabilities({a: 1}) at normal depth gave ${show(caps)}`);
    const o = await t.call(`callAndAwait (run ${run}, normal depth)`, () => lib.callAndAwait(client, "x", {}, { timeoutMs: T }, { timeoutMs: T }), T);
    assert(o.resolved && o.value?.tag === "ok", `run ${run}: a healthy callAndAwait at normal depth gave ${t.describe(o)} (${show(s)})`);
    try {
      await settleCounts(lib);
    } catch (e) {
      throw new CaseFailure(`run ${run}: ${e.message}; this run: depth ${s.depth}, ${s.probes} probes, callAndAwait sync throws ${s.syncThrows} (${s.unexplained} where a 4 KB call still fit), outcomes ${show(tags)}`);
    }
    runs.push(s);
    assert(s.unexplained === 0, `run ${run}: callAndAwait threw synchronously ${s.unexplained} times at depths where a 4 KB call still fit (${s.syncThrows} sync throws in all, e.g. ${show(s.example)}); depth ${s.depth}, ${s.probes} probes, capabilities ok ${s.capOk} / RangeError ${s.capRange}`);
  }
  return runs.map((s, i) => `run ${i + 1}: depth ${s.depth}, ${s.probes} probes, sync throws ${s.syncThrows} (no room for a 4 KB call: ${s.refNoRoom}), capabilities ok ${s.capOk} RangeError ${s.capRange}, outcomes ${show(s.tags)}`).join("; ");
}, { budgetMs: 30_000 });

// Load: 100 000 waits started in one synchronous loop.
scenario("load:100k-awaitTask", "100 000 awaitTask calls started in one synchronous loop against a client whose requests never settle (timeoutMs 2000)", "no crash; all settle with error -32001 timeout — the module works them off a slice at a time, so by the loop's end + 2000 + 1000 ms + 100 µs per call — and the event-loop gap after the loop recorded; liveCounts back to zero", async (t) => {
  const N = 100_000;
  const client = { request: () => never() };
  const ps = new Array(N);
  let syncThrows = 0;
  let example;
  const t0 = now();
  for (let i = 0; i < N; i += 1) {
    try {
      ps[i] = t.lib.awaitTask(client, `t${i}`, { timeoutMs: 2000 });
    } catch (e) {
      syncThrows += 1;
      example ??= e;
      ps[i] = Promise.reject(e);
    }
  }
  const loopMs = now() - t0;
  t.progress(`loop done in ${Math.round(loopMs)} ms`);
  const gaps = gapMonitor();
  const tags = {};
  let first = 0;
  let last = 0;
  const all = Promise.all(ps.map((p) => p.then((v) => (v?.tag === "error" ? `${v.error?.code} ${v.error?.cause?.type}` : v?.tag ?? show(v)), (e) => `rejected ${e?.name ?? show(e)}`).then((k) => {
    tags[k] = (tags[k] ?? 0) + 1;
    first ||= now();
    last = now();
  })));
  const bound = t0 + loopMs + 2000 + 1000 + N * 0.1;
  const inTime = await Promise.race([all.then(() => true), sleep(bound + 2000 - now()).then(() => false)]);
  const gap = gaps.stop();
  t.calls.push({ label: "100k awaitTask" });
  const detail = `loop ${Math.round(loopMs)} ms; first settled ${Math.round(first - t0)} ms, last settled ${inTime ? Math.round(last - t0) : "never"} ms after the first call; outcomes ${show(tags)}; sync throws ${syncThrows}; max gap after the loop ${Math.round(gap)} ms`;
  // The gap is a figure here, not a rule: right after such a loop wasm-bindgen-futures polls every
  // call's task once in one microtask (~265 ms in Node for 100 000, under 100 ms in Chromium); the
  // rule of "the page keeps running" is about what a server does (the many:, loop: cases).
  assert(syncThrows === 0, `${syncThrows} synchronous throws (e.g. ${show(example)}): ${detail}`);
  assert(inTime && last <= bound, `not all settled by the loop's end + 3000 ms: ${detail}`);
  assert(tags["-32001 timeout"] === N, `not all ended -32001 timeout: ${detail}`);
  return detail;
}, { exclusive: true, budgetMs: 40_000 });

// A DOMException is never read as a JSON-RPC error (it has an integer code and a string message).
scenario("domexception:AbortError", 'request rejects with new DOMException("The operation was aborted.", "AbortError") (not our signal), retries 1', "error -32000 transport request_failed after the retry, cause.error === the DOMException", async (t) => {
  const thrown = [];
  const client = { request: () => Promise.reject(thrown[thrown.push(new DOMException("The operation was aborted.", "AbortError")) - 1]) };
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: 2000, retries: 1 }), 2000);
  const e = expectError(t, o, { code: -32000, kind: "transport", type: "request_failed" });
  assert(thrown.includes(e.cause?.error), `cause.error is not the DOMException: ${show(e.cause?.error)}`);
  return `${t.describe(o)} after ${thrown.length} requests`;
});

// MCP 2025-11-25: a client that says it found that generation, its task's input as the server's
// requests on the pending tasks/result (`onRequest`), answered through `respond`.
const coreTask = (status, id = TID) => ({ taskId: id, status, createdAt: "2026-09-01T08:00:00Z", lastUpdatedAt: "2026-09-01T08:00:00Z", ttl: 600_000, pollInterval: 20 });
const coreAsk = (id, taskId = TID) => ({ jsonrpc: "2.0", id, method: "elicitation/create", params: { ...INPUT.form.request().params, _meta: { "io.modelcontextprotocol/related-task": { taskId } } } });

/** A 2025-11-25 client: `tasks/get` says `status()`; `tasks/result` calls `onResult(hear)` with the
 * request's `onRequest` and settles as that returns; every response is counted by id. */
function coreClient(status, onResult) {
  const state = { responses: new Map(), results: 0, gets: 0, openResults: 0, maxOpenResults: 0 };
  const client = {
    generation: "2025-11-25",
    session: () => Promise.resolve({ generation: "2025-11-25", capabilities: { tasks: { requests: { tools: { call: {} } } } } }),
    respond(id, result, error) {
      const seen = state.responses.get(id) ?? [];
      seen.push(error === undefined ? "result" : `error ${error.code}`);
      state.responses.set(id, seen);
      return Promise.resolve();
    },
    request(method, params, options) {
      if (method === "tasks/get") return (state.gets += 1), Promise.resolve(coreTask(status()));
      if (method === "tasks/result") {
        state.results += 1;
        state.openResults += 1;
        state.maxOpenResults = Math.max(state.maxOpenResults, state.openResults);
        const done = () => (state.openResults -= 1);
        const p = Promise.resolve(onResult(options.onRequest, options.signal));
        p.then(done, done);
        return p;
      }
      return Promise.reject({ code: -32601, message: `no ${method}` });
    },
  };
  return { client, state };
}

scenario("core:requests-flood", "MCP 2025-11-25: a tasks/result that carries 100 000 distinct requests of the task (250 per macrotask), and the result once all are answered; a form handler that answers at once", "ok; every request answered exactly once (the first 10 000 by the handler, the rest refused); no event-loop gap over 100 ms", async (t) => {
  let sent = 0;
  let ended = false;
  const { client, state } = coreClient(() => (ended ? "completed" : "input_required"), async (hear) => {
    while (sent < 100_000) {
      for (let i = 0; i < 250; i += 1) hear(coreAsk((sent += 1)));
      await sleep(0);
    }
    // As a real server's task: it ends once every request it sent was answered.
    while (state.responses.size < 100_000) await sleep(10);
    ended = true;
    return { content: [{ type: "text", text: "all asked" }] };
  });
  const form = () => INPUT.form.response();
  client.inputHandlers = { form };
  const gaps = gapMonitor();
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: 60_000 }), 60_000);
  const gap = gaps.stop();
  const counts = [...state.responses.values()];
  const twice = counts.filter((c) => c.length !== 1).length;
  const answered = counts.filter((c) => c[0] === "result").length;
  const detail = `${t.describe(o)}; ${state.responses.size} ids answered (${answered} by the handler, ${twice} more than once); max gap ${gap} ms`;
  expectTag(t, o, "ok");
  assert(state.responses.size === 100_000 && twice === 0 && answered === 10_000, detail);
  assert(gap <= 100, `event loop gap over 100 ms: ${detail}`);
  return detail;
}, { exclusive: true, budgetMs: 60_000 });

scenario("core:other-tasks", "MCP 2025-11-25: the tasks/result carries 500 requests for other tasks and one for the wait's task", "ok; the other tasks' requests refused (-32602), never asked; the task's own asked once", async (t) => {
  let ended = false;
  let asked = 0;
  const { client, state } = coreClient(() => (ended ? "completed" : "input_required"), async (hear) => {
    for (let i = 1; i <= 500; i += 1) hear(coreAsk(i, `other-${i}`));
    hear(coreAsk(1000));
    await sleep(100);
    ended = true;
    return RESULT();
  });
  client.inputHandlers = { form: () => ((asked += 1), INPUT.form.response()) };
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: T }), T);
  expectTag(t, o, "ok");
  const refused = [...state.responses.entries()].filter(([id, c]) => id !== 1000 && c.length === 1 && c[0] === "error -32602").length;
  assert(refused === 500 && asked === 1 && state.responses.get(1000)?.join() === "result", `refused ${refused}, asked ${asked}, own ${state.responses.get(1000)}`);
  return `ok; 500 refused, the task's own asked once`;
});

scenario("core:instant-forever", "MCP 2025-11-25: tasks/get answers input_required at once, forever; the tasks/result never settles; timeoutMs 1000", "error -32001 at the deadline; one tasks/result at a time; polls no faster than the 100 ms floor; no gap over 100 ms", async (t) => {
  const { client, state } = coreClient(() => "input_required", (_hear, signal) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))));
  const gaps = gapMonitor();
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: 1000 }), 1000);
  const gap = gaps.stop();
  const detail = `${t.describe(o)}; ${state.gets} tasks/get, ${state.results} tasks/result (at most ${state.maxOpenResults} open); max gap ${gap} ms`;
  expectError(t, o, { code: -32001, kind: "transport", type: "timeout" });
  assert(state.maxOpenResults === 1 && state.gets <= 12, detail);
  assert(gap <= 100, `event loop gap over 100 ms: ${detail}`);
  return detail;
}, { exclusive: true });

scenario("core:backwards", "MCP 2025-11-25: statuses that go backwards (input_required, working, input_required, … 20 times), then completed; the tasks/result answers once the task ends", "ok; never two tasks/result open at once", async (t) => {
  let n = 0;
  let release;
  const { client, state } = coreClient(() => {
    n += 1;
    if (n > 40) release?.();
    return n > 40 ? "completed" : n % 2 ? "input_required" : "working";
  }, () => new Promise((resolve) => (release = () => resolve(RESULT()))));
  // 40 reads at the 100 ms floor take 4 s: the deadline leaves room for a loaded machine.
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: 20_000 }), 20_000);
  expectTag(t, o, "ok");
  assert(state.maxOpenResults === 1, `${state.results} tasks/result, ${state.maxOpenResults} open at once`);
  return `ok after ${state.gets} tasks/get; ${state.results} tasks/result, at most one open`;
}, { budgetMs: 40_000 });

scenario("core:status-flood", "MCP 2025-11-25, listen: the session's stream carries 100 000 notifications/tasks/status of other tasks (250 per macrotask), then the task's own completed", "ok once the task's own completed came; one tasks/get (as the stream opened); no event-loop gap over 100 ms", async (t) => {
  const { client, state } = coreClient(() => "working", () => RESULT());
  let sent = 0;
  client.listen = () => Promise.resolve({
    async next() {
      if (sent % 250 === 0) await sleep(0);
      sent += 1;
      if (sent <= 100_000) return { done: false, value: { jsonrpc: "2.0", method: "notifications/tasks/status", params: coreTask("working", `other-${sent}`) } };
      if (sent === 100_001) return { done: false, value: { jsonrpc: "2.0", method: "notifications/tasks/status", params: coreTask("completed") } };
      return new Promise(() => {});
    },
    return: () => Promise.resolve({ done: true, value: undefined }),
  });
  const gaps = gapMonitor();
  const o = await t.call("awaitTask", () => t.lib.awaitTask(client, TID, { timeoutMs: 60_000, listen: true }), 60_000);
  const gap = gaps.stop();
  const detail = `${t.describe(o)}; ${sent} notifications taken, ${state.gets} tasks/get, ${state.results} tasks/result; max gap ${gap} ms`;
  expectTag(t, o, "ok");
  // (the stream is read on while the tasks/result is out: one next() more may be pending at the end)
  assert(sent >= 100_001 && sent <= 100_002 && state.gets === 1 && state.results === 1, detail);
  assert(gap <= 100, `event loop gap over 100 ms: ${detail}`);
  return detail;
}, { exclusive: true, budgetMs: 60_000 });

// ---- the list and the harness ----------------------------------------------------------------------

let memo;
/** Every case: `{name, what, expectText, budgetMs, exclusive?, sync?, run(t)}`. */
export function caseList() {
  memo ??= [...SITES.flatMap((s) => Object.keys(BEHAVIOURS).map((b) => siteCase(s, b))), ...special];
  return memo;
}

async function finish(t, c) {
  const lib = t.lib;
  assert(c.sync || t.calls.length >= 1, "harness: the case never called an async export");
  assert(t.idErrors.length === 0, t.idErrors.slice(0, 2).join("; "));
  // The re-entrant calls: none threw synchronously, all settle (each within its timeoutMs 1000 + slack), none rejects.
  assert(t.innerSync.length === 0, `re-entrant calls: ${t.innerSync.join("; ")}`);
  for (const i of t.inner) {
    const left = i.at + 1000 + SLACK + 400 - now();
    const r = await Promise.race([i.settled, sleep(Math.max(0, left)).then(() => undefined)]);
    assert(r, `the re-entrant ${i.name} call was still pending ${Math.round(now() - i.at)} ms after it started (timeoutMs 1000)`);
    assert(r.ok, `the re-entrant ${i.name} call rejected with ${show(r.e)}`);
  }
  if (t.inner.length) t.note(`re-entrant: ${(await Promise.all(t.inner.map(async (i) => `${i.name} ${(await i.settled).v?.tag ?? "done"}`))).join(", ")}`);
  await settleCounts(lib);
  // The module still works.
  const tiny = { request: (method, params) => Promise.resolve(completed(params?.taskId)) };
  let p;
  try {
    p = lib.awaitTask(tiny, "h1", { timeoutMs: 500 });
  } catch (e) {
    throw new CaseFailure(`the healthy awaitTask afterwards threw synchronously: ${show(e)}`);
  }
  const out = await Promise.race([p.then((v) => ({ v }), (e) => ({ e })), sleep(1000).then(() => undefined)]);
  assert(out, "the healthy awaitTask afterwards never settled");
  assert(out.v?.tag === "ok", `the healthy awaitTask afterwards gave ${out.e !== undefined ? `a rejection ${show(out.e)}` : show(out.v)}`);
  await settleCounts(lib);
}

/**
 * Runs one case in this process / page: `env.uncaught` is the array the environment pushes uncaught
 * exceptions and unhandled rejections into; `env.progress(message)` reports progress (optional).
 * Resolves with `{ok, ms, detail}`.
 */
export async function runCase(lib, name, env = {}) {
  const uncaught = env.uncaught ?? [];
  const c = caseList().find((x) => x.name === name);
  if (!c) return { ok: false, ms: 0, detail: `no case named ${JSON.stringify(name)}` };
  const consoleError = console.error;
  console.error = (...args) => {
    uncaught.push(`console.error: ${args.map((a) => show(a)).join(" ")}`);
    consoleError.apply(console, args);
  };
  const t = new Ctx(lib, env);
  current = t;
  const t0 = now();
  let detail;
  let failure;
  try {
    const before = counts(lib);
    assert(isZero(before), `liveCounts before the case: ${show(before)}`);
    detail = await c.run(t);
    await finish(t, c);
  } catch (e) {
    failure = e instanceof CaseFailure ? e.message : `unexpected ${show(e)} ${e?.stack?.split("\n").slice(1, 3).join(" ").trim() ?? ""}`;
  }
  await sleep(50); // late uncaught ones still count
  console.error = consoleError;
  if (uncaught.length) failure = `${failure ? `${failure}; ` : ""}uncaught: ${uncaught.slice(0, 3).join(" | ")}${uncaught.length > 3 ? ` (+${uncaught.length - 3})` : ""}`;
  const notes = t.notes.length ? ` [${t.notes.join("; ")}]` : "";
  const outcome = !failure || !t.out ? "" : ` (outcome: ${t.describe(t.out)})`;
  const stall = `${t.maxGap ? `; the longest event-loop stall during a call: ${t.maxGap} ms` : ""}${t.trace.length ? `; trace: ${t.trace.slice(0, 12).join(", ")}` : ""}`;
  return failure ? { ok: false, ms: Math.round(now() - t0), stallMs: t.maxGap ?? 0, detail: `${failure}${failure.includes(t.describe(t.out)) ? "" : outcome}${stall}` } : { ok: true, ms: Math.round(now() - t0), detail: `${detail ?? ""}${notes}` };
}
