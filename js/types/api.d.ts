/* ---------------------------------------------------------------------------------------------
 * mcp-tasks-wasm — public types (written by hand; emitted into the generated declarations).
 * Every async function resolves with a tagged outcome: switch on `tag`.
 * ------------------------------------------------------------------------------------------- */

/** A JSON value as it travels on the wire. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** MCP client capabilities (`_meta["io.modelcontextprotocol/clientCapabilities"]`). */
export interface ClientCapabilities {
  elicitation?: { form?: object; url?: object };
  sampling?: { context?: object; tools?: object };
  roots?: object;
  experimental?: Record<string, object>;
  extensions?: Record<string, object>;
  [key: string]: unknown;
}

/** The wire status of a task. */
export type TaskState = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** One input request (`inputRequests` entry): a request object without `jsonrpc`/`id`. */
export type InputRequest =
  | { method: "elicitation/create"; params: ElicitFormParams | ElicitUrlParams }
  | { method: "sampling/createMessage"; params: CreateMessageParams }
  | { method: "roots/list"; params?: { _meta?: Record<string, unknown> } }
  | { method: string; params?: Record<string, unknown> };

/** Outstanding input requests, keyed by the key their answer goes under. */
export type InputRequests = Record<string, InputRequest>;

/** Answers, keyed like the requests they answer. */
export type InputResponses = Record<string, ElicitResult | CreateMessageResult | ListRootsResult | Record<string, unknown>>;

/**
 * A task status: the wire Task's fields as the server sent them (`resultType` and `_meta` of the
 * envelope left out). `inputRequests`, `result` and `error` appear when the server sent them.
 */
export interface TaskStatus {
  taskId: string;
  status: TaskState;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  ttlMs?: number | null;
  pollIntervalMs?: number;
  inputRequests?: InputRequests;
  result?: CallToolResult;
  error?: JsonRpcError;
}

/** What `awaitTask` waits for — a task reference: a task id, or a status (`callTool`'s, or one read
 * before; a status lets the first read wait for its interval). */
export type TaskRef = string | TaskStatus;

/** The status `callTool` returns when a `tools/call` needs input before any task exists (MRTR). */
export interface MrtrStatus {
  inputRequests?: InputRequests;
  /** Opaque; echo it with `callTool(..., {inputResponses, requestState})` to answer by hand. */
  requestState?: string;
}

/** Optional annotations of a content block. */
export interface Annotations {
  audience?: Array<"user" | "assistant">;
  priority?: number;
  lastModified?: string;
}
/** A text block. */
export interface TextContent { type: "text"; text: string; annotations?: Annotations; _meta?: Record<string, unknown> }
/** An image block (`data`: base64). */
export interface ImageContent { type: "image"; data: string; mimeType: string; annotations?: Annotations; _meta?: Record<string, unknown> }
/** An audio block (`data`: base64). */
export interface AudioContent { type: "audio"; data: string; mimeType: string; annotations?: Annotations; _meta?: Record<string, unknown> }
/** A link to a resource the client may read. */
export interface ResourceLink {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}
/** A resource's contents, embedded: text or a base64 `blob`. */
export interface EmbeddedResource {
  type: "resource";
  resource: { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> } | { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> };
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}
/**
 * A content block of a tool result, narrowed on `type`. The server's blocks are passed through as sent:
 * a block of a type a later spec adds arrives in the `default` branch of a `switch (block.type)` —
 * read it as an {@link UnknownContentBlock} (the open fallback; not part of this union, so that
 * `block.type === "text"` narrows to {@link TextContent}).
 */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;
/** A content block of a type this version does not know, as the server sent it. */
export interface UnknownContentBlock { type: string; [key: string]: unknown }

/** A tool result, passed through exactly as the server sent it. `resultText(result)` joins its texts. */
export interface CallToolResult {
  content?: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A JSON-RPC error object. */
export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** Who is to blame: the server (JSON-RPC error, failed task), the transport (failure, timeout),
 * the protocol (an answer that breaks it), or an input handler (execution). */
export type ErrorKind = "server" | "transport" | "protocol" | "execution" | "journal";

/**
 * Why an input handler (or the input function) failed: the `reason` it returned with
 * `{tag: "error", reason}`, or `{type: "invalid_response", response}` (an answer that failed its check),
 * or `{type: "invalid_outcome", outcome}` (something other than `{tag: "ok", ...}` / `{tag: "error", ...}`).
 */
export type InputFailureReason = unknown;

/** `error.cause`: what exactly happened. */
export type ErrorCause =
  /** The call's `timeoutMs` ran out; `status` is the last status read (the task keeps running). */
  | { type: "timeout"; status: TaskStatus | null }
  /** One request outlived `requestTimeoutMs`. */
  | { type: "request_timeout"; method: string; status: TaskStatus | null }
  /** The task ended `failed`; the error's code/message/data are the task's. */
  | { type: "task_failed"; status: TaskStatus }
  /** The server answered `method` with this JSON-RPC error. */
  | { type: "rpc_error"; method: string }
  /** `request` rejected with `error` (not a JSON-RPC error). */
  | { type: "request_failed"; method: string; error: unknown }
  /** The server's answer to `method` broke the protocol; `response` is what it sent. */
  | { type: "protocol_violation"; method: string; response: unknown }
  /** An input handler (`key`) or the input function (`key: null`) failed. */
  | { type: "input_handler"; key: string | null; reason: InputFailureReason; status: TaskStatus | MrtrStatus }
  /** `listen: true` with a client that has no `listen` function. */
  | { type: "listen_unsupported" }
  /** Past the task's `createdAt + ttlMs` the last `tasks/get` got `-32602`: the server no longer has
   * the task. The error's code/message/data are the server's; `status` is the last status read. */
  | { type: "expired"; status: TaskStatus | null }
  /** The journal's store failed (`operation` "put"); `status` is the task's last status seen, so the
   * task is never lost (kind "journal", code -32603, `data: {taskId, operation}`). */
  | { type: "journal_failed"; operation: string; error: unknown; status: Omit<TaskStatus, "result" | "error"> | TaskStatus | null };

/**
 * An error outcome's `error`. Codes: the server's own for kind `"server"`; -32001 for timeouts;
 * -32000 for other transport failures; -32603 for protocol violations, input-handler failures and a
 * failing journal store.
 */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
  kind: ErrorKind;
  cause?: ErrorCause;
}

/** `{tag: "ok", result}`: a tool result (immediate, or a completed task's). */
export interface OkResult { tag: "ok"; result: CallToolResult }
/** `{tag: "task", status}`: `tools/call` created a task. */
export interface TaskCreated { tag: "task"; status: TaskStatus }
/** `{tag: "error", error}`. An error that ended a wait on a task (`awaitTask`, `callAndAwait` once the
 * task exists) also carries the task — `taskId`, and `status`, its
 * last status read (absent when none was) — so the task is never orphaned: await it again, or cancel it. */
export interface Failed { tag: "error"; error: TaskError; taskId?: string; status?: TaskStatus }
/** `{tag: "cancelled", status}`: the task ended cancelled. */
export interface Cancelled { tag: "cancelled"; status: TaskStatus }
/** `{tag: "input_required", source: "task", status}`: the task needs input the library may not answer
 * (answer with `updateTask`, then `awaitTask` again). */
export interface TaskInputRequired { tag: "input_required"; source: "task"; status: TaskStatus }
/** `{tag: "input_required", source: "call", status}`: the `tools/call` itself needs input (an MRTR
 * round, no task yet): answer with `callTool(client, name, args, {inputResponses, requestState})`. */
export interface CallInputRequired { tag: "input_required"; source: "call"; status: MrtrStatus }
/** Input is needed that the library may not answer: narrow on `source`. */
export type InputRequired = TaskInputRequired | CallInputRequired;

/** What `callTool` resolves with. */
export type CallToolOutcome = TaskCreated | OkResult | CallInputRequired | Failed;
/** What `awaitTask` resolves with. */
export type AwaitTaskOutcome = OkResult | Failed | Cancelled | TaskInputRequired;
/** What `callAndAwait` resolves with. */
export type CallAndAwaitOutcome = OkResult | Failed | Cancelled | TaskInputRequired | CallInputRequired;
/** What `getTask` resolves with. */
export type GetTaskOutcome = { tag: "ok"; status: TaskStatus } | Failed;
/** What `updateTask` and `cancelTask` resolve with. */
export type AckOutcome = { tag: "ok" } | Failed;
/** What `listTasks` resolves with: a page of the session's tasks, each status in the 2026-07-28 shape
 * (see docs/generations.md), and the next page's cursor when there is one. */
export type ListTasksOutcome = { tag: "ok"; tasks: TaskStatus[]; nextCursor?: string } | Failed;

/** The context handed to an input handler. */
export interface InputContext {
  /** The key the answer goes under. */
  key: string;
  /** The status the request came with. */
  status: TaskStatus | MrtrStatus;
  /** Aborts when the answer is no longer wanted (task ended, key gone, deadline, abort). */
  signal: AbortSignal;
}

/** What an input handler returns (or resolves to): the plain result (as the official SDK's handlers
 * do), `{tag: "ok", response}`, or `{tag: "error", reason}` (the wait ends with an `execution` error). */
export type HandlerOutcome<R> = R | { tag: "ok"; response: R } | { tag: "error"; reason: unknown };

/** A string field of a form (`format`: a hint for input and validation). */
export interface StringSchema {
  type: "string";
  title?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  format?: "email" | "uri" | "date" | "date-time";
  default?: string;
}
/** A number field of a form. */
export interface NumberSchema { type: "number" | "integer"; title?: string; description?: string; minimum?: number; maximum?: number; default?: number }
/** A yes/no field of a form. */
export interface BooleanSchema { type: "boolean"; title?: string; description?: string; default?: boolean }
/** A single choice: `enum` (with the legacy `enumNames` as labels), or `oneOf` of titled values. */
export type SingleSelectSchema =
  | { type: "string"; title?: string; description?: string; enum: string[]; enumNames?: string[]; default?: string }
  | { type: "string"; title?: string; description?: string; oneOf: Array<{ const: string; title: string }>; default?: string };
/** A multiple choice: `items.enum`, or `items.anyOf` of titled values. */
export interface MultiSelectSchema {
  type: "array";
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: { type: "string"; enum: string[] } | { anyOf: Array<{ const: string; title: string }> };
  default?: string[];
}
/** One field of a form: the spec's flat primitive schema (no nesting). */
export type PrimitiveSchema = StringSchema | NumberSchema | BooleanSchema | SingleSelectSchema | MultiSelectSchema;

/** `elicitation/create` params in form mode. */
export interface ElicitFormParams {
  mode?: "form";
  message: string;
  requestedSchema: { $schema?: string; type: "object"; properties: Record<string, PrimitiveSchema>; required?: string[] };
}
/** `elicitation/create` params in url mode (the url is always `https:` or `http:`). */
export interface ElicitUrlParams { mode: "url"; message: string; url: string }
/** `sampling/createMessage` params. */
export interface CreateMessageParams {
  messages: Array<{ role: "user" | "assistant"; content: unknown }>;
  maxTokens: number;
  [key: string]: unknown;
}
/** An elicitation answer. */
export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean | string[]>;
}
/** A sampling answer. */
export interface CreateMessageResult {
  role: "user" | "assistant";
  content: TextContent | ImageContent | AudioContent | Array<TextContent | ImageContent | AudioContent | UnknownContentBlock>;
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}
/** A roots answer. */
export interface ListRootsResult { roots: Array<{ uri: string; name?: string }> }

/** The application's input handlers, one per request kind. A request with no handler for its kind
 * is never answered by the library: the wait returns `{tag: "input_required", status}`. */
export interface InputHandlers {
  form?: ((params: ElicitFormParams, context: InputContext) => HandlerOutcome<ElicitResult> | Promise<HandlerOutcome<ElicitResult>>) | undefined;
  url?: ((params: ElicitUrlParams, context: InputContext) => HandlerOutcome<ElicitResult> | Promise<HandlerOutcome<ElicitResult>>) | undefined;
  sampling?: ((params: CreateMessageParams, context: InputContext) => HandlerOutcome<CreateMessageResult> | Promise<HandlerOutcome<CreateMessageResult>>) | undefined;
  roots?: ((params: Record<string, unknown>, context: InputContext) => HandlerOutcome<ListRootsResult> | Promise<HandlerOutcome<ListRootsResult>>) | undefined;
}

/** The `input` option's function form: called with the status (its `inputRequests` limited to the
 * requests not answered yet during this wait). */
export type InputFunction = (
  status: TaskStatus | MrtrStatus,
  context: { signal: AbortSignal },
) => InputFunctionOutcome | Promise<InputFunctionOutcome>;
/** What the input function returns: answers by key (some or all), or an error. */
export type InputFunctionOutcome = { tag: "ok"; responses: InputResponses } | { tag: "error"; reason: unknown };

/**
 * Any object of this shape can be driven by the library (duck-typed).
 * `request` resolves with the JSON-RPC `result`, rejects with a JSON-RPC error object
 * `{code, message, data?}` when the server answered with one, and rejects with anything else on a
 * transport failure. Every `params` it receives already carries
 * `_meta["io.modelcontextprotocol/clientCapabilities"]` with the tasks extension declared.
 */
/** The two generations of MCP the library speaks: 2026-07-28 (with `io.modelcontextprotocol/tasks`)
 * and 2025-11-25 (its core tasks, a session opened by `initialize`). */
export type Generation = "2026-07-28" | "2025-11-25";

/** A JSON-RPC request of the server's (MCP 2025-11-25 input: `elicitation/create`,
 * `sampling/createMessage`, `roots/list`). */
export interface ServerRequest { jsonrpc: "2.0"; id: string | number; method: string; params?: Record<string, unknown> }

export interface TasksClient {
  /** `onRequest` (MCP 2025-11-25): hears the server's requests that belong to this request (a task's
   * `tasks/result`, a plain `tools/call`); their answers go back through `respond`. */
  request(method: string, params: Record<string, unknown>, options: { timeoutMs?: number; signal: AbortSignal; onRequest?: (request: ServerRequest) => void }): Promise<object>;
  /** The generation the client speaks: what `httpClient` / `stdioClient` found (undefined until their
   * first request), or was told (`options.generation`); absent: 2026-07-28. */
  readonly generation?: Generation | undefined;
  /** The session, found (opened first when needed): `{generation, capabilities}` — a client without
   * it speaks 2026-07-28. Every call on the client waits for it before sending anything. */
  session?: ((options?: { timeoutMs?: number }) => Promise<{ generation: Generation; capabilities?: Record<string, unknown> }>) | undefined;
  /** Answers the server's request `id` (MCP 2025-11-25) with `result`, or with the JSON-RPC `error`:
   * resolves once sent. */
  respond?: ((id: string | number, result: unknown, error?: { code: number; message: string; data?: unknown }) => Promise<void>) | undefined;
  /** `subscriptions/listen`: an async iterable of JSON-RPC notifications (used with `listen: true`).
   * On a 2025-11-25 session: the session's `notifications/tasks/status` of the `params`' task ids
   * (nothing is sent; `httpClient` reads the session's GET event stream). */
  listen?: ((params: Record<string, unknown>, options: { signal: AbortSignal }) => AsyncIterable<object> | Promise<AsyncIterable<object>>) | undefined;
  /** Handlers for input requests (the default `input` mode). */
  inputHandlers?: InputHandlers | undefined;
  /** The client's own capabilities; the library merges the tasks extension into them. */
  clientCapabilities?: ClientCapabilities | undefined;
  /** The client's default per-request timeout in ms; absent = none. */
  requestTimeoutMs?: number | undefined;
  /** The server this client talks to, for the task journal: `httpClient` sets its URL, `stdioClient`
   * its command line; set it yourself on other clients to journal their tasks. */
  id?: string | undefined;
}


/** Options every function takes. */
export interface StepOptions {
  /** Bound of the whole call in ms (default 60000; `Infinity` for none). */
  timeoutMs?: number | undefined;
  /** Bound of each request in ms (default: the client's `requestTimeoutMs`). */
  requestTimeoutMs?: number | undefined;
  /** Aborting stops every timer and request and rejects with `signal.reason`. */
  signal?: AbortSignal | undefined;
  /**
   * How many times in a row a `tasks/get`, `tasks/cancel` or listen open that failed without a
   * JSON-RPC answer (network error, HTTP 5xx/408/429, broken stream, `requestTimeoutMs`) is re-issued,
   * after 250 ms doubling plus up to half of that again at random (at least the transport's
   * `retryAfterMs`), only while at least 100 ms would be left before the deadline (default 3; a
   * success resets the count). `tools/call` and
   * `tasks/update` are never re-issued.
   */
  retries?: number | undefined;
}

/** Where input answers come from: the handlers (default), nowhere (`"return"`), or a function. */
export type InputOption = "handlers" | "return" | InputFunction;

/** Options of `callTool`. */
export interface CallToolOptions extends StepOptions {
  /** How MRTR input requests are answered (default `"handlers"`). */
  input?: InputOption | undefined;
  /** Handlers to use instead of the client's `inputHandlers`. */
  inputHandlers?: InputHandlers | undefined;
  /** Answers to send with the call (continuing an MRTR round by hand). */
  inputResponses?: InputResponses | undefined;
  /** The `requestState` to echo with the call (continuing an MRTR round by hand). */
  requestState?: string | undefined;
  /** MCP 2025-11-25: the `ttl` in ms asked for the task the call creates (default 300000;
   * `callAndAwait` asks for at least its wait's `timeoutMs` plus 60000). */
  taskTtlMs?: number | undefined;
}

/** Options of `awaitTask`. */
export interface AwaitTaskOptions extends StepOptions {
  /** Interval when the server sends no `pollIntervalMs` (default 1000). */
  pollIntervalMs?: number | undefined;
  /** Floor under every interval (default 100); also the least time between two `tasks/get`. */
  minPollIntervalMs?: number | undefined;
  /** Ceiling over every interval (default 60000): a larger server `pollIntervalMs` is clamped to it.
   * Without an explicit `minPollIntervalMs`, the floor is the lower of 100 and this. */
  maxPollIntervalMs?: number | undefined;
  /** With `listen: true`: an open stream silent this long gets one `tasks/get` (default 30000). */
  listenCheckMs?: number | undefined;
  /** Called once for each new status (state, message or outstanding input keys changed). */
  onStatus?: ((status: TaskStatus) => void) | undefined;
  /** With `signal`: also send a best-effort `tasks/cancel` on abort (default false). */
  cancelOnAbort?: boolean | undefined;
  /**
   * A Cancel button in one step: aborting it sends `tasks/cancel` and the wait goes on to the server's
   * answer — `{tag: "cancelled", status}` when the task ends cancelled; the task's real end when the
   * cancel loses the race (or is refused); the timeout when the server ignores it. No input is asked
   * for after it (handlers running are told to stop). Unlike `signal`, the wait does not stop at once.
   */
  cancelSignal?: AbortSignal | undefined;
  /** How input requests are answered (default `"handlers"`). */
  input?: InputOption | undefined;
  /** Handlers to use instead of the client's `inputHandlers`. */
  inputHandlers?: InputHandlers | undefined;
  /** Wait on `subscriptions/listen` notifications instead of polling (default false). On a 2025-11-25
   * server: on the session's `notifications/tasks/status`, polling where it has none (see
   * docs/generations.md). */
  listen?: boolean | undefined;
  /** With `listen`: poll instead where listening cannot be had — a server without
   * `subscriptions/listen` (`-32601`) or a client without `listen` (default false: the wait ends with
   * that error, as specified). */
  listenFallback?: boolean | undefined;
  /** Keys answered before this wait (e.g. before a restart): never asked; an `answer` given (one not
   * yet acknowledged) is sent once, without asking, while a status still lists its key. The journal
   * fills it in; give it yourself when you persist answers your own way. */
  answered?: Array<{ key: string; answer?: unknown }> | undefined;
}

/** `directClient`'s handler: answers one request in-process. Throw `{code, message, data?}` to answer
 * with a JSON-RPC error. For `subscriptions/listen`, return an async iterable of notifications. */
export type DirectHandler = (method: string, params: Record<string, unknown>, context: { signal?: AbortSignal }) => unknown;

/** Options of `directClient`. */
export interface DirectClientOptions {
  clientCapabilities?: ClientCapabilities | undefined;
  inputHandlers?: InputHandlers | undefined;
}

/** What the validators return. */
export type ValidationResult = { tag: "ok" } | { tag: "error"; message: string };

/** What `liveCounts()` returns: what the module holds right now (all zero when nothing runs). */
export interface LiveCounts {
  /** Calls in progress. */
  runs: number;
  /** Requests in flight (best-effort cancels on abort included). */
  requests: number;
  /** Input handler (or input function) calls running. */
  asks: number;
  /** Open listen streams. */
  streams: number;
  /** Armed timers (the module arms at most one, for all its calls). */
  timers: number;
  /** Promises of the async functions not settled yet (held by the package's registry, outside the module). */
  calls: number;
  /** `null` while the module works; the Error every call rejects with once it failed (a trap: see the README). */
  failed: Error | null;
}

// The async API: the module's `#[wasm_bindgen] pub async fn` exports (src/bind/exports.rs), declared
// here (they skip wasm-bindgen's own declarations, whose types would be `any`).

/**
 * Sends a task-augmented `tools/call` (the tasks extension declared in its `_meta`) and resolves
 * with `{tag: "task", status}`, `{tag: "ok", result}`, `{tag: "input_required", status}` or
 * `{tag: "error", error}`. MRTR rounds are answered through the `input` option. `args`: the tool's
 * arguments, an object (an array is a `TypeError`); absent or `null`: none.
 */
export function callTool(client: TasksClient, name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolOutcome>;

/**
 * Waits for a task to finish (polling `tasks/get`, or listening with `listen: true`), answering
 * input requests on the way. Resolves with `{tag: "ok", result}`, `{tag: "error", error}`,
 * `{tag: "cancelled", status}` or `{tag: "input_required", status}`.
 */
export function awaitTask(client: TasksClient, task: TaskRef, options?: AwaitTaskOptions): Promise<AwaitTaskOutcome>;

/**
 * `callTool`, then `awaitTask` when it created a task; an immediate result, error or
 * `input_required` is returned as is. Every argument of both parts is checked before anything is
 * sent. The call's `signal` also stops the wait, and the call's `timeoutMs` bounds the whole call and
 * wait (from the call's start), unless `awaitOptions` sets its own.
 */
export function callAndAwait(client: TasksClient, name: string, args?: Record<string, unknown>, callOptions?: CallToolOptions, awaitOptions?: AwaitTaskOptions): Promise<CallAndAwaitOutcome>;


/** Reads a task's status once (`tasks/get`): `{tag: "ok", status}` or `{tag: "error", error}`. */
export function getTask(client: TasksClient, taskId: string, options?: StepOptions): Promise<GetTaskOutcome>;

/** Answers input requests by hand (`tasks/update` with `responses` as `inputResponses`): `{tag: "ok"}` or `{tag: "error", error}`. */
export function updateTask(client: TasksClient, taskId: string, responses: InputResponses, options?: StepOptions): Promise<AckOutcome>;

/**
 * Asks the server to cancel a task (`tasks/cancel`): `{tag: "ok"}` or `{tag: "error", error}`.
 * The acknowledgement does not mean the task ended `cancelled`; `awaitTask` tells.
 */
export function cancelTask(client: TasksClient, taskId: string, options?: StepOptions): Promise<AckOutcome>;

/**
 * Reads a page of the session's tasks (`tasks/list`, MCP 2025-11-25) from `cursor` (none: the first
 * page): `{tag: "ok", tasks, nextCursor?}` or `{tag: "error", error}` — a server without a task list
 * (every 2026-07-28 server) answers with its JSON-RPC error (code -32601).
 */
export function listTasks(client: TasksClient, cursor?: string | null, options?: StepOptions): Promise<ListTasksOutcome>;

/** `base` deep-merged with `{extensions: {"io.modelcontextprotocol/tasks": {}}}`, to use as a client's `clientCapabilities`. `base` is not modified. */
export function capabilities(base?: ClientCapabilities): ClientCapabilities;

/** `true` when a `server/discover` result (or a `capabilities` object) advertises the tasks extension. */
export function serverSupports(discoverResultOrCapabilities: object): boolean;

/** Checks an `ElicitResult` (what a `form` or `url` handler answers). */
export function validateElicitResult(value: unknown): ValidationResult;

/** Checks a `CreateMessageResult` (what a `sampling` handler answers). */
export function validateCreateMessageResult(value: unknown): ValidationResult;

/** Checks a `ListRootsResult` (what a `roots` handler answers). */
export function validateListRootsResult(value: unknown): ValidationResult;

/**
 * Live counts of what the library holds, for leak checks: `{runs, requests, asks, streams, timers}`
 * (calls in progress, requests in flight incl. detached cancels, input handler calls running, open
 * listen streams, armed timers — at most one). All zero when nothing is running.
 */
export function liveCounts(): LiveCounts;
