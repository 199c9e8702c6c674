// The one helper the JS transports share: how a failure without a JSON-RPC answer looks. Like the
// HTTP client's McpHttpError it is an Error with `status` (0: no HTTP) and `body`, never a numeric
// `code` (so it is never mistaken for a JSON-RPC error); `extra` adds fields (`exitCode`, `stderr`,
// `retryable: false` for a channel that cannot come back, `cause`).

/** An `Error` named `name` with `status: 0`, `body: ""` and `extra`'s fields. */
export function transportError(name, message, extra) {
  const e = new Error(message);
  e.name = name;
  return Object.assign(e, { status: 0, body: "" }, extra);
}
