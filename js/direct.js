// directClient(handler, options?): an in-process client. `request` calls
// `handler(method, params, options)`, sync or async, with the request's own options (`{signal,
// timeoutMs?}`); a thrown (or rejected) `{code, message, data?}` answers with that JSON-RPC error.
// `listen` calls `handler("subscriptions/listen", params, {signal})`, which returns (or resolves to) an
// async iterable of notifications. It has no request timeout of its own. Like any MCP client it adds
// `_meta["io.modelcontextprotocol/protocolVersion"]` when the params lack it. A JS module of its own:
// an app that uses another client does not ship it.
import { entriesOf, isObject, readKey } from "./values.js";

const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

/** A copy of `params` (one level: its readable own fields, as own fields — "__proto__" too) whose
 * `_meta` has the protocol version: the caller's `_meta` as it is when it has one, else merged over
 * `{protocolVersion}`; the caller's objects are never changed. */
function withVersion(params) {
  const m = readKey(params, "_meta");
  const meta = readKey(m, VERSION_KEY) !== undefined || (m !== undefined && !isObject(m))
    ? m
    : Object.fromEntries([[VERSION_KEY, "2026-07-28"], ...entriesOf(m)]);
  return Object.fromEntries([...entriesOf(params).filter(([k]) => k !== "_meta"), ["_meta", meta]]);
}

/**
 * Builds the direct client. `options` may carry `clientCapabilities` and `inputHandlers`, copied onto
 * the client. Throws a `TypeError` when `handler` is not a function.
 */
export function directClient(handler, options) {
  if (typeof handler !== "function") throw new TypeError("directClient: handler must be a function");
  const call = (method, params, opts) => {
    try {
      return Promise.resolve(handler(method, withVersion(params), opts));
    } catch (e) {
      return Promise.reject(e);
    }
  };
  const client = { request: call, listen: (params, opts) => call("subscriptions/listen", params, opts) };
  for (const key of ["clientCapabilities", "inputHandlers"]) {
    const v = readKey(options, key);
    if (v !== undefined) client[key] = v;
  }
  return client;
}
