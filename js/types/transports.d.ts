/* ---------------------------------------------------------------------------------------------
 * mcp-tasks-wasm — transport types: the channel client and the transports on it (httpClient over fetch,
 * sdkTransportClient; portClient and stdioClient are declared with their entries).
 * ------------------------------------------------------------------------------------------- */

/** `clientInfo`: the client's self-description sent in `_meta["io.modelcontextprotocol/clientInfo"]`. */
export interface ClientInfo {
  name: string;
  version: string;
  title?: string;
  [key: string]: unknown;
}

/** Extra request headers: a header map, or a function called for every request (e.g. to add a fresh
 * `Authorization` token). They never replace the protocol headers (`Content-Type`, `Accept`,
 * `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`). */
export type HttpHeadersOption =
  | Record<string, string>
  | [string, string][]
  | Headers
  | ((method: string, params: Record<string, unknown>) =>
      Record<string, string> | [string, string][] | Headers | undefined
      | Promise<Record<string, string> | [string, string][] | Headers | undefined>);

/** Options of `httpClient`. */
export interface HttpClientOptions {
  /** Headers added to every POST (static, or computed per request). */
  headers?: HttpHeadersOption | undefined;
  /** A `fetch` to use instead of the global one (called as `fetch(url, init)`, with `redirect:
   * "manual"`: a redirect it returns fails the request, as the global one's does). */
  fetch?: ((url: string, init: RequestInit) => Promise<Response>) | undefined;
  /** The most bytes read for one request's answer — a JSON body, or an event stream up to the
   * response — counted after decompression (default 64 MiB, 67 108 864: a 48 MB answer passes).
   * Past it the request fails with an {@link McpHttpError} naming the limit and the body is
   * cancelled. A listen's stream is not counted (it is read as its notifications are taken, at most
   * 8 MB per event). A positive number (`Infinity`: no limit); anything else is a `TypeError`. */
  maxAnswerBytes?: number | undefined;
  /** Names the server's generation and skips finding it (see docs/generations.md): the first request
   * otherwise sends `server/discover` (a 2026-07-28 server answers it), and on a refusal opens a
   * 2025-11-25 session with `initialize`. */
  generation?: Generation | undefined;
  /** Default per-request timeout in ms (used when a request gives no `timeoutMs`); copied onto the client. */
  requestTimeoutMs?: number | undefined;
  /** Sent as `_meta["io.modelcontextprotocol/clientInfo"]` (default `{name: "mcp-tasks-wasm", version}`). */
  clientInfo?: ClientInfo | undefined;
  /** Sent as `_meta["io.modelcontextprotocol/clientCapabilities"]` when the request carries none
   * (default `{}`); copied onto the client, where the library merges the tasks extension into it. */
  clientCapabilities?: ClientCapabilities | undefined;
  /** Copied onto the client. */
  inputHandlers?: InputHandlers | undefined;
  /** The client's `id` (the server, for the task journal; default: the URL). */
  id?: string | undefined;
}

/** Options of one `request`. */
export interface HttpRequestOptions {
  /** Abort the POST after this many ms (default: the client's `requestTimeoutMs`, else none). */
  timeoutMs?: number | undefined;
  /** Aborting closes the POST (and its response stream). */
  signal?: AbortSignal | undefined;
  /** MCP 2025-11-25: hears the server's requests that belong to this request. */
  onRequest?: ((request: ServerRequest) => void) | undefined;
}

/** A JSON-RPC notification as it arrived on a listen stream. */
export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

/** The `server/discover` result. */
export interface DiscoverResult {
  resultType?: "complete";
  supportedVersions: string[];
  capabilities: { extensions?: Record<string, object>; [key: string]: unknown };
  instructions?: string;
  ttlMs?: number;
  cacheScope?: "public" | "private";
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * The Streamable HTTP client (MCP 2026-07-28). `request` resolves with the JSON-RPC `result`; rejects
 * with the JSON-RPC error object `{code, message, data?}` when the server answered with one (whatever
 * the HTTP status), else with an `McpHttpError` (the package entries export the class).
 */
export interface HttpClient extends TasksClient {
  request(method: string, params?: Record<string, unknown>, options?: HttpRequestOptions): Promise<Record<string, unknown>>;
  /** `subscriptions/listen`: an async iterator of the stream's notifications (the first is
   * `notifications/subscriptions/acknowledged`). It ends when the server sends the listen result or
   * closes the stream, on `return()`, or when `signal` aborts. A JSON-RPC error rejects (the promise,
   * or `next()` when it arrives on the stream). */
  listen(params: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<AsyncIterableIterator<JsonRpcNotification>>;
  /** `server/discover`, sent once per client (a failure is not cached). */
  discover(params?: Record<string, unknown>, options?: HttpRequestOptions): Promise<DiscoverResult>;
  /** The generation found on the first request (undefined until then), or named by `options.generation`. */
  readonly generation: Generation | undefined;
  /** MCP 2025-11-25: the session's `Mcp-Session-Id` (undefined before `initialize`, or without one). */
  readonly sessionId: string | undefined;
  session(options?: { timeoutMs?: number }): Promise<{ generation: Generation; capabilities?: Record<string, unknown> }>;
  respond(id: string | number, result: unknown, error?: { code: number; message: string; data?: unknown }): Promise<void>;
  /** Ends the client: a 2025-11-25 session is ended on the server (HTTP `DELETE`), then every pending
   * and later request fails with "the client closed". */
  close(): Promise<void>;
}

/** The part of an SDK transport (`@modelcontextprotocol/client` `Transport`) the adapter uses. */
export interface SdkTransport {
  start?(): Promise<void>;
  send(message: object, options?: { requestSignal?: AbortSignal; onRequestStreamEnd?: () => void }): Promise<void>;
  onmessage?(message: object, extra?: unknown): void;
  onerror?(error: Error): void;
  onclose?(): void;
}

/** Options of `sdkTransportClient`. */
export interface SdkTransportClientOptions {
  clientInfo?: ClientInfo | undefined;
  clientCapabilities?: ClientCapabilities | undefined;
  inputHandlers?: InputHandlers | undefined;
  requestTimeoutMs?: number | undefined;
}

/** Options of `channelClient`. */
export interface ChannelClientOptions {
  clientInfo?: ClientInfo | undefined;
  clientCapabilities?: ClientCapabilities | undefined;
  inputHandlers?: InputHandlers | undefined;
  requestTimeoutMs?: number | undefined;
  /** Ids go out as strings `"<idPrefix><n>"` (default: numbers 1, 2, …), e.g. to share a transport. */
  idPrefix?: string | undefined;
  /** The generation the channel speaks (default "2026-07-28"); "2025-11-25" when the application's own
   * connection already opened such a session: no `_meta` envelope, and each tool's `taskSupport` decides
   * whether it is called as a task. */
  generation?: Generation | undefined;
}

/**
 * A client over a message pair (`channelClient(send, options?)`): `send(message)` carries one JSON-RPC
 * message to the server; hand every message that arrives to `receive`, and call `close` when the
 * channel closes. Requests carry the 2026-07-28 `_meta`; abort or timeout sends `notifications/cancelled`.
 */
export interface ChannelClient extends TasksClient {
  request(method: string, params?: Record<string, unknown>, options?: HttpRequestOptions): Promise<Record<string, unknown>>;
  /** `subscriptions/listen`: the notifications routed to it (by `_meta.subscriptionId`, else `taskId`). */
  listen(params: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<AsyncIterableIterator<JsonRpcNotification>>;
  /** A message arrived from the server; `true` when something of this client waited for it. */
  receive(message: object): boolean;
  /** Fails the request with message id `id` (or every pending request when `id` is undefined) with
   * `error`, e.g. a failure the transport reported for it; the channel stays open. */
  fail(id: string | number | undefined, error: unknown): void;
  /** The channel closed: pending requests and streams fail with `error` (default: "the channel closed"). */
  close(error?: unknown): void;
}
