// The test server over any message pair (stdio, a MessagePort, a Worker, a window, an extension port):
// `serveMessages(core, send, log?)` returns `receive(message)`. Requests go to `core.handle`; each
// response is `send`-ed; a `subscriptions/listen` sends its notifications (tagged with its
// subscriptionId by the core) and, on a graceful end, its result; `notifications/cancelled` aborts the
// named in-flight request. Platform-neutral (Node and browsers).

/** @returns {(message: any) => void} */
export function serveMessages(core, send, log = () => {}) {
  const inFlight = new Map();
  async function serve(msg) {
    log(`got ${msg.method} ${msg.id ?? ""}`);
    if (msg.method === "notifications/cancelled") {
      inFlight.get(msg.params?.requestId)?.abort();
      return;
    }
    if (msg.id === undefined || typeof msg.method !== "string") return;
    const c = new AbortController();
    inFlight.set(msg.id, c);
    try {
      const result = await core.handle(msg.method, msg.params ?? {}, { signal: c.signal, id: msg.id });
      if (msg.method === "subscriptions/listen") {
        const it = result[Symbol.asyncIterator]();
        for (;;) {
          const step = await it.next();
          if (step.done) {
            if (!c.signal.aborted) send({ jsonrpc: "2.0", id: msg.id, result: step.value ?? { resultType: "complete" } });
            break;
          }
          send(step.value);
        }
      } else if (!c.signal.aborted) {
        send({ jsonrpc: "2.0", id: msg.id, result });
      }
    } catch (e) {
      if (!c.signal.aborted) send({ jsonrpc: "2.0", id: msg.id, error: { code: e?.code ?? -32603, message: e?.message ?? String(e), data: e?.data } });
    } finally {
      inFlight.delete(msg.id);
    }
  }
  return (msg) => {
    if (msg && typeof msg === "object") serve(msg);
  };
}
