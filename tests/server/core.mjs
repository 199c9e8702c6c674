// Transport-free core of the Tasks test server: `core.handle(method, params, {signal, id})`.
// The same function serves HTTP (http.mjs) and in-process clients (the library's directClient).
import { createListenHub } from "./listen.mjs";
import { createRunner } from "./runner.mjs";
import { createTaskStore } from "./tasks.mjs";
import { toolList } from "./tools.mjs";
import {
  META_SERVER_INFO, PROTOCOL_VERSION, TASKS_EXT, checkMeta, hasTasksExt, isObject, isRpcError,
  needTasksExt, rpcError,
} from "./util.mjs";

export const SERVER_INFO = { name: "mcp-tasks-wasm-test-server", version: "0.1.0" };

/**
 * @param {{pollIntervalMs?: number, ttlMs?: number, listen?: boolean}} [options]
 */
export function createTasksCore({ pollIntervalMs = 100, ttlMs = 60000, listen = true } = {}) {
  const closed = new AbortController();
  let hub;
  const store = createTaskStore({ pollIntervalMs, ttlMs, onChange: (t, prev) => hub.onChange(t, prev) });
  hub = createListenHub(store);
  const callTool = createRunner(store, closed.signal);
  const log = [];

  function taskOf(method, params) {
    if (!hasTasksExt(params)) throw needTasksExt(`${method} requires the ${TASKS_EXT} extension in clientCapabilities`);
    if (typeof params.taskId !== "string") throw rpcError(-32602, `${method}: params.taskId must be a string`);
    const task = store.get(params.taskId);
    if (!task) throw rpcError(-32602, `${method}: unknown or expired task '${params.taskId}'`);
    return task;
  }

  const methods = {
    "server/discover": () => ({
      resultType: "complete",
      supportedVersions: [PROTOCOL_VERSION],
      capabilities: { tools: {}, extensions: { [TASKS_EXT]: {} } },
      ttlMs: 60000,
      cacheScope: "public",
      _meta: { [META_SERVER_INFO]: SERVER_INFO },
    }),
    "ping": () => ({ resultType: "complete" }),
    "tools/list": () => ({ resultType: "complete", tools: structuredClone(toolList) }),
    "tools/call": (params, opts) => callTool(params, opts.signal),
    "tasks/get": (params) => ({ resultType: "complete", ...store.read(taskOf("tasks/get", params)) }),
    "tasks/update": (params) => {
      const task = taskOf("tasks/update", params);
      if (!isObject(params.inputResponses)) throw rpcError(-32602, "tasks/update: params.inputResponses must be an object");
      store.update(task, params.inputResponses);
      return { resultType: "complete" };
    },
    "tasks/cancel": (params) => {
      store.cancel(taskOf("tasks/cancel", params));
      return { resultType: "complete" };
    },
    "subscriptions/listen": (params, opts) => {
      if (!listen) throw rpcError(-32601, "method not found: subscriptions/listen");
      const filter = params.notifications;
      if (!isObject(filter)) throw rpcError(-32602, "subscriptions/listen: params.notifications is required");
      const { taskIds } = filter;
      if (taskIds !== undefined) {
        if (!Array.isArray(taskIds) || !taskIds.every((id) => typeof id === "string")) {
          throw rpcError(-32602, "subscriptions/listen: notifications.taskIds must be a list of strings");
        }
        if (!hasTasksExt(params)) throw needTasksExt(`subscriptions/listen with taskIds requires the ${TASKS_EXT} extension`);
      }
      return hub.open({ taskIds, subscriptionId: opts.id, signal: opts.signal });
    },
  };

  /** Appends a log entry: {method, id?, name?, taskId?, taskIds?, at, error?}. */
  function record(method, params, id, error) {
    const entry = { method };
    if (id !== undefined) entry.id = id;
    if (method === "tools/call" && typeof params?.name === "string") entry.name = params.name;
    if (typeof params?.taskId === "string") entry.taskId = params.taskId;
    if (Array.isArray(params?.notifications?.taskIds)) entry.taskIds = [...params.notifications.taskIds];
    entry.at = Date.now();
    if (error !== undefined) entry.error = error;
    log.push(entry);
    return entry;
  }

  /**
   * Resolves to the JSON-RPC result (for subscriptions/listen: an AsyncIterable of notifications),
   * or rejects with a plain JSON-RPC error object {code, message, data?}.
   * `opts.id` is the JSON-RPC id (the subscriptionId of a listen); `opts.signal` aborts the request.
   */
  async function handle(method, params, opts = {}) {
    const entry = record(method, params, opts.id);
    try {
      if (closed.signal.aborted) throw rpcError(-32603, "server closed");
      if (typeof method !== "string" || !Object.hasOwn(methods, method)) {
        throw rpcError(-32601, `method not found: ${method}`);
      }
      checkMeta(params);
      return await methods[method](params, opts);
    } catch (err) {
      const e = isRpcError(err) ? err : rpcError(-32603, String(err?.message ?? err));
      entry.error = e.code;
      throw e;
    }
  }

  return {
    handle,
    log,
    record,
    resetLog: () => { log.length = 0; },
    close: () => {
      closed.abort();
      store.closeAll();
      hub.closeAll();
    },
    options: { pollIntervalMs, ttlMs, listen },
    /** Number of open subscriptions/listen streams (tests check clean-up with it). */
    get subscriptions() { return hub.count(); },
  };
}
