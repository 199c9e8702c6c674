// httpClient(url, options?): the Streamable HTTP client over `fetch`, on the module's message channel
// (`channelClient`), like every other transport. It speaks the generation the server speaks: MCP
// 2026-07-28 (no session; every request carries its `_meta` and routing headers), or MCP 2025-11-25 (a
// session opened by `initialize`, `Mcp-Session-Id` on every request) — found on the first request
// (`generation.js`) and kept for the client's life. The channel numbers the requests,
// adds the `_meta` envelope, matches responses by id, enforces `timeoutMs` and `signal`, and queues
// and routes listen notifications; this adapter POSTs each message with the routing headers and reads
// its answer — one JSON object or an event stream — back into the channel. A request the channel
// gives up (abort, timeout, a closed listen) is not told to the server over HTTP: its POST is aborted.
//
// Application code (the `headers` option, a custom `fetch`, the Response it gives, the body's reader)
// only ever runs inside the async exchange, after a microtask, and whatever it throws becomes the
// request's documented failure.
import { channelClient, PROTOCOL_VERSION } from "./channel.js";
import { McpHttpError } from "./errors.js";
import { generationOption, session } from "./generation.js";
import { asyncIterator, attempt, isObjectLike, nothing } from "./values.js";

/** The longest body excerpt an `McpHttpError` carries. */
const EXCERPT = 200;
/** The most characters one event of a stream may hold (its data plus the line being read). */
export const MAX_EVENT_CHARS = 8 * 1024 * 1024;
/** The default of `maxAnswerBytes`: the most bytes (after decompression) read for one request's answer. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** The methods whose `params` field (a string) travels in `Mcp-Name`, with that field. */
const NAME_FIELDS = new Map([
  ["tools/call", "name"],
  ["prompts/get", "name"],
  ["resources/read", "uri"],
  ["tasks/get", "taskId"],
  ["tasks/update", "taskId"],
  ["tasks/cancel", "taskId"],
]);

/** The `params` field whose string value travels in `Mcp-Name` for `method`, if any. */
export function nameField(method) {
  return NAME_FIELDS.get(method);
}

const SENTINEL_START = "=?base64?";
const SENTINEL_END = "?=";
/** Not empty, printable ASCII (tabs inside), no space or tab at either end. */
const PLAIN = /^[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?$/;

/** A header value as sent: `value` itself when it is plain header-safe ASCII and not shaped like the
 * sentinel, else `=?base64?<standard base64 of its UTF-8>?=`. */
export function headerValue(value) {
  if (PLAIN.test(value) && !(value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END))) return value;
  const bytes = new TextEncoder().encode(value);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return SENTINEL_START + btoa(binary) + SENTINEL_END;
}

/**
 * An incremental `text/event-stream` parser (the WHATWG rules) over decoded text: `push` each piece
 * as it arrives, split anywhere; `onEvent(type, data)` gets each dispatched event (type "" when none
 * was given). Lines end with CRLF, LF or CR; `:` lines are comments; one space after the colon is
 * dropped; `data` lines are joined with "\n"; a blank line dispatches (nothing when no data came);
 * `finish` ends the stream, dispatching a last event that lacks its blank line (lenient). `push`
 * returns false once an event grew past `MAX_EVENT_CHARS`; nothing more is parsed then.
 */
export function sseParser(onEvent) {
  /** The end of the last line of the last piece, when it came without one. */
  let partial = "";
  let data = [];
  let size = 0;
  let type = "";
  let afterCr = false;
  let overflow = false;
  /** One line of the stream: a field, a comment, or (empty) the end of an event. */
  const line = (text) => {
    if (text === "") {
      if (data.length > 0) onEvent(type, data.join("\n"));
      data = [];
      size = 0;
      type = "";
      return;
    }
    // The field name runs to the first colon (the whole line without one); a space after the colon
    // is not part of the value.
    const [, name, value] = /^([^:]*):? ?(.*)$/s.exec(text);
    if (name === "data") {
      data.push(value);
      size += value.length + 1;
    } else if (name === "event") {
      type = value;
    }
  };
  return {
    push(text) {
      if (overflow) return false;
      // A CR that ended the last piece and an LF that starts this one are one line end.
      if (afterCr && text.startsWith("\n")) text = text.slice(1);
      afterCr = text.endsWith("\r");
      const lines = text.split(/\r\n|\r|\n/);
      lines[0] = partial + lines[0];
      partial = lines.pop();
      for (const whole of lines) {
        line(whole);
        if (overflow) return false;
      }
      if (partial.length + size > MAX_EVENT_CHARS) {
        overflow = true;
        partial = "";
        data = [];
        return false;
      }
      return true;
    },
    finish() {
      if (overflow) return;
      if (partial !== "") line(partial);
      partial = "";
      line("");
    },
  };
}

/** What a failure value says, for an error message (never throws). */
function describe(e) {
  try {
    if (typeof e === "string") return e;
    const message = e?.message;
    if (typeof message === "string" && message !== "") return message;
    if (typeof e?.name === "string") return e.name;
  } catch {}
  return "request failed";
}

/** `Retry-After` (seconds or an HTTP date) in ms, or undefined. */
function retryAfterMs(value) {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const ms = /^\s*\d+\s*$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.max(0, ms) : undefined;
}

/** Whether a `Content-Type` is an event stream. */
const isEventStream = (type) => typeof type === "string" && /^text\/event-stream/i.test(type);
/** Whether a parsed message is the response (result or error) to request `id`. */
const isResponseTo = (msg, id) => isObjectLike(msg) && msg.id === id && (msg.result !== undefined || msg.error !== undefined);
/** A `TypeError` for a bad argument or option of `httpClient`. */
const typeError = (what) => new TypeError("httpClient: " + what);
/** Whether an HTTP status is a success (2xx). */
const isSuccess = (status) => status >= 200 && status < 300;
/** Whether `e` is an `McpHttpError` (reading its name never throws). */
const isHttpError = (e) => attempt(() => e?.name) === "McpHttpError";
/** What a failure of `what` (a method, or "GET") to fetch or read becomes: itself when it is an
 * `McpHttpError`, else the "network error" `McpHttpError` it caused (with the HTTP `status`, 0: none). */
const networkError = (what, e, status) => (isHttpError(e) ? e : new McpHttpError(`${what}: network error: ${describe(e)}`, { status, cause: e }));
/** Cancels a body or its reader (none: nothing to do), dropping what that throws or rejects with. */
const cancelQuietly = (stream) => attempt(() => stream.cancel().then(nothing, nothing));

/** The request headers: the caller's (an object, pairs, a Headers, or nothing) under the protocol's —
 * a 2025-11-25 session's (`open`: `{id, version}`) or the 2026-07-28 routing headers. */
function requestHeaders(user, method, params, open) {
  if (user !== undefined && user !== null && typeof user !== "object") {
    throw typeError("options.headers must give an object");
  }
  const h = new Headers(user ?? undefined);
  h.set("Content-Type", "application/json");
  h.set("Accept", "application/json, text/event-stream");
  h.set("MCP-Protocol-Version", open ? open.version : PROTOCOL_VERSION);
  if (open) {
    if (open.id !== undefined) h.set("Mcp-Session-Id", open.id);
    else h.delete("Mcp-Session-Id");
  }
  // A message that is no request (a response to the server's) has no method to route by.
  if (open || method === undefined) h.delete("Mcp-Method");
  else h.set("Mcp-Method", method);
  // (A session has no `Mcp-Name`.)
  const field = open ? undefined : nameField(method);
  const name = field === undefined ? undefined : params?.[field];
  if (typeof name === "string") h.set("Mcp-Name", headerValue(name));
  else h.delete("Mcp-Name");
  return h;
}

/**
 * Builds a Streamable HTTP client for the MCP endpoint `url` (a string or a `URL`). Options:
 * `headers` (an object, pairs, a `Headers`, or `(method, params) => headers`, sync or async),
 * `fetch`, `maxAnswerBytes` (default `MAX_ANSWER_BYTES`), `requestTimeoutMs`, `clientInfo`,
 * `clientCapabilities`, `inputHandlers`. Throws a `TypeError` for bad arguments.
 *
 * Every POST goes to `url` alone: it is sent with `redirect: "manual"` and a redirect (any 3xx, or
 * the opaque redirect a browser gives instead) fails the request, so neither the body nor the
 * `headers` ever reach another URL. An answer (a JSON body, or a request's event stream up to its
 * response) is read up to `maxAnswerBytes` bytes after decompression, then the request fails and the
 * body is cancelled; a listen's event stream is read as its notifications are taken, 8 MB an event
 * at most.
 */
export function httpClient(url, options) {
  const href = attempt(() => (typeof url === "string" ? url : url?.href));
  if (typeof href !== "string" || href === "") throw typeError("url must be a non-empty string or a URL");
  if (options !== undefined && options !== null && (typeof options !== "object" || Array.isArray(options))) {
    throw typeError("options must be an object");
  }
  const { headers, fetch: customFetch, id, maxAnswerBytes = MAX_ANSWER_BYTES, generation, ...common } = options ?? {};
  if (headers !== undefined && (headers === null || (typeof headers !== "object" && typeof headers !== "function"))) {
    throw typeError("options.headers must be an object or a function");
  }
  if (customFetch !== undefined && typeof customFetch !== "function") throw typeError("options.fetch must be a function");
  if (typeof maxAnswerBytes !== "number" || !(maxAnswerBytes > 0)) throw typeError("options.maxAnswerBytes must be a positive number");
  const named = generationOption(generation, typeError);

  /** The POSTs in flight, by request id: the function that aborts each. */
  const inflight = new Map();
  /** What the call being sent shares with its exchange (handed from `request`/`listen` to `send`):
   * `status`, the HTTP status once known (absent until then), and for a listen `stream`, its state. */
  let handoff;
  /** Starts a call with `start` (the channel's `request` or `listen`, which sends its message at once),
   * handing `shared` to its exchange. */
  function handing(shared, start) {
    handoff = shared;
    const started = start();
    handoff = undefined;
    return started;
  }

  const chan = channelClient((message) => {
    // A response to a server's request: one POST, accepted (202) or refused.
    if (message.method === undefined) return post(message);
    if (message.method === "notifications/cancelled") {
      // The channel gave the request up: over HTTP that is closing its POST.
      const requestId = message.params?.requestId;
      const abort = inflight.get(requestId);
      inflight.delete(requestId);
      abort?.();
      return;
    }
    const call = handoff ?? {};
    handoff = undefined;
    exchange(message, call).then(nothing, nothing);
  }, common, "httpClient", McpHttpError);
  // The adapter drives the channel (`receive`, `fail`, `notify`; `close` is not the caller's); the
  // caller gets the rest, with the adapter's `request`, `listen` and `close`.
  const { request, listen: channelListen, receive, fail, close, notify, speak, ...client } = chan;
  /** The session (the generation found, a 2025-11-25 session's id and version; `generation.js`). */
  const s = session(chan, named, { request: (m, p, o) => call(m, p, o, true), notify, discovered: (p) => (discovered = p), clientInfo: common.clientInfo });
  /** What a 2025-11-25 exchange is sent with: its session, `{id, version}` (undefined: the 2026-07-28
   * headers; `version` is set from the session's `initialize` on). */
  const open = () => (s.version !== undefined ? s : undefined);

  /** The headers of a request: the `headers` option's for `method` and `params` (a function's result
   * awaited) under the protocol's, for the session as it is then. */
  async function headersFor(method, params) {
    const user = typeof headers === "function" ? await headers(method, params) : headers;
    return requestHeaders(user, method, params, open());
  }

  /** Fetches `url` with `init`. "manual": a redirect is not followed (see `httpClient`); Node shows it
   * as the 3xx, a browser as an opaque redirect (status 0, no Location to read). */
  function fetchUrl(init) {
    init.redirect = "manual";
    return customFetch ? customFetch(href, init) : globalThis.fetch(href, init);
  }

  /** Throws `lostError()` (marked `sessionLost`, not retryable), which ends the session for good, when
   * HTTP `status` 404 says the server no longer knows the 2025-11-25 session. */
  function checkSessionKnown(status, lostError) {
    if (status === 404 && open()?.id !== undefined) throw s.lost(Object.assign(lostError(), { sessionLost: true, retryable: false }));
  }

  /** POSTs a message nothing answers (a response to a server's request): resolves once accepted. */
  async function post(message) {
    const response = await fetchUrl({ method: "POST", headers: await headersFor(), body: JSON.stringify(message) });
    attempt(() => response.body?.cancel?.().then(nothing, nothing));
    const status = Number(response.status);
    checkSessionKnown(status, () => new McpHttpError("response: HTTP 404: the server no longer knows this session", { status }));
    if (!isSuccess(status)) throw new McpHttpError(`response: HTTP ${status} refused`, { status });
  }

  /** One POST and the reading of its answer into the channel. */
  async function exchange(message, call) {
    const { id, method, params } = message;
    const stream = call.stream;
    const controller = new AbortController();
    /** Whether the exchange is over: it ended, or the channel gave the request up. */
    let gone = false;
    /** The channel gave the request up (it has settled it): close the POST quietly. */
    const abort = () => {
      gone = true;
      attempt(() => controller.abort());
      stream?.opened(new McpHttpError("subscriptions/listen: request aborted"));
      stream?.wake();
    };
    if (id !== undefined) inflight.set(id, abort);
    let status = 0;
    let after;
    /** The `McpHttpError` of this exchange's HTTP answer: `detail`, an excerpt of body `text`, and
     * the fields of `extra`. */
    const httpError = (detail, text, extra) => {
      const body = typeof text === "string" ? text.slice(0, EXCERPT) : "";
      const e = new McpHttpError(`${method}: HTTP ${status} ${detail}`, { status, body });
      if (after !== undefined) e.retryAfterMs = after;
      return Object.assign(e, extra);
    };
    let reader;
    /** Answered on an event stream: the rest of it is read, not cancelled (see `drain`). */
    let drainAfter;
    // What the headers option and a missing fetch throw rejects as it is; what fetching and reading
    // throw (that is not already an McpHttpError) becomes the "network error" McpHttpError.
    let posting;
    try {
      await undefined;
      const init = { method: "POST", headers: await headersFor(method, params), body: undefined, signal: controller.signal };
      if (typeof (customFetch ?? globalThis.fetch) !== "function") throw typeError("no global fetch: pass options.fetch");
      if (gone) return;
      posting = true;
      init.body = JSON.stringify(message);
      const response = await fetchUrl(init);
      if (id === undefined || gone) return;
      const code = Number(response.status);
      const type = response.headers.get("content-type");
      after = retryAfterMs(response.headers.get("retry-after"));
      call.status = status = Number.isFinite(code) ? Math.min(Math.max(Math.trunc(code), 0), 999) : 0;
      if (method === "initialize") call.sessionId = attempt(() => response.headers.get("mcp-session-id")) ?? undefined;
      checkSessionKnown(status, () => httpError("the server no longer knows this session"));
      reader = attempt(() => response.body?.getReader());
      if ((status > 299 && status < 400) || attempt(() => response.type) === "opaqueredirect") {
        const location = attempt(() => response.headers.get("location")) ?? "";
        throw httpError(`redirect${location && ` to ${location}`} refused (not followed)`, undefined, { location });
      }
      const tooLarge = (text) => httpError(`answer larger than ${maxAnswerBytes} bytes (maxAnswerBytes)`, text, { maxAnswerBytes });
      if (!isEventStream(type)) {
        const text = reader ? await readText(reader, maxAnswerBytes, tooLarge) : await response.text();
        if (gone) return;
        const msg = jsonAnswer(text, id, httpError);
        stream?.opened(msg.error);
        receive(msg);
        return;
      }
      stream?.opened();
      // A listen's stream is no one answer: it is read as its notifications are taken.
      const head = await readEvents(reader, requestEvents(id, stream, receive), stream, () => gone, stream ? Infinity : maxAnswerBytes, tooLarge);
      drainAfter = head === undefined && !gone && !stream;
      if (head === undefined || gone) return;
      if (stream) receive({ jsonrpc: "2.0", id, result: {} });
      else fail(id, httpError("stream ended without a response", head));
    } catch (e) {
      if (gone || id === undefined) return;
      const error = posting ? networkError(method, e, status) : e;
      stream?.opened(error);
      fail(id, error);
    } finally {
      gone = true;
      if (inflight.get(id) === abort) inflight.delete(id);
      if (drainAfter) drain(reader).then(nothing, nothing);
      else cancelQuietly(reader);
    }

  }

  /** The session's GET event stream (MCP 2025-11-25), shared by the listens on it (`users`): opened
   * with the first, aborted after the last; `failed` rejects when it cannot be had (a server without
   * one answers 405), breaks or ends. Its messages go to the channel, which hands each listen the
   * `notifications/tasks/status` of its task. */
  let sessionStream;
  function openSessionStream() {
    const controller = new AbortController();
    const g = { users: new Set(), close: () => attempt(() => controller.abort()) };
    // The stream is read until it fails: it never settles otherwise.
    g.failed = (async () => {
      const h = await headersFor();
      h.set("Accept", "text/event-stream");
      h.delete("Content-Type");
      const response = await fetchUrl({ method: "GET", headers: h, signal: controller.signal });
      const status = Number(response.status);
      const reader = attempt(() => response.body?.getReader());
      try {
        if (!isSuccess(status) || !isEventStream(response.headers.get("content-type")) || !reader) {
          throw new McpHttpError(`GET: HTTP ${status}: the session has no event stream`, { status });
        }
        // Every message is the channel's to route; the stream is read until it ends or breaks.
        await readEvents(reader, (msg) => {
          if (isObjectLike(msg)) receive(msg);
        }, undefined, nothing, Infinity);
        throw new McpHttpError("GET: the session's event stream ended", { status });
      } finally {
        cancelQuietly(reader);
      }
    })().catch((e) => {
      if (sessionStream === g) sessionStream = undefined;
      throw networkError("GET", e, 0);
    });
    g.failed.then(nothing, nothing);
    return g;
  }

  /** A listen on a 2025-11-25 session: the channel's (it sends nothing), fed by the session's GET
   * stream; `next()` rejects once that stream fails (the wait then polls). */
  async function sessionListen(params, opts) {
    const it = await channelListen(params, opts);
    const g = (sessionStream ??= openSessionStream());
    g.users.add(it);
    /** This listen is done with the stream (again: nothing); the last one closes it. */
    const leave = () => {
      g.users.delete(it);
      if (g.users.size === 0 && sessionStream === g) {
        sessionStream = undefined;
        g.close();
      }
    };
    const ended = (e) => {
      leave();
      it.return();
      throw e;
    };
    return asyncIterator(
      () => Promise.race([it.next(), g.failed]).then((s) => (s.done && leave(), s), ended),
      () => (leave(), it.return()),
    );
  }

  /** `subscriptions/listen`: resolves once the stream is open (rejects when it is refused or fails
   * first) with an iterator over its notifications; `next()` calls are answered in order. On a
   * 2025-11-25 session: the session's stream (`sessionListen`). */
  function listen(params, opts) {
    if (open()) return sessionListen(params, opts);
    const stream = listenState();
    const started = handing({ stream }, () => channelListen(params, opts));
    return started.then(async (it) => {
      try {
        await stream.open;
      } catch (e) {
        it.return(); // (the channel's return() never rejects)
        throw e;
      }
      let tail = Promise.resolve();
      const step = () => it.next().then((s) => {
        if (!s.done) stream.took();
        return s;
      });
      return asyncIterator(
        () => (tail = tail.then(step, step)),
        () => {
          stream.wake();
          return it.return();
        },
      );
    });
  }

  /** A request through the channel, once the session is open (`raw`: the session's own, at once); a
   * timeout or abort after the response headers came carries their HTTP status. */
  function call(method, params, opts, raw) {
    if (!raw) {
      const opening = s.ready(opts);
      if (opening) return opening.then(() => call(method, params, opts, true));
    }
    const shared = {};
    const p = handing(shared, () => request(method, params, opts));
    return p.then((result) => {
      if (method === "initialize") s.id = shared.sessionId;
      return result;
    }, (e) => {
      if (shared.status && isHttpError(e)) attempt(() => e.status === 0 && (e.status = shared.status));
      throw e;
    });
  }

  let discovered;
  /** `server/discover`, sent once per client; a failure is not cached. */
  function discover(params, opts) {
    if (discovered === undefined) {
      const p = call("server/discover", params, opts);
      discovered = p;
      p.then(nothing, () => {
        if (discovered === p) discovered = undefined;
      });
    }
    return discovered;
  }

  /** Ends the client: a 2025-11-25 session is ended on the server (DELETE; what that answers is
   * dropped), then every pending and later request fails with "the client closed". */
  async function end() {
    // Whether a session is open, to end on the server (it stays the one `open()` sends).
    const ending = s.id !== undefined && !s.gone;
    s.lost(new McpHttpError("the client closed", { retryable: false }));
    sessionStream?.close();
    close();
    if (!ending) return;
    try {
      const response = await fetchUrl({ method: "DELETE", headers: await headersFor() });
      await response.body?.cancel?.();
    } catch {
      // The session ends on the server when its DELETE arrives, or when the server drops it: nothing to add.
    }
  }

  /** The session, once open: `{generation, capabilities}` (the server's, from `server/discover` or
   * `initialize`). Rejects as the opening request does. */
  const opened = (opts) => Promise.resolve(s.ready(opts)).then(() => ({ generation: s.found, capabilities: s.capabilities }));

  // `id`: the server, for the task journal.
  Object.assign(client, { request: call, listen, id: id ?? href, discover, close: end, session: opened });
  Object.defineProperties(client, {
    // What the client found (undefined until its first request): "2026-07-28" or "2025-11-25".
    generation: { get: () => s.found, enumerable: true, configurable: true },
    sessionId: { get: () => s.id, enumerable: true, configurable: true },
  });
  return client;
}

/** The JSON-RPC response to request `id` in a JSON body `text`; throws `httpError(detail, text)` when
 * the body is not JSON or not that response. One request per POST: an error the server could not tie
 * to an id (`id` null or absent) is its answer too. */
function jsonAnswer(text, id, httpError) {
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    throw httpError("body is not JSON", text);
  }
  if (isObjectLike(msg) && msg.error !== undefined && msg.id == null) msg = { jsonrpc: "2.0", id, error: msg.error };
  if (!isResponseTo(msg, id)) throw httpError("body is not a response to this request", text);
  return msg;
}

/** A body's chunk as bytes (a custom `fetch` may give anything). */
function bytesOf(step) {
  if (step.value instanceof Uint8Array) return step.value;
  throw new TypeError("the response body gave a chunk that is not bytes");
}

/** The text of a JSON body (`reader`'s bytes, UTF-8); throws `tooLarge(excerpt)` once more than
 * `limit` bytes came. The bytes are decoded once all came (a body cut short costs no text). */
async function readText(reader, limit, tooLarge) {
  const chunks = [];
  for (let size = 0, step; (step = await reader.read()).done !== true; ) {
    chunks.push(bytesOf(step));
    if ((size += step.value.byteLength) > limit) throw tooLarge(new TextDecoder().decode(chunks[0].subarray(0, EXCERPT)));
  }
  const decoder = new TextDecoder();
  let text = "";
  for (let i = 0; i < chunks.length; i++) {
    text += decoder.decode(chunks[i], { stream: true });
    chunks[i] = undefined;
  }
  return text + decoder.decode();
}

/** What request `id`'s event stream hands `receive` (each message, as `readEvents` gives it): the
 * response (then true: the stream is answered), the server's requests (they belong to this request),
 * and for a listen's stream (`stream`) its notifications, as its own. Anything else is ignored. */
function requestEvents(id, stream, receive) {
  return (msg) => {
    if (isResponseTo(msg, id)) {
      receive(msg);
      return true;
    }
    if (!isObjectLike(msg) || typeof msg.method !== "string") return;
    if (msg.id !== undefined) {
      // A request of the server's, on this request's stream: it belongs to this request.
      if (msg.result === undefined && msg.error === undefined) receive(msg, id);
    } else if (stream) {
      // The notifications of a listen's own stream are its own, whatever the server tagged them.
      const p = isObjectLike(msg.params) ? msg.params : {};
      const meta = isObjectLike(p._meta) ? p._meta : {};
      stream.queued += 1;
      receive({ ...msg, params: { ...p, _meta: { ...meta, [SUBSCRIPTION_ID]: id } } });
    }
  };
}

/** Reads an event stream (`reader`), handing each message event's JSON value (undefined when it is not
 * JSON) to `take` until `take` returns true (the awaited response came) or the stream ends; a listen's
 * stream (`stream`) is read on demand (a chunk once its notifications were taken). Stops when
 * `isGone()`; throws `tooLarge(excerpt)` once more than `limit` bytes came. The stream's first
 * characters (for an error's excerpt) when it ended unanswered; undefined when answered. */
async function readEvents(reader, take, stream, isGone, limit, tooLarge) {
  const decoder = new TextDecoder();
  let head = "";
  let size = 0;
  let answered = false;
  const parser = sseParser((type, data) => {
    if (!answered && (type === "" || type === "message")) answered = take(attempt(() => JSON.parse(data))) === true;
  });
  while (reader && !answered) {
    if (stream) await stream.drained();
    if (isGone()) break;
    const step = await reader.read();
    if (isGone()) break;
    if (step.done === true) {
      parser.finish();
      break;
    }
    const chunk = bytesOf(step);
    if ((size += chunk.byteLength) > limit) throw tooLarge(head);
    const text = decoder.decode(chunk, { stream: true });
    if (head.length < EXCERPT) head += text.slice(0, EXCERPT - head.length);
    if (!parser.push(text)) throw new RangeError("an event of the stream is larger than 8 MB");
  }
  return answered ? undefined : head;
}

/** How long the rest of an answered event stream is read before it is cancelled. */
const DRAIN_MS = 2000;

/** Reads what is left of an event stream whose answer arrived, until the server ends it, so that an
 * answered request ends as a finished response (cancelling its body would show it as failed,
 * `net::ERR_ABORTED`, in DevTools); a stream the server keeps open longer than DRAIN_MS is cancelled. */
async function drain(reader) {
  const timer = setTimeout(() => cancelQuietly(reader), DRAIN_MS);
  // Held here until the end: a body stream nothing reachable refers to is collected, and Chromium
  // then cancels its request (net::ERR_ABORTED after all).
  draining.add(reader);
  try {
    while ((await reader.read()).done !== true);
  } finally {
    clearTimeout(timer);
    draining.delete(reader);
  }
}

/** The readers `drain` is reading. */
const draining = new Set();

/** The `_meta` key a listen's own notifications are tagged with, for the channel to route them. */
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

/** The state of one listen stream between the adapter and its iterator: whether it opened, and how
 * many notifications were handed to the channel and not yet taken (the next chunk is read at 0). */
function listenState() {
  let wake = nothing;
  const s = {
    queued: 0,
    drained: () => (s.queued <= 0 ? undefined : new Promise((resolve) => (wake = resolve))),
    took() {
      s.queued -= 1;
      if (s.queued <= 0) s.wake();
    },
    wake() {
      s.queued = 0;
      const w = wake;
      wake = nothing;
      w();
    },
  };
  /** `open` settles once: `opened()` resolves it, `opened(error)` rejects it. */
  s.open = new Promise((resolve, reject) => {
    s.opened = (error) => (error === undefined ? resolve() : reject(error));
  });
  s.open.then(nothing, nothing);
  return s;
}
