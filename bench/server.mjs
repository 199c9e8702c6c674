// The bench's in-process fake MCP Tasks server (2026-07-28, io.modelcontextprotocol/tasks).
// Environment-agnostic (Node and pages): no imports, no timers of its own except the listen stream's.
//
// Minimal and allocation-light: a task is a small record {id, gets, mode, limit, created, stamp, result};
// every tasks/get builds one small fresh answer object from it (a real transport would hand the client a
// fresh parsed object too). Both libraries see the same answers: they are built by the same function, and
// carry what both accept (`resultType: "complete"` on tasks/get and on the inlined result, which ext-tasks
// requires; `ttlMs` on the CreateTaskResult, which ext-tasks requires).
//
// tools/call arguments pick the task's behaviour:
//   {polls: k}     completes on the k-th tasks/get (k = 0: the CreateTaskResult is already completed)
//   {ms: T}        completes once T ms have passed since creation (clock: `now`)
//   {big: true}    the completed answer inlines `bigResult` (the same object every time: by reference)
// `subscriptions/listen` (for the library that opens it) yields the acknowledgement, then one
// `notifications/tasks` with the terminal status when the task completes (time mode only).

const STAMP = "2026-12-03T00:00:00.000Z";

export function smallResult(id) {
  return { resultType: "complete", content: [{ type: "text", text: `done ${id}` }] };
}

/** A CallToolResult whose JSON is about `bytes` long: one text block plus structured rows. */
export function makeBigResult(bytes = 5 * 1024 * 1024) {
  const rows = [];
  const textBytes = Math.floor(bytes / 5);
  let size = textBytes + 100;
  for (let i = 0; size < bytes; i += 1) {
    const row = { id: i, name: `row-${i}`, value: i * 0.5, tags: ["a", "b"], ok: (i & 1) === 0 };
    rows.push(row);
    size += 72 + String(i).length * 2;
  }
  return {
    resultType: "complete",
    content: [{ type: "text", text: "x".repeat(textBytes) }],
    structuredContent: { rows },
  };
}

/**
 * @param {{pollIntervalMs?: number, ttlMs?: number|null, now?: () => number, bigResult?: object}} [o]
 */
export function createFakeServer({ pollIntervalMs = 0, ttlMs = 300000, now = () => performance.now(), bigResult } = {}) {
  const tasks = new Map();
  const listeners = new Map(); // taskId → [push]
  const counts = { "tools/call": 0, "tasks/get": 0, "subscriptions/listen": 0, other: 0 };
  let next = 0;
  const server = {
    counts,
    tasks,
    bigResult,
    /** Called with (record, answer) when a completed answer is about to be returned. */
    onComplete: null,
    /** Called with every notifications/tasks message (what a host-opened stream would deliver). */
    onNotification: null,
    resetCounts() { for (const k of Object.keys(counts)) counts[k] = 0; },
    handle(method, params) {
      if (method === "tasks/get") {
        counts["tasks/get"] += 1;
        const rec = tasks.get(params.taskId);
        if (rec === undefined) throw { code: -32602, message: "unknown task" };
        rec.gets += 1;
        return answer(rec, false);
      }
      if (method === "tools/call") {
        counts["tools/call"] += 1;
        const args = params.arguments ?? {};
        next += 1;
        const rec = {
          id: `t${next}`, gets: 0,
          mode: args.ms !== undefined ? 1 : 0,
          limit: args.ms !== undefined ? args.ms : (args.polls ?? 1),
          created: now(),
          big: args.big === true,
          done: false,
        };
        tasks.set(rec.id, rec);
        if (rec.mode === 1) setTimeout(() => finish(rec), rec.limit);
        return answer(rec, true);
      }
      if (method === "subscriptions/listen") {
        counts["subscriptions/listen"] += 1;
        return stream(params);
      }
      if (method === "tasks/cancel" || method === "tasks/update") {
        counts.other += 1;
        return { resultType: "complete" };
      }
      counts.other += 1;
      throw { code: -32601, message: `no method ${method}` };
    },
    /** Forget finished tasks (between runs). */
    clear() { tasks.clear(); listeners.clear(); },
  };

  function isDone(rec) {
    if (rec.done) return true;
    if (rec.mode === 0 ? rec.gets >= rec.limit : now() - rec.created >= rec.limit) rec.done = true;
    return rec.done;
  }

  function answer(rec, creating) {
    const done = isDone(rec);
    if (!done) {
      return creating
        ? { resultType: "task", taskId: rec.id, status: "working", createdAt: STAMP, lastUpdatedAt: STAMP, ttlMs, pollIntervalMs }
        : { resultType: "complete", taskId: rec.id, status: "working", createdAt: STAMP, lastUpdatedAt: STAMP, ttlMs, pollIntervalMs };
    }
    const out = {
      resultType: creating ? "task" : "complete", taskId: rec.id, status: "completed",
      createdAt: STAMP, lastUpdatedAt: STAMP, ttlMs, pollIntervalMs,
      result: rec.big ? server.bigResult : smallResult(rec.id),
    };
    if (server.onComplete !== null) server.onComplete(rec, out);
    return out;
  }

  function finish(rec) {
    rec.done = true;
    const subs = listeners.get(rec.id);
    if (subs === undefined && server.onNotification === null) return;
    const msg = {
      jsonrpc: "2.0", method: "notifications/tasks",
      params: { resultType: "complete", taskId: rec.id, status: "completed", createdAt: STAMP, lastUpdatedAt: STAMP, ttlMs, pollIntervalMs, result: smallResult(rec.id) },
    };
    if (server.onNotification !== null) server.onNotification(msg);
    if (subs === undefined) return;
    listeners.delete(rec.id);
    for (const push of subs) push(msg);
  }

  /** An async iterable: the acknowledgement, then the task's terminal notification. */
  function stream(params) {
    const ids = params?.notifications?.taskIds ?? [];
    const queue = [{ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds: ids } } }];
    let wake = null;
    let closed = false;
    const push = (msg) => { queue.push(msg); if (wake) { const w = wake; wake = null; w(); } };
    for (const id of ids) {
      const rec = tasks.get(id);
      if (rec && rec.done) continue;
      const subs = listeners.get(id);
      if (subs) subs.push(push); else listeners.set(id, [push]);
    }
    return {
      [Symbol.asyncIterator]() { return this; },
      async next() {
        while (queue.length === 0 && !closed) await new Promise((r) => { wake = r; });
        if (closed) return { done: true, value: undefined };
        return { done: false, value: queue.shift() };
      },
      async return() { closed = true; if (wake) wake(); return { done: true, value: undefined }; },
    };
  }

  return server;
}
