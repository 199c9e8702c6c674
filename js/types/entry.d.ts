// mcp-tasks-wasm — the entries' declarations (pkg/index.d.ts and pkg/node.d.ts are copies of this file;
// the journal entry's, js/types/journal-entry.d.ts, adds the journal to these):
// the module's exports and types (declared in js/types/api.d.ts and js/types/transports.d.ts, emitted
// into the generated mcp_tasks_wasm.d.ts), re-exported by name so wasm-bindgen's own internals
// (InitOutput and its `any`s) stay out of the public API; then the JS adapters' functions, init and
// initSync. tests/node/api.test.mjs checks that these names are exactly the runtime exports.
import type { CallToolResult, ChannelClient, ChannelClientOptions, DirectClientOptions, DirectHandler, HttpClient, HttpClientOptions, HttpRequestOptions, JsonRpcNotification, SdkTransport, SdkTransportClientOptions, TasksClient } from "./mcp_tasks_wasm.js";
export {
  callTool,
  awaitTask,
  callAndAwait,
  getTask,
  updateTask,
  cancelTask,
  listTasks,
  capabilities,
  serverSupports,
  validateElicitResult,
  validateCreateMessageResult,
  validateListRootsResult,
  liveCounts,
} from "./mcp_tasks_wasm.js";
export type {
  Json,
  ClientCapabilities,
  TaskState,
  InputRequest,
  InputRequests,
  InputResponses,
  TaskStatus,
  TaskRef,
  Generation,
  ServerRequest,
  ListTasksOutcome,
  MrtrStatus,
  Annotations,
  TextContent,
  ImageContent,
  AudioContent,
  ResourceLink,
  EmbeddedResource,
  ContentBlock,
  UnknownContentBlock,
  CallToolResult,
  JsonRpcError,
  ErrorKind,
  InputFailureReason,
  ErrorCause,
  TaskError,
  OkResult,
  TaskCreated,
  Failed,
  Cancelled,
  TaskInputRequired,
  CallInputRequired,
  InputRequired,
  CallToolOutcome,
  AwaitTaskOutcome,
  CallAndAwaitOutcome,
  GetTaskOutcome,
  AckOutcome,
  InputContext,
  HandlerOutcome,
  StringSchema,
  NumberSchema,
  BooleanSchema,
  SingleSelectSchema,
  MultiSelectSchema,
  PrimitiveSchema,
  ElicitFormParams,
  ElicitUrlParams,
  CreateMessageParams,
  ElicitResult,
  CreateMessageResult,
  ListRootsResult,
  InputHandlers,
  InputFunction,
  InputFunctionOutcome,
  TasksClient,
  StepOptions,
  InputOption,
  CallToolOptions,
  AwaitTaskOptions,
  DirectHandler,
  DirectClientOptions,
  ValidationResult,
  LiveCounts,
  ClientInfo,
  HttpHeadersOption,
  HttpClientOptions,
  HttpRequestOptions,
  JsonRpcNotification,
  DiscoverResult,
  HttpClient,
  SdkTransport,
  SdkTransportClientOptions,
  ChannelClientOptions,
  ChannelClient,
} from "./mcp_tasks_wasm.js";

/** What `init` accepts: where to load the .wasm from (default: next to this file), or its bytes. */
export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

/**
 * Loads and instantiates the wasm module. Browsers: call it once before anything else (it fetches
 * mcp_tasks_wasm_bg.wasm next to this file); calling it again is a no-op. Node: already done on import.
 */
declare function init(moduleOrPath?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<void>;
export default init;
export { init };

/** Instantiates the module synchronously from its bytes (e.g. in an extension service worker). */
export declare function initSync(module: { module: BufferSource | WebAssembly.Module } | BufferSource | WebAssembly.Module): void;

/** The tasks extension identifier. */
export declare const TASKS_EXTENSION: "io.modelcontextprotocol/tasks";

/**
 * How a transport's request (or listen) rejects when no JSON-RPC answer came: a failure of the
 * JSON-RPC channel itself — the request timed out or was aborted, the channel closed, a message could
 * not be sent — on any transport. Each transport's own failures are a subclass (`McpHttpError`,
 * `McpStdioError`, `McpPortError`), so `instanceof McpChannelError` catches them all. It has no `code`,
 * so it is never mistaken for a JSON-RPC error; only an `McpHttpError` has HTTP fields.
 */
export declare class McpChannelError extends Error {
  constructor(message: string, extra?: Record<string, unknown>);
  name: "McpChannelError" | "McpHttpError" | "McpStdioError" | "McpPortError" | "McpProtocolError";
  /** The underlying failure, when there was one. */
  cause?: unknown;
  /** `false` for a channel that cannot come back (closed, a process that exited): the library does not
   * re-issue reads over it. */
  retryable?: boolean;
}
/** A failure of an HTTP exchange: a network error, an HTTP status without a JSON-RPC answer, a body that
 * is not JSON or not a response to the request, an event stream that ended without it; and an HTTP
 * client's timeouts and aborts. */
export declare class McpHttpError extends McpChannelError {
  name: "McpHttpError";
  /** The HTTP status; 0 without a response. */
  status: number;
  /** Up to 200 characters of the body that came back ("" without one). */
  body: string;
  /** The response's `Retry-After` in ms (seconds or an HTTP date), when it sent one: the library waits at
   * least this long before re-issuing a read. */
  retryAfterMs?: number;
  /** A refused redirect (redirects are never followed): where it pointed, as its `Location` said; ""
   * in a browser, which does not show it (`status` is 0 there). */
  location?: string;
  /** An answer over the limit: the client's `maxAnswerBytes`. */
  maxAnswerBytes?: number;
}
/** A stdio server's failure (`mcp-tasks-wasm/stdio`): it could not start, or it exited. */
export declare class McpStdioError extends McpChannelError {
  name: "McpStdioError";
  /** The exit code, when it exited with one. */
  exitCode?: number | null;
  /** The signal that ended it, when one did. */
  signal?: string;
  /** Its last stderr lines. */
  stderr?: string;
}
/** How a request (or a listen) rejects, on every transport, when a message with its id is neither a
 * response nor a request: a `result` or `error` beside a `method` (it is not taken as the response, nor
 * as a server→client request). It rejects at once, with `retryable: false`; the outcome is a
 * `protocol` error whose cause names the message. */
export declare class McpProtocolError extends McpChannelError {
  name: "McpProtocolError";
  /** The message that came. */
  response: object;
}
/** An extension port that disconnected. */
export declare class McpPortError extends McpChannelError {
  name: "McpPortError";
}

/** The text of a tool result: its `content` blocks of type `"text"`, their `text` joined with "\n"
 * (`""` when it has none). Never throws. A JS module of its own (`result.js`). */
export declare function resultText(result: CallToolResult | undefined): string;

/** Builds a Streamable HTTP client (MCP 2026-07-28) for the endpoint `url` over `fetch` (the global
 * one, or `options.fetch`), on the same message channel as the other transports: every request a POST
 * with the protocol headers (`Mcp-Name` base64-sentinel encoded when not plain ASCII) and the 2026-07-28
 * `_meta`; JSON or event-stream answers; an {@link McpHttpError} when no JSON-RPC answer came. A JS
 * module of its own: an app that does not import it does not ship it. Throws a `TypeError` for bad
 * arguments. */
export declare function httpClient(url: string | URL, options?: HttpClientOptions): HttpClient;
/** Builds a client over a message pair: `send(message)` carries one JSON-RPC message to the server; the
 * client's `receive(message)` takes each one that arrives and `close(error?)` ends the channel. Options:
 * `clientInfo`, `clientCapabilities`, `inputHandlers`, `requestTimeoutMs`, `idPrefix` (ids go out as
 * strings `"<idPrefix><n>"`). A JS module of its own (`channel.js`), under every message transport.
 * Throws a `TypeError` for bad arguments, prefixed with `name` (default "channelClient"). */
export declare function channelClient(send: (message: object) => void, options?: ChannelClientOptions, name?: string): ChannelClient;
/** An in-process client: `request` calls `handler(method, params, {signal, timeoutMs?})` (sync or async; a
 * thrown `{code, message, data?}` is that JSON-RPC error), `listen` calls
 * `handler("subscriptions/listen", params, {signal})` for an async iterable; params get the protocol
 * version in `_meta` when they lack it. `clientCapabilities` and `inputHandlers` are copied onto the
 * client. A JS module of its own (`direct.js`). Throws a `TypeError` when `handler` is not a function. */
export declare function directClient(handler: DirectHandler, options?: DirectClientOptions): TasksClient;
/** Options of `portClient`. */
export interface PortClientOptions extends ChannelClientOptions {
  /** The origin messages must come from (required for a window; then also the `targetOrigin`). */
  origin?: string | undefined;
  /** Set as the client's `id` (the server, for the task journal). */
  id?: string | undefined;
}
/** The parts of a port the client uses (a MessagePort, a Worker, a window, a WebExtension runtime.Port). */
export type MessagePortLike =
  | { postMessage(message: unknown): void; addEventListener(type: "message", listener: (e: MessageEvent) => void): void; removeEventListener(type: "message", listener: (e: MessageEvent) => void): void; start?(): void }
  | { postMessage(message: unknown, targetOrigin: string): void; window: unknown }
  | { postMessage(message: unknown): void; onMessage: { addListener(f: (m: unknown) => void): void; removeListener?(f: (m: unknown) => void): void }; onDisconnect?: { addListener(f: () => void): void; removeListener?(f: () => void): void } };
/** A client over a transport of the official TypeScript SDK (`send`, optional `start`, `onmessage`,
 * `onerror`, `onclose`), on the message channel: raw JSON-RPC through `transport.send(message,
 * {requestSignal, onRequestStreamEnd})`, responses matched by (string) id, listen supported, existing
 * handlers chained. Throws a `TypeError` for bad arguments. */
export declare function sdkTransportClient(transport: SdkTransport, options?: SdkTransportClientOptions): TasksClient & {
  request(method: string, params?: Record<string, unknown>, options?: HttpRequestOptions): Promise<Record<string, unknown>>;
  listen(params: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<AsyncIterableIterator<JsonRpcNotification>>;
};
/** A client over a port: JSON-RPC objects posted as they are (structured clone). A WebExtension
 * port's disconnect closes the channel (pending requests fail as a transport error). Throws a
 * `TypeError` for bad arguments. */
export declare function portClient(port: MessagePortLike, options?: PortClientOptions): ChannelClient & { close(): void };
