// The transports' error classes: what a request rejects with when no JSON-RPC answer came. The base,
// McpChannelError, is a failure of the JSON-RPC channel itself — a request timed out or was aborted,
// the channel closed, a message could not be sent — on any transport. Each transport names its own
// failures with a subclass, so `instanceof McpChannelError` catches them all: McpHttpError (an HTTP
// exchange: `status`, `body`, `retryAfterMs`; an HTTP client's channel failures are HTTP ones too),
// McpStdioError (the server's process: `exitCode`, `signal`, `stderr`), McpPortError (a port that
// disconnected), McpProtocolError (a message for a request that breaks JSON-RPC). Only an HTTP one has
// `status` (0: no HTTP answer) and `body`; none has a numeric `code`, so none is ever mistaken for a
// JSON-RPC error; `retryable: false` marks a channel that cannot come back.
// Each `name` is a string of its own (a minifier renames classes).

/** A failure of the JSON-RPC channel (see the module comment); `extra`'s fields are added to it. */
export class McpChannelError extends Error {
  constructor(message, extra) {
    super(message);
    this.name = "McpChannelError";
    Object.assign(this, extra);
  }
}

/** A failure of an HTTP exchange: no answer, an HTTP error status, a body that is not the response. */
export class McpHttpError extends McpChannelError {
  constructor(message, extra) {
    super(message, { status: 0, body: "", ...extra });
    this.name = "McpHttpError";
  }
}

/** A stdio server's failure: it could not start, exited, or closed its end of the pipes. */
export class McpStdioError extends McpChannelError {
  constructor(message, extra) {
    super(message, extra);
    this.name = "McpStdioError";
  }
}

/** A port that disconnected (an extension's `runtime.Port`). */
export class McpPortError extends McpChannelError {
  constructor(message, extra) {
    super(message, extra);
    this.name = "McpPortError";
  }
}

/** A message for a request's id that is neither a response nor a request (a `result` or `error` beside
 * a `method`): the request fails at once; `response` is the message. */
export class McpProtocolError extends McpChannelError {
  constructor(message, extra) {
    super(message, extra);
    this.name = "McpProtocolError";
  }
}

const classes = { McpChannelError, McpHttpError, McpStdioError, McpPortError, McpProtocolError };

/** An error of the class named `name` (McpChannelError for another name, with that name). */
export function transportError(name, message, extra) {
  const Class = classes[name];
  if (Class) return new Class(message, extra);
  const e = new McpChannelError(message, extra);
  e.name = name;
  return e;
}
