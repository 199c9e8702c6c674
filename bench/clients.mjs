// The two libraries wired to the same fake server, without any network. Environment-agnostic.
//
// ours:   mcp-tasks-wasm's `directClient(handler)` → `server.handle(method, params)`.
// theirs: ext-tasks' `withTasks(port)` over a minimal `ConnectedMcpSessionPort` whose `dispatch` calls
//         `server.handle(request.method, request.params)` and wraps the answer as `{kind: "result"}`.
//         This is the lightest path the package offers (what `createTaskSessionFromClient` builds over
//         an SDK `Client` with `rawDispatch`, minus the SDK); `tools` is given so that no `tools/list`
//         goes out.

export function oursClient(lib, server) {
  return lib.directClient((method, params) => server.handle(method, params));
}

export function theirsSession(ext, server) {
  const notificationListeners = new Set();
  const port = {
    endpointId: "bench",
    taskCapabilities: { generation: "v2", capabilities: {} },
    invalidated: false,
    async dispatch(request) {
      try {
        return { kind: "result", result: server.handle(request.method, request.params) };
      } catch (e) {
        if (e !== null && typeof e === "object" && typeof e.code === "number") return { kind: "error", error: e };
        throw e;
      }
    },
    onServerRequest() { return () => {}; },
    onNotification(fn) { notificationListeners.add(fn); return () => notificationListeners.delete(fn); },
    onInvalidated() { return () => {}; },
  };
  const session = ext.withTasks(port, { tools: { currentTool: () => undefined } });
  /** Deliver a notification to the session, as a host that opened the stream itself would. */
  session.__deliver = (msg) => { for (const fn of notificationListeners) fn(msg); };
  return session;
}

/** ours: one tool call awaited to its outcome; resolves with the library's outcome. */
export function oursWait(lib, client, args, awaitOptions) {
  return lib.callAndAwait(client, "work", args, {}, awaitOptions);
}

/** theirs: one tool call settled; resolves with `{outcome}` as `settle()` gives it. */
export async function theirsWait(session, args) {
  const execution = await session.callTool("work", args);
  return execution.settle();
}
