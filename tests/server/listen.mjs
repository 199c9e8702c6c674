// subscriptions/listen: subscriptions as async iterables of JSON-RPC notifications, with the
// listen modes that let tests exercise a client's push handling (see README.md).
import { META_SUB, TERMINAL, randomHex, rpcError } from "./util.mjs";

/** A one-consumer async queue. end(value) is graceful (queued items still drain, done.value =
 * value); abort() drops queued items and ends with done.value undefined. */
function channel(onEnd) {
  const items = [];
  const waiters = [];
  let done = false;
  let final;
  const finish = (value, drop) => {
    if (drop) items.length = 0;
    if (done) return;
    done = true;
    final = value;
    onEnd();
    while (waiters.length) waiters.shift()({ done: true, value: final });
  };
  const iterator = {
    next: () => {
      if (items.length) return Promise.resolve({ done: false, value: items.shift() });
      if (done) return Promise.resolve({ done: true, value: final });
      return new Promise((r) => waiters.push(r));
    },
    return: (value) => {
      finish(undefined, true);
      return Promise.resolve({ done: true, value });
    },
    [Symbol.asyncIterator]() { return this; },
  };
  return {
    push(item) {
      if (done) return;
      const w = waiters.shift();
      if (w) w({ done: false, value: item });
      else items.push(item);
    },
    end: (value) => finish(value, false),
    abort: () => finish(undefined, true),
    iterable: { [Symbol.asyncIterator]: () => iterator },
  };
}

/**
 * @param store the task store (get, view)
 */
export function createListenHub(store) {
  const subs = new Set();
  let counter = 0;

  /**
   * @param {{taskIds?: string[], subscriptionId?: string|number, signal?: AbortSignal}} req
   * @returns AsyncIterable of notifications; done.value is the listen result on a graceful end.
   */
  function open({ taskIds, subscriptionId = `sub-${++counter}`, signal }) {
    const known = (taskIds ?? []).filter((id, i, all) => store.get(id) && all.indexOf(id) === i);
    const mode = known.length ? store.get(known[0]).listenMode : "normal";
    if (mode === "refuse") throw rpcError(-32601, "subscriptions/listen refused (listen mode 'refuse')");

    const meta = { [META_SUB]: subscriptionId };
    const notify = (method, params) => ({ jsonrpc: "2.0", method, params: { _meta: meta, ...params } });
    const event = (view) => notify("notifications/tasks", view);
    const sub = { ids: new Set(), onChange: () => {} };
    const ch = channel(() => subs.delete(sub));
    sub.ch = ch;
    subs.add(sub);
    const end = () => ch.end({ resultType: "complete", _meta: meta });
    if (signal?.aborted) ch.abort();
    signal?.addEventListener("abort", () => ch.abort(), { once: true });

    const acked = mode === "no_ack" ? [] : known;
    if (mode === "before_ack" && known.length) ch.push(event(store.view(store.get(known[0]))));
    ch.push(notify("notifications/subscriptions/acknowledged", { notifications: taskIds ? { taskIds: acked } : {} }));

    if (mode === "end_early") end();
    else if (mode === "current_only") {
      for (const id of acked) ch.push(event(store.view(store.get(id))));
      end();
    } else if (mode === "normal" || mode === "before_ack" || mode === "noisy") {
      const pending = new Set(acked.filter((id) => !TERMINAL.has(store.get(id).status)));
      const foreign = () => {
        const now = new Date().toISOString();
        return event({ taskId: `tsk_foreign_${randomHex(8)}`, status: "working", createdAt: now, lastUpdatedAt: now, ttlMs: 60000, pollIntervalMs: 100 });
      };
      sub.ids = pending;
      sub.onChange = (task, prev) => {
        const now = event(store.view(task));
        ch.push(now);
        if (mode === "noisy") [foreign(), event(store.view(task)), event(prev)].forEach(ch.push);
        if (TERMINAL.has(task.status)) {
          pending.delete(task.taskId);
          if (!pending.size) end();
        }
      };
      if (mode === "noisy") ch.push(foreign());
      if (!pending.size) end();
    }
    // no_ack and silent: nothing more; the stream stays open until the client aborts.
    return ch.iterable;
  }

  /** Called by the store on every task change. */
  function onChange(task, prev) {
    for (const sub of [...subs]) if (sub.ids.has(task.taskId)) sub.onChange(task, prev);
  }

  function closeAll() {
    for (const sub of [...subs]) sub.ch.abort();
  }

  return { open, onChange, closeAll, count: () => subs.size };
}
