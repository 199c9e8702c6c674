// channelClient(send, options?, name?): a client over any message pair — the JSON-RPC channel under
// every message transport (HTTP, stdio, ports, SDK transports). `send(message)` carries one message to
// the server; `client.receive(message)` takes each one that arrived; `client.close(error?)` says the
// channel closed. A JS module of its own (the engine and its decisions stay in the wasm module; this is
// transport plumbing): an app that uses only `directClient` does not ship it.
//
// - `request(method, params, {timeoutMs?, signal?})` sends `{jsonrpc, id, method, params}` with the
//   `_meta` every 2026-07-28 request carries (protocol version, client info, capabilities) and resolves
//   with the response's `result`, or rejects with its `error` object (an `McpChannelError` — the
//   transport's subclass, `McpHttpError` over HTTP — when the error is not a JSON-RPC error object). On
//   abort or timeout it rejects (an `McpChannelError`, status 0) and
//   sends `notifications/cancelled` for its id.
// - `listen(params, {signal?})` sends `subscriptions/listen` and resolves with an async iterator of the
//   notifications routed to it; `return()` or the signal ends it (and sends `notifications/cancelled`);
//   the listen's result ends it, its error rejects `next()`. More than 10 000 unread notifications fail
//   the stream. Speaking 2025-11-25 it sends nothing (no subscription there): the iterator hears the
//   session's `notifications/tasks/status` of its `taskIds` as they arrive.
// - `fail(id, error)` fails one request or listen by its message id (every pending request when `id`
//   is undefined); `close(error?)` fails everything open, later requests reject at once.
//
// Routing: a response settles the request or listen with its id (a response nothing waits for is
// ignored); a message for one of its ids that is neither a response nor a request — a `result` or
// `error` beside a `method` — fails that request or listen at once with an `McpProtocolError` (status
// 0, `response`: the message, `retryable: false`); a notification with
// `_meta["io.modelcontextprotocol/subscriptionId"]` goes to that listen; without one a
// `notifications/tasks` (2025-11-25: `notifications/tasks/status`) goes to every listen whose `taskIds`
// hold its `taskId`, and an acknowledgement
// to every listen not yet acknowledged whose `taskIds` meet its own; anything else (a server→client
// request, garbage such as an id alone) is ignored. What application objects do (getters, Proxy traps,
// a throwing `send`) never escapes: a read that throws counts as absent, a throw becomes the request's
// rejection. Timeouts of any length are kept (waited in steps past 2³¹−1 ms, never early).
import { McpChannelError, McpProtocolError } from "./errors.js";
import { after, asyncIterator, attempt, elementsOf, isObject, later, nothing, readKey } from "./values.js";

/** The protocol version every request's `_meta` carries (the generation of the Tasks extension). */
export const PROTOCOL_VERSION = "2026-07-28";
/** The previous generation: MCP with its core tasks, a session opened by `initialize`. */
export const CORE_TASKS_VERSION = "2025-11-25";
/** The generations a client may be told to speak (`options.generation`). */
export const GENERATIONS = [PROTOCOL_VERSION, CORE_TASKS_VERSION];
/** This package's version: the default `clientInfo.version` (a test keeps it equal to package.json's). */
export const VERSION = "0.1.0";
/** The most notifications a stream keeps unread before it fails. */
export const MAX_QUEUED = 10_000;

const META = "io.modelcontextprotocol/";
const SUBSCRIPTION_ID = META + "subscriptionId";
/** The `_meta` key a 2025-11-25 server's task messages carry: `{taskId}`. */
const RELATED_TASK = META + "related-task";
/** The step of an iterator that has ended. */
const done = () => ({ done: true, value: undefined });

/** What `f()` returns, as a promise: a throw becomes its rejection. */
function promised(f) {
  try {
    return Promise.resolve(f());
  } catch (e) {
    return Promise.reject(e);
  }
}

/** The strings of an array (none when `v` is no array, or reading it throws): the elements it really
 * has, whatever its `length` claims. */
const strings = (v) => elementsOf(v).filter((s) => typeof s === "string");


/** Whether `e` is a JSON-RPC error object: a plain object (no DOMException) with an integer `code`
 * and a string `message`. */
export function isRpcError(e) {
  // (A Proxy whose getPrototypeOf trap throws counts as a DOMException: no JSON-RPC error either.)
  return isObject(e)
    && !attempt(() => typeof DOMException === "function" && e instanceof DOMException, true)
    && Number.isSafeInteger(readKey(e, "code"))
    && typeof readKey(e, "message") === "string";
}

/** Checks `send` and the options every channel client takes (a bad one is a `TypeError` naming
 * `name`); the options given, read once each. */
function readArguments(send, options, name) {
  const bad = (what) => new TypeError(`${name}: ${what}`);
  if (typeof send !== "function") throw bad("send must be a function");
  if (options !== undefined && options !== null && !isObject(options)) throw bad("options must be an object");
  const o = {};
  for (const key of ["clientInfo", "clientCapabilities", "inputHandlers", "requestTimeoutMs", "idPrefix", "generation"]) {
    const v = readKey(options, key);
    if (v === undefined) continue;
    // What `v` must be, when it is not that.
    const must = key === "requestTimeoutMs" ? !(typeof v === "number" && v >= 0) && "a non-negative number"
      : key === "idPrefix" ? typeof v !== "string" && "a string"
      : key === "generation" ? !GENERATIONS.includes(v) && `"${PROTOCOL_VERSION}" or "${CORE_TASKS_VERSION}"`
      : !isObject(v) && "an object";
    if (must) throw bad(`options.${key} must be ${must}`);
    o[key] = v;
  }
  return o;
}

/** A shallow copy of `params` with a new `_meta`: the caller's `_meta` fields, the protocol version,
 * and the client's `info` and `caps` unless `_meta` has them. The caller's objects stay as they are.
 * A 2025-11-25 session (`plain`) has no such envelope: the copy is the params as they are. */
function withMeta(params, info, caps, plain) {
  if (params !== undefined && params !== null && !isObject(params)) throw new TypeError("request: params must be an object");
  const copy = { ...params };
  if (plain) return copy;
  const given = readKey(params, "_meta");
  const meta = isObject(given) ? { ...given } : {};
  meta[META + "protocolVersion"] = PROTOCOL_VERSION;
  for (const [key, value] of [["clientInfo", info], ["clientCapabilities", caps]]) {
    if (meta[META + key] === undefined) meta[META + key] = value;
  }
  copy._meta = meta;
  return copy;
}

/** Ties a request to the caller's signal and a timeout (finite only, of any length: `after` waits past
 * 2³¹−1 ms in steps): `fire(why)` runs once when either does. Returns the function that unties them. */
function tie(signal, timeoutMs, fire) {
  const untime = Number.isFinite(timeoutMs) ? after(timeoutMs, () => fire("timeout")) : nothing;
  const listener = () => fire("signal");
  const add = readKey(signal, "addEventListener");
  // Whether the listener is on the signal (its addEventListener may throw: then it is not).
  const added = typeof add === "function" && attempt(() => {
    add.call(signal, "abort", listener);
    return true;
  }, false);
  return () => {
    untime();
    // The signal may be duck-typed: its removeEventListener is application code, run later.
    if (added) later(() => signal.removeEventListener("abort", listener));
  };
}

/** What a request its signal (`why`: "signal") or its timeout ("timeout") ended says. */
const abortMessage = (method, why, timeoutMs) =>
  `${method}: ${why === "timeout" ? `request timed out after ${Math.trunc(Math.min(Math.max(timeoutMs, 0), 2 ** 32 - 1))} ms` : "request aborted"}`;

/** The open listens of `streams` a notification goes to (`ownId`: the channel's reading of an id). */
function targets(streams, ownId, method, params) {
  const sub = ownId(readKey(readKey(params, "_meta"), SUBSCRIPTION_ID));
  const open = [...streams].filter(([, s]) => !s.end);
  if (sub !== undefined) return open.filter(([id]) => id === sub);
  if (method === "notifications/tasks" || method === "notifications/tasks/status") {
    // (A listen's `taskIds` are strings: a `taskId` that is none is no one's.)
    const task = readKey(params, "taskId");
    return open.filter(([, s]) => s.taskIds.includes(task));
  }
  if (method === "notifications/subscriptions/acknowledged") {
    const acked = strings(readKey(readKey(params, "notifications"), "taskIds"));
    const hit = open.filter(([, s]) => !s.acked && s.taskIds.some((t) => acked.includes(t)));
    for (const [, s] of hit) s.acked = true;
    return hit;
  }
  return [];
}

/** Hands stream `id` of `streams` (`s`) its next step for `waiter` (`[resolve, reject]`), or keeps it
 * waiting; a stream read to its end is forgotten. */
function answer(streams, id, s, waiter) {
  const [resolve, reject] = waiter;
  if (s.queue.length > 0) return resolve({ done: false, value: s.queue.shift() });
  if (!s.end) return void (s.waiter = waiter);
  streams.delete(id);
  if (s.end.error === undefined) resolve(done());
  else reject(s.end.error);
}

/** The async iterator of listen `id` of `streams`: one `next()` at a time (a concurrent one gets the
 * end: callers await each step); `return()` ends the stream through `end` (the channel's `endStream`). */
function streamIterator(streams, id, end) {
  return asyncIterator(
    () => {
      const s = streams.get(id);
      if (!s || s.waiter) return Promise.resolve(done());
      return new Promise((resolve, reject) => answer(streams, id, s, [resolve, reject]));
    },
    () => {
      end(id, undefined, true);
      return Promise.resolve(done());
    },
  );
}

/**
 * Builds a client over a message pair (see the module comment). Options: `clientInfo`,
 * `clientCapabilities`, `inputHandlers`, `requestTimeoutMs`, `idPrefix` (ids go out as strings
 * `"<idPrefix><n>"`, so they never collide with another client's numbers on a shared transport).
 * Throws a `TypeError` for bad arguments, prefixed with `name` (default `"channelClient"`: a transport
 * built on it passes its own, and its error class as `Failure`, an `McpChannelError` subclass).
 */
export function channelClient(send, options, name, Failure = McpChannelError) {
  // The client starts as the options it shows (`clientCapabilities`, `inputHandlers`,
  // `requestTimeoutMs`, those given); the methods are added at the end.
  const { clientInfo: info = { name: "mcp-tasks-wasm", version: VERSION }, idPrefix: prefix, ...client } =
    readArguments(send, options, typeof name === "string" ? name : "channelClient");
  const caps = client.clientCapabilities ?? {};
  const defaultTimeoutMs = client.requestTimeoutMs;
  // The generation the channel speaks: 2026-07-28 unless told; a transport that finds it out says so
  // (`speak`). A client told its generation shows it.
  let speaking = client.generation ?? PROTOCOL_VERSION;
  client.generation = speaking;
  /** A 2025-11-25 session's `tools/list` pages, by cursor, until the server says the list changed. */
  const toolPages = new Map();
  /** A failure of this channel (of the transport's error class), with its `cause` if any. */
  const channelError = (message, cause) => new Failure(message, cause === undefined ? undefined : { cause });
  /** The rejection of a request its signal or its timeout ended. */
  const abortError = (method, why, timeoutMs) => channelError(abortMessage(method, why, timeoutMs));
  let lastId = 0;
  let closed;
  /** Request id → `{resolve, reject, untie, method, taskId?, onRequest?}` (`onRequest`: hears the
   * server→client requests that belong to this request; `taskId`: a `tasks/result`'s task). */
  const waiting = new Map();
  /** Listen id → `{taskIds, acked, queue, untie, waiter?, end?}` (`waiter`: the `[resolve, reject]`
   * of the `next()` waiting; `end`: `{error?}` once ended). */
  const streams = new Map();

  /** The id request `n` goes out with. */
  const idValue = (n) => (prefix === undefined ? n : prefix + n);
  /** The id a message's `id` stands for, when it is one this channel made. */
  const ownId = (v) => {
    let n;
    if (prefix === undefined) n = v;
    else if (typeof v === "string" && v.startsWith(prefix) && /^\d{1,19}$/.test(v.slice(prefix.length))) n = Number(v.slice(prefix.length));
    return Number.isSafeInteger(n) && n > 0 && n <= lastId ? n : undefined;
  };
  /** Calls `send(message)` and gives what it returned; what it throws becomes the channel's
   * "`what`: send failed" error (its `cause`). */
  const transmit = (message, what) => {
    try {
      return send(message);
    } catch (e) {
      throw channelError(`${what}: send failed`, e);
    }
  };
  /** Sends request (or listen) `id`; throws as `transmit` does. */
  const sendRequest = (id, method, params) => transmit({ jsonrpc: "2.0", id: idValue(id), method, params }, method);
  /** Tells the server the client gave request (or listen) `id` up (a failure to send is dropped). */
  const cancelled = (id, reason) => {
    attempt(() => send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: idValue(id), reason } }));
  };

  /** What every request and listen checks first: the channel is open, `params` get the `_meta`, the
   * signal has not fired. `[params, signal]`; throws the rejection. */
  function prepare(method, params, opts) {
    if (closed !== undefined) throw closed;
    const ready = withMeta(params, info, caps, speaking === CORE_TASKS_VERSION);
    const signal = readKey(opts, "signal");
    if (readKey(signal, "aborted") === true) throw abortError(method, "signal");
    return [ready, signal];
  }

  /** Settles request `id` once. */
  function settle(id, ok, value) {
    const w = waiting.get(id);
    if (!w) return;
    waiting.delete(id);
    w.untie();
    (ok ? w.resolve : w.reject)(value);
  }

  /** A request (see the module comment): its result, or a rejection; never throws. In a 2025-11-25
   * session a `tools/list` page is asked once until `notifications/tools/list_changed`. */
  function request(method, params, opts) {
    if (method === "tools/list" && speaking === CORE_TASKS_VERSION) {
      const key = JSON.stringify(attempt(() => readKey(params, "cursor")) ?? null);
      let page = toolPages.get(key);
      if (!page) {
        page = send1(method, params, opts);
        toolPages.set(key, page);
        page.then(nothing, () => toolPages.get(key) === page && toolPages.delete(key));
      }
      return page;
    }
    return send1(method, params, opts);
  }

  /** One request on the wire. */
  function send1(method, params, opts) {
    return promised(() => {
      if (typeof method !== "string") throw new TypeError("request: method must be a string");
      const [ready, signal] = prepare(method, params, opts);
      const ownTimeout = readKey(opts, "timeoutMs");
      const timeoutMs = typeof ownTimeout === "number" ? ownTimeout : defaultTimeoutMs;
      const onRequest = readKey(opts, "onRequest");
      const taskId = method === "tasks/result" ? readKey(ready, "taskId") : undefined;
      const id = ++lastId;
      const promise = new Promise((resolve, reject) =>
        waiting.set(id, { resolve, reject, untie: nothing, method, taskId, onRequest: typeof onRequest === "function" ? onRequest : undefined }));
      const w = waiting.get(id);
      let sent = false;
      w.untie = tie(signal, timeoutMs, (why) => {
        if (!waiting.has(id)) return;
        settle(id, false, abortError(method, why, timeoutMs));
        if (sent) cancelled(id, "the client gave up the request");
      });
      // A duck-typed signal may fire while it is tied: then nothing is sent.
      sent = waiting.has(id);
      if (!sent) w.untie();
      else {
        try {
          sendRequest(id, method, ready);
        } catch (e) {
          settle(id, false, e);
        }
      }
      return promise;
    });
  }

  /** Ends stream `id` with `error` (undefined: a clean end) for its reader. `tell`: the client ends it
   * (its reader's `return()`, its signal, too many unread): sends `notifications/cancelled` while the
   * stream was open, and on a clean end forgets the stream (its reader is gone). Whether the stream
   * was open (without `tell`, ending a stream that ended changes nothing). */
  function endStream(id, error, tell) {
    const s = streams.get(id);
    if (!s) return false;
    const wasOpen = !s.end;
    s.end ??= { error };
    s.untie();
    s.untie = nothing;
    wakeReader(id, s);
    if (tell && error === undefined) streams.delete(id);
    if (tell && wasOpen && !s.local) cancelled(id, "the client closed the stream");
    return wasOpen;
  }

  /** Hands the reader waiting on stream `id`, if any, its next step. */
  function wakeReader(id, s) {
    const w = s.waiter;
    s.waiter = undefined;
    if (w) answer(streams, id, s, w);
  }

  /** `subscriptions/listen` (see the module comment): the iterator of its notifications, or a
   * rejection; never throws. In a 2025-11-25 session nothing is sent (that generation has no
   * subscription): the iterator hears the session's `notifications/tasks/status` of its `taskIds`. */
  function listen(params, opts) {
    return promised(() => {
      const [ready, signal] = prepare("subscriptions/listen", params, opts);
      const id = ++lastId;
      const notifications = readKey(ready, "notifications");
      const local = speaking === CORE_TASKS_VERSION;
      const s = { taskIds: strings(readKey(notifications, "taskIds")), acked: local, local, queue: [], untie: nothing };
      streams.set(id, s);
      s.untie = tie(signal, undefined, () => endStream(id, undefined, true));
      if (streams.has(id) && !local) {
        try {
          sendRequest(id, "subscriptions/listen", ready);
        } catch (e) {
          s.untie();
          streams.delete(id);
          throw e;
        }
      }
      return streamIterator(streams, id, endStream);
    });
  }

  /** Queues notification `message` for stream `id` (failing the stream past `MAX_QUEUED`). */
  function push(id, message) {
    const s = streams.get(id);
    if (!s || s.end) return;
    if (s.queue.length >= MAX_QUEUED) {
      s.queue.length = 0;
      return endStream(id, channelError(`subscriptions/listen: more than ${MAX_QUEUED} notifications queued unread`), true);
    }
    s.queue.push(message);
    wakeReader(id, s);
  }

  /** Hands a server→client request to what it belongs to: the pending `tasks/result` of its
   * related task, else the request whose stream carried it (`via`), else the one pending request that
   * hears requests (stdio has no other way to tell), else the client's `onrequest`; with none, the
   * server is answered with a JSON-RPC error at once — a request is never left unanswered. */
  function route(message, via) {
    const related = readKey(readKey(readKey(readKey(message, "params"), "_meta"), RELATED_TASK), "taskId");
    /** The pending requests that hear server→client requests. */
    const hearing = [...waiting.values()].filter((w) => w.onRequest);
    let to;
    if (typeof related === "string") to = hearing.find((w) => w.taskId === related);
    // (`ownId` reads no id from undefined.)
    const carrier = waiting.get(ownId(via));
    if (!to && carrier?.onRequest) to = carrier;
    if (!to && related === undefined && via === undefined && hearing.length === 1) to = hearing[0];
    const hear = to?.onRequest ?? readKey(client, "onrequest");
    if (typeof hear === "function" && attempt(() => (hear(message), true), false)) return true;
    const method = readKey(message, "method");
    respond(readKey(message, "id"), undefined, { code: -32601, message: `${method}: this client has nothing to answer it with` }).then(nothing, nothing);
    return false;
  }

  /** Answers the server's request `id` with `result` (or `error`): resolves once the transport sent it
   * (an HTTP POST accepted); rejects when it could not. */
  function respond(id, result, error) {
    return promised(() => {
      if (closed !== undefined) throw closed;
      const message = error === undefined ? { jsonrpc: "2.0", id, result } : { jsonrpc: "2.0", id, error };
      return Promise.resolve(transmit(message, "response")).then(nothing);
    });
  }

  /** Sends notification `method` with `params` (no answer); throws the "send failed" error. */
  function notify(method, params) {
    transmit({ jsonrpc: "2.0", method, params: params ?? {} }, method);
  }

  /** A message arrived (`via`: the id of the request whose stream carried it, when the transport
   * knows): settle, route or ignore it; `true` when something waited for it. */
  function receive(message, via) {
    if (!isObject(message)) return false;
    const rawId = readKey(message, "id");
    const method = readKey(message, "method");
    const result = readKey(message, "result");
    const error = readKey(message, "error");
    const answered = result !== undefined || error !== undefined;
    if (rawId !== undefined) {
      if (typeof method === "string" && !answered) return route(message, via);
      const id = ownId(rawId);
      if (id === undefined || !answered) return false;
      const w = waiting.get(id);
      if (method !== undefined) {
        // A result or error beside a `method`: neither a response nor a request. It fails the request
        // at once (taking it, or waiting for another answer, would both be guesses).
        return failOne(id, new McpProtocolError(`${w ? w.method : "subscriptions/listen"}: the response also carries "method"`, { response: message, retryable: false }));
      }
      if (!w) return endStream(id, error);
      if (error === undefined) settle(id, true, result);
      else settle(id, false, isRpcError(error) ? error : channelError("request: malformed JSON-RPC error", error));
      return true;
    }
    if (typeof method !== "string") return false;
    if (method === "notifications/tools/list_changed") toolPages.clear();
    const hit = targets(streams, ownId, method, readKey(message, "params"));
    for (const [id] of hit) push(id, message);
    return hit.length > 0;
  }

  /** Fails request or listen `id` (a message id, as sent), or every pending request when `id` is
   * undefined, with `error` — a failure the transport reported for them; the channel stays open. */
  function fail(id, error) {
    for (const n of id === undefined ? [...waiting.keys()] : [ownId(id)]) failOne(n, error);
  }

  /** Fails request `id` or, when no request has that id, open listen `id` with `error`; whether one
   * was there to fail. */
  function failOne(id, error) {
    if (!waiting.has(id)) return endStream(id, error);
    settle(id, false, error);
    return true;
  }

  /** The channel closed: every request and stream fails with `error` (default: "the channel closed",
   * `retryable: false`). */
  function close(error) {
    if (closed !== undefined) return;
    closed = error !== undefined ? error : new Failure("the channel closed", { retryable: false });
    fail(undefined, closed);
    for (const [id] of [...streams]) endStream(id, closed);
  }

  /** The transport found the server's generation: the channel speaks it from now on. */
  function speak(generation) {
    speaking = generation;
    toolPages.clear();
  }

  /** The client's generation (`{generation}`): what it was told, for a channel (a transport that finds
   * it out has its own `session`, which opens the session first). */
  const session = () => Promise.resolve({ generation: speaking });

  return Object.assign(client, { request, listen, receive, fail, close, respond, notify, speak, session });
}
