// The task store: records, their wire views, state changes, input answers and cancellation.
import { CANCELLED, TERMINAL, randomHex } from "./util.mjs";

const iso = (ms) => new Date(ms).toISOString();
const pick = (obj, keys) => Object.fromEntries([...keys].filter((k) => Object.hasOwn(obj, k)).map((k) => [k, obj[k]]));

/**
 * @param {{pollIntervalMs: number, ttlMs: number, onChange: (task, previousView) => void}} options
 */
export function createTaskStore({ pollIntervalMs, ttlMs, onChange }) {
  const tasks = new Map();

  function create({ pollIntervalMs: poll, listen, staleReads, ttlMs: ttl, statusMessage }) {
    const now = Date.now();
    const task = {
      taskId: `tsk_${randomHex(16)}`, status: "working", statusMessage,
      createdMs: now, updatedMs: now, ttlMs: ttl === undefined ? ttlMs : ttl,
      polls: [poll === undefined ? pollIntervalMs : poll].flat(), pollIdx: 0, reads: 0,
      listenMode: listen ?? "normal", staleReads: staleReads ?? 0,
      inputRequests: undefined, waiter: undefined, held: [], result: undefined, error: undefined,
      abort: new AbortController(),
    };
    tasks.set(task.taskId, task);
    return task;
  }

  /** Drops tasks whose createdAt + ttlMs has passed (they then read as unknown: -32602). */
  function purge() {
    const now = Date.now();
    for (const t of tasks.values()) {
      if (t.ttlMs !== null && now >= t.createdMs + t.ttlMs) {
        tasks.delete(t.taskId);
        t.abort.abort();
      }
    }
  }

  function get(taskId) {
    purge();
    return tasks.get(taskId);
  }

  /** The DetailedTask as tasks/get returns it (without resultType). */
  function view(t) {
    const v = { taskId: t.taskId, status: t.status };
    if (t.statusMessage !== undefined) v.statusMessage = t.statusMessage;
    Object.assign(v, { createdAt: iso(t.createdMs), lastUpdatedAt: iso(t.updatedMs), ttlMs: t.ttlMs });
    const poll = t.polls[t.pollIdx];
    if (poll !== null && poll !== undefined) v.pollIntervalMs = poll;
    if (t.status === "input_required") v.inputRequests = structuredClone(t.inputRequests);
    if (t.status === "completed") v.result = structuredClone(t.result);
    if (t.status === "failed") v.error = structuredClone(t.error);
    return v;
  }

  /** Applies `mutate` to a non-terminal task, bumps lastUpdatedAt (strictly increasing), notifies. */
  function change(t, mutate) {
    if (TERMINAL.has(t.status) || !tasks.has(t.taskId)) return;
    const prev = view(t);
    mutate(t);
    t.updatedMs = Math.max(Date.now(), t.updatedMs + 1);
    onChange(t, prev);
  }

  const finish = (t, fields) =>
    change(t, (x) => Object.assign(x, { inputRequests: undefined, waiter: undefined, held: [] }, fields));

  /** tasks/get: picks this read's pollIntervalMs, builds the view, then lets held answers age. */
  function read(t) {
    t.pollIdx = Math.min(t.reads, t.polls.length - 1);
    t.reads += 1;
    const v = view(t);
    const due = t.held.filter((h) => --h.left <= 0);
    if (due.length) {
      t.held = t.held.filter((h) => h.left > 0);
      apply(t, due.map((h) => [h.key, h.value]));
    }
    return v;
  }

  /** Puts the task in input_required; resolves with {key: response} once every key is answered. */
  function awaitInput(t, requests, message) {
    return new Promise((resolve, reject) => {
      if (t.abort.signal.aborted) return reject(CANCELLED);
      t.abort.signal.addEventListener("abort", () => reject(CANCELLED), { once: true });
      change(t, (x) => {
        x.status = "input_required";
        x.statusMessage = message;
        x.inputRequests = structuredClone(requests);
        x.waiter = { pending: new Set(Object.keys(requests)), answers: {}, resolve };
      });
    });
  }

  function apply(t, entries) {
    const w = t.waiter;
    if (!w) return;
    for (const [key, value] of entries) {
      w.pending.delete(key);
      w.answers[key] = value;
    }
    const done = w.pending.size === 0;
    change(t, (x) => {
      if (done) Object.assign(x, { status: "working", statusMessage: undefined, inputRequests: undefined, waiter: undefined });
      else x.inputRequests = pick(x.inputRequests, w.pending);
    });
    if (done) w.resolve(w.answers);
  }

  /** tasks/update: only outstanding keys count; with staleReads the answer lands after that many reads. */
  function update(t, responses) {
    const w = t.waiter;
    if (!w || TERMINAL.has(t.status)) return;
    const fresh = Object.entries(responses)
      .filter(([key]) => w.pending.has(key) && !t.held.some((h) => h.key === key));
    if (!fresh.length) return;
    if (t.staleReads > 0) t.held.push(...fresh.map(([key, value]) => ({ key, value, left: t.staleReads })));
    else apply(t, fresh);
  }

  function cancel(t) {
    if (TERMINAL.has(t.status)) return;
    finish(t, { status: "cancelled", statusMessage: "cancelled by client" });
    t.abort.abort();
  }

  const complete = (t, result) =>
    finish(t, { status: "completed", statusMessage: undefined, result: { resultType: "complete", ...result } });
  const fail = (t, error) => finish(t, { status: "failed", statusMessage: error.message, error });

  /** The flat CreateTaskResult. */
  function createResult(t) {
    const { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttlMs: ttl, pollIntervalMs: poll } = view(t);
    const r = { resultType: "task", taskId, status };
    if (statusMessage !== undefined) r.statusMessage = statusMessage;
    Object.assign(r, { createdAt, lastUpdatedAt, ttlMs: ttl });
    if (poll !== undefined) r.pollIntervalMs = poll;
    return r;
  }

  function closeAll() {
    for (const t of tasks.values()) t.abort.abort();
  }

  return { create, get, view, read, change, awaitInput, update, cancel, complete, fail, createResult, closeAll };
}
