// Wire probe for the MCP 2025-11-25 interop server (server.mjs, @modelcontextprotocol/sdk 1.32.2).
// Usage: node tests/servers/sdk/probe.mjs [--verbose]
// Starts the server itself (HTTP in three modes, and stdio), checks each wire fact listed in
// shared/notes/real-servers.md ("Servers on 2025-11-25") and README.md here with raw fetch and raw
// stdio lines, prints one PASS/FAIL line per check, and exits 1 if any check failed.
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { sdkStdioSpec, startSdkServer } from "./launch.mjs";

const VERBOSE = process.argv.includes("--verbose");
const POLL = 100;
const PV = "2025-11-25";
const ACCEPT = "application/json, text/event-stream";
const RELATED = "io.modelcontextprotocol/related-task";
const TASK_KEYS = ["taskId", "status", "ttl", "createdAt", "lastUpdatedAt", "pollInterval"];
const CLIENT_CAPS = { elicitation: { form: {}, url: {} }, sampling: {}, roots: { listChanged: true } };
const T0 = Date.now();

let passed = 0;
let failed = 0;
function check(cond, what, detail) {
  if (cond) {
    passed++;
    console.log(`PASS ${what}`);
  } else {
    failed++;
    console.log(`FAIL ${what}${detail === undefined ? "" : " :: " + JSON.stringify(detail)?.slice(0, 800)}`);
  }
  return cond;
}
const info = (line) => console.log(`INFO ${line}`);
const debug = (line) => VERBOSE && console.log(`  .. ${line}`);
const texts = (r) => (r?.content ?? []).filter((c) => c.type === "text").map((c) => c.text);
const sameKeys = (obj, keys) => JSON.stringify(Object.keys(obj ?? {}).sort()) === JSON.stringify([...keys].sort());
const isIso = (s) => typeof s === "string" && !Number.isNaN(Date.parse(s));
const isRequest = (m) => m && typeof m.method === "string" && m.id !== undefined;
const isNotification = (m) => m && typeof m.method === "string" && m.id === undefined;

/** JSON-RPC messages of one HTTP response, read as they arrive (SSE) or at once (JSON). */
class Messages {
  constructor(res, abort) {
    this.res = res;
    this.abort = abort;
    this.status = res.status;
    this.headers = res.headers;
    this.ctype = res.headers.get("content-type") ?? "";
    this.queue = [];
    this.waiters = [];
    this.ended = false;
    this.comments = 0;
    this.all = [];
    this.done = this.pump();
  }
  async pump() {
    try {
      if (this.ctype.includes("text/event-stream")) {
        const events = this.res.body
          .pipeThrough(new TextDecoderStream())
          .pipeThrough(new EventSourceParserStream({ onComment: () => this.comments++ }));
        for await (const ev of events) if (ev.data) this.push(JSON.parse(ev.data));
      } else {
        const body = await this.res.text();
        this.raw = body;
        if (body) {
          const parsed = JSON.parse(body);
          for (const m of Array.isArray(parsed) ? parsed : [parsed]) this.push(m);
        }
      }
    } catch (e) {
      if (e.name !== "AbortError") this.error = e;
    }
    this.ended = true;
    for (const w of this.waiters.splice(0)) w();
  }
  push(m) {
    debug(`<- ${JSON.stringify(m).slice(0, 300)}`);
    this.all.push(m);
    this.queue.push(m);
    for (const w of this.waiters.splice(0)) w();
  }
  /** The next message, or null when the stream has ended, or "timeout" after ms. */
  async next(ms = 5000) {
    const deadline = Date.now() + ms;
    for (;;) {
      if (this.queue.length) return this.queue.shift();
      if (this.ended) return null;
      const left = deadline - Date.now();
      if (left <= 0) return "timeout";
      await Promise.race([new Promise((r) => this.waiters.push(r)), sleep(left)]);
    }
  }
  /** Reads until the response with `id` (other messages stay in `this.all`); null/"timeout" as next(). */
  async response(id, ms = 5000) {
    const deadline = Date.now() + ms;
    for (;;) {
      const m = await this.next(Math.max(0, deadline - Date.now()));
      // Transport-level errors (no session, bad header) carry id null.
      if (m === null || m === "timeout" || (!m.method && (m.id === id || (m.id === null && m.error)))) return m;
    }
  }
  close() {
    this.abort.abort();
  }
}

/** A raw HTTP client of one MCP session. */
class HttpSession {
  constructor(url) {
    this.url = url;
    this.sid = undefined;
    this.nextId = 1;
  }
  headers(extra = {}) {
    return {
      "content-type": "application/json",
      accept: ACCEPT,
      "mcp-protocol-version": PV,
      ...(this.sid ? { "mcp-session-id": this.sid } : {}),
      ...extra,
    };
  }
  async post(body, { headers = {}, drop = [] } = {}) {
    const h = this.headers(headers);
    for (const k of drop) delete h[k];
    const abort = new AbortController();
    debug(`-> POST ${JSON.stringify(body).slice(0, 200)}`);
    const res = await fetch(this.url, { method: "POST", headers: h, body: JSON.stringify(body), signal: abort.signal });
    return new Messages(res, abort);
  }
  /** Sends a request; returns its Messages (the stream) with `.id`. */
  async open(method, params, opts) {
    const id = this.nextId++;
    const msgs = await this.post({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }, opts);
    msgs.id = id;
    return msgs;
  }
  /** Sends a request and waits for its response: {status, headers, ctype, msg, stream}. */
  async rpc(method, params, opts = {}) {
    const stream = await this.open(method, params, opts);
    const msg = await stream.response(stream.id, opts.timeoutMs ?? 5000);
    return { status: stream.status, headers: stream.headers, ctype: stream.ctype, msg, stream };
  }
  async notify(method, params) {
    const m = await this.post({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
    await m.done;
    return m.status;
  }
  async answer(id, result) {
    const m = await this.post({ jsonrpc: "2.0", id, result });
    await m.done;
    return m.status;
  }
  async init(capabilities = CLIENT_CAPS) {
    const r = await this.rpc("initialize", { protocolVersion: PV, capabilities, clientInfo: { name: "probe", version: "0" } }, { drop: ["mcp-protocol-version"] });
    this.sid = r.headers.get("mcp-session-id") ?? undefined;
    r.initializedStatus = await this.notify("notifications/initialized");
    return r;
  }
  /** Opens the session's GET stream (its standalone SSE stream). */
  async listen() {
    const abort = new AbortController();
    const res = await fetch(this.url, { method: "GET", headers: { accept: "text/event-stream", ...(this.sid ? { "mcp-session-id": this.sid } : {}) }, signal: abort.signal });
    return new Messages(res, abort);
  }
  async del(sid = this.sid) {
    const res = await fetch(this.url, { method: "DELETE", headers: { "mcp-session-id": sid, "mcp-protocol-version": PV } });
    await res.text();
    return res.status;
  }
  /** tools/call with a task; returns the created task (or the whole answer as `.msg` when not). */
  async createTask(name, args = {}, task = { ttl: 30_000 }, meta) {
    const r = await this.rpc("tools/call", { name, arguments: args, task, ...(meta ? { _meta: meta } : {}) });
    return { ...r, task: r.msg?.result?.task };
  }
  async getTask(taskId) {
    return (await this.rpc("tasks/get", { taskId })).msg;
  }
  /** Polls tasks/get until pred(task) (or an error); returns the last answer. */
  async pollUntil(taskId, pred, ms = 5000) {
    const deadline = Date.now() + ms;
    let last;
    while (Date.now() < deadline) {
      last = await this.getTask(taskId);
      if (!last?.result || pred(last.result)) return last;
      await sleep(POLL / 2);
    }
    return last;
  }
}

const initialized = async (url) => {
  const s = new HttpSession(url);
  await s.init();
  return s;
};

// ---------------------------------------------------------------------------------------------
async function handshakeAndSessions(url) {
  const s = new HttpSession(url);
  const init = await s.init();
  check(init.status === 200, "initialize: HTTP 200", init.status);
  check(init.ctype.startsWith("text/event-stream"), "initialize: answered as SSE", init.ctype);
  check(typeof s.sid === "string" && s.sid.length > 0, "initialize: Mcp-Session-Id header", s.sid);
  const res = init.msg?.result;
  check(res?.protocolVersion === PV, "initialize: protocolVersion 2025-11-25", res);
  check(
    JSON.stringify(res?.capabilities?.tasks) === JSON.stringify({ list: {}, cancel: {}, requests: { tools: { call: {} } } }),
    "initialize: capabilities.tasks = {list, cancel, requests.tools.call}",
    res?.capabilities,
  );
  check((await init.stream.next(2000)) === null, "initialize: the SSE stream ends after its one event", init.stream.all);
  check(init.initializedStatus === 202, "notifications/initialized: HTTP 202", init.initializedStatus);

  const noPv = await s.rpc("tools/list", {}, { drop: ["mcp-protocol-version"] });
  check(noPv.status === 200 && Array.isArray(noPv.msg?.result?.tools), "MCP-Protocol-Version header optional after initialize", noPv.status);

  const noSession = await new HttpSession(url).rpc("tools/list", {});
  check(noSession.status === 400 && noSession.msg?.error?.code === -32000 && /No valid session ID/.test(noSession.msg?.error?.message), "no session: 400 -32000 \"No valid session ID\"", { s: noSession.status, m: noSession.msg });
  const unknown = new HttpSession(url);
  unknown.sid = "00000000-0000-0000-0000-000000000000";
  const unk = await unknown.rpc("tools/list", {});
  check(unk.status === 404 && unk.msg?.error?.code === -32001, "unknown session: 404 -32001", { s: unk.status, m: unk.msg });
  const acc = await s.rpc("tools/list", {}, { headers: { accept: "application/json" } });
  check(acc.status === 406, "Accept without text/event-stream: 406", acc.status);
  const pv26 = await s.rpc("tools/list", {}, { headers: { "mcp-protocol-version": "2026-07-28" } });
  check(pv26.status === 400 && /Unsupported protocol version/.test(pv26.msg?.error?.message), "MCP-Protocol-Version 2026-07-28: 400 \"Unsupported protocol version\"", { s: pv26.status, m: pv26.msg });
  const disc = await new HttpSession(url).rpc("server/discover", {}, { headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" } });
  check(disc.status === 400 && disc.msg?.error?.code === -32000, "server/discover without a session (a 2026 client's first request): 400 -32000", { s: disc.status, m: disc.msg });
  const discIn = await s.rpc("server/discover", {});
  check(discIn.status === 200 && discIn.msg?.error?.code === -32601, "server/discover inside a session: -32601 (HTTP 200)", { s: discIn.status, m: discIn.msg });
  const reinit = await s.rpc("initialize", { protocolVersion: PV, capabilities: {}, clientInfo: { name: "probe", version: "0" } });
  check(reinit.status === 400 && reinit.msg?.error?.code === -32600, "initialize again in a session: 400 -32600", { s: reinit.status, m: reinit.msg });

  const get1 = await s.listen();
  check(get1.status === 200 && get1.ctype.startsWith("text/event-stream"), "GET with session: 200 SSE stream", { s: get1.status, c: get1.ctype });
  const get2 = await s.listen();
  check(get2.status === 409, "a second GET stream in the same session: 409", get2.status);
  get1.close();
  const getNo = await new HttpSession(url).listen();
  check(getNo.status === 400, "GET without session: 400", getNo.status);

  // CORS for a page on another localhost origin.
  const origin = "http://localhost:5173";
  const asked = "content-type,accept,mcp-protocol-version,mcp-session-id,last-event-id,authorization,mcp-method,mcp-name,mcp-param-x";
  const pre = await fetch(url, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": asked } });
  check(pre.status === 204 || pre.status === 200, "CORS preflight answered (204)", pre.status);
  check(pre.headers.get("access-control-allow-origin") === origin, "CORS preflight: allow-origin = the page's origin", pre.headers.get("access-control-allow-origin"));
  const allowed = (pre.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(",");
  check(asked.split(",").every((h) => allowed.includes(h)), "CORS preflight: allows every asked header", allowed);
  check(/DELETE/.test(pre.headers.get("access-control-allow-methods") ?? ""), "CORS preflight: allows DELETE", pre.headers.get("access-control-allow-methods"));
  const corsPost = await s.rpc("tools/list", {}, { headers: { origin } });
  const exposed = (corsPost.headers.get("access-control-expose-headers") ?? "").toLowerCase();
  check(corsPost.headers.get("access-control-allow-origin") === origin && exposed.includes("mcp-session-id"), "CORS POST: allow-origin and expose Mcp-Session-Id", Object.fromEntries(corsPost.headers));
  const corsErr = await new HttpSession(url).rpc("tools/list", {}, { headers: { origin } });
  check(corsErr.status === 400 && corsErr.headers.get("access-control-allow-origin") === origin, "CORS on a session error (400) too", Object.fromEntries(corsErr.headers));

  const del = await s.del();
  check(del === 200, "DELETE ends the session: 200", del);
  const after = await s.rpc("tools/list", {});
  check(after.status === 404 && after.msg?.error?.code === -32001, "a request on the deleted session: 404 -32001", { s: after.status, m: after.msg });
  check((await s.del()) === 404, "DELETE again: 404", null);
}

async function toolsList(url) {
  const s = await initialized(url);
  const r = await s.rpc("tools/list", {});
  const got = Object.fromEntries((r.msg?.result?.tools ?? []).map((t) => [t.name, t.execution?.taskSupport]));
  const want = {
    slow: "optional", ask: "optional", ask_url: "optional", sample: "optional", roots: "optional",
    fail_result: "optional", fail_status: "optional", forever: "optional", required_task: "required",
    tool_error: "optional", progress: "optional", echo: "forbidden",
  };
  check(JSON.stringify(got) === JSON.stringify(want), "tools/list: execution.taskSupport of every tool", got);
  await s.del();
}

async function taskLifecycle(url) {
  const s = await initialized(url);
  const listen = await s.listen();
  const t0 = Date.now();
  const c = await s.createTask("slow", { ms: 600 });
  const t = c.task;
  check(c.status === 200 && c.ctype.startsWith("text/event-stream"), "tools/call with task: 200 SSE", { s: c.status, c: c.ctype });
  check(sameKeys(c.msg?.result, ["task"]), "CreateTaskResult: {task} only (no resultType, no _meta)", c.msg?.result);
  check(sameKeys(t, TASK_KEYS), "CreateTaskResult.task: taskId, status, ttl, createdAt, lastUpdatedAt, pollInterval", t);
  check(t?.status === "working" && t.ttl === 30_000 && t.pollInterval === POLL && isIso(t.createdAt) && t.createdAt === t.lastUpdatedAt, "CreateTaskResult.task: working, the ttl asked, the server's pollInterval", t);
  check((await c.stream.next(1000)) === null, "the tools/call stream ends after the CreateTaskResult", c.stream.all);
  const g = await s.getTask(t.taskId);
  check(sameKeys(g?.result, TASK_KEYS) && g.result.status === "working", "tasks/get: the same task object, working", g);
  const res = await s.rpc("tasks/result", { taskId: t.taskId }, { timeoutMs: 5000 });
  const waited = Date.now() - t0;
  check(waited >= 550, `tasks/result blocks until the task ends (${waited} ms for slow 600)`, waited);
  check(texts(res.msg?.result)[0] === "slept 600 ms", "tasks/result: the CallToolResult", res.msg);
  check(res.msg?.result?._meta?.[RELATED]?.taskId === t.taskId, "tasks/result: _meta related-task = the task", res.msg?.result?._meta);
  check(res.stream.all.length === 1, "tasks/result stream of a task without input: only the response", res.stream.all);
  const done = await s.getTask(t.taskId);
  check(done?.result?.status === "completed" && Date.parse(done.result.lastUpdatedAt) > Date.parse(done.result.createdAt), "tasks/get after: completed, lastUpdatedAt moved", done);
  const again = await s.rpc("tasks/result", { taskId: t.taskId });
  check(texts(again.msg?.result)[0] === "slept 600 ms", "tasks/result again on a completed task: the same result", again.msg);
  await sleep(50);
  const statuses = listen.all.filter((m) => m.method === "notifications/tasks/status");
  check(statuses.length === 1 && statuses[0].params?.status === "completed" && sameKeys(statuses[0].params, TASK_KEYS), "GET stream: one notifications/tasks/status (completed, params = the whole task); none for working", listen.all);
  listen.close();
  await s.del();
}

async function endings(url, stderr) {
  const s = await initialized(url);
  const listen = await s.listen();
  const statusesOf = (taskId) => listen.all.filter((m) => m.method === "notifications/tasks/status" && m.params?.taskId === taskId);
  {
    const t = (await s.createTask("fail_result")).task;
    const r = await s.rpc("tasks/result", { taskId: t.taskId });
    check(r.msg?.result?.isError === true && texts(r.msg.result)[0] === "fail_result: deliberate failure", "fail_result: tasks/result gives the stored result (isError: true)", r.msg);
    const g = await s.getTask(t.taskId);
    check(g?.result?.status === "failed" && !("statusMessage" in g.result), "fail_result: tasks/get failed, no statusMessage", g);
  }
  {
    const t = (await s.createTask("fail_status")).task;
    const r = await s.rpc("tasks/result", { taskId: t.taskId });
    check(r.msg?.error?.code === -32603 && /has no result stored/.test(r.msg.error.message), "fail_status: tasks/result -32603 \"… has no result stored\"", r.msg);
    const g = await s.getTask(t.taskId);
    check(g?.result?.status === "failed" && g.result.statusMessage === "fail_status: deliberate failure", "fail_status: tasks/get failed with the statusMessage", g);
    const n = statusesOf(t.taskId);
    check(n.length === 1 && n[0].params.status === "failed" && n[0].params.statusMessage === g?.result?.statusMessage, "fail_status: one notifications/tasks/status (failed, with the statusMessage)", n);
  }
  {
    const t = (await s.createTask("tool_error")).task;
    const r = await s.rpc("tasks/result", { taskId: t.taskId });
    const g = await s.getTask(t.taskId);
    check(g?.result?.status === "completed" && r.msg?.result?.isError === true, "tool_error: completed, result isError: true", { g, r: r.msg });
  }
  {
    const t = (await s.createTask("required_task")).task;
    const r = await s.rpc("tasks/result", { taskId: t.taskId });
    check(texts(r.msg?.result)[0] === "required_task: done", "required_task with task: completes", r.msg);
    const plain = await s.rpc("tools/call", { name: "required_task", arguments: {} });
    check(plain.msg?.result?.isError === true && /requires task augmentation/.test(texts(plain.msg.result)[0]), "required_task without task: an isError CallToolResult (not a JSON-RPC error)", plain.msg);
    const opt = await s.rpc("tools/call", { name: "slow", arguments: { ms: 50 } });
    check(texts(opt.msg?.result)[0] === "slept 50 ms" && !("task" in (opt.msg?.result ?? {})), "optional tool without task: the plain result", opt.msg);
  }
  {
    const t = (await s.createTask("forever")).task;
    const waiting = await s.open("tasks/result", { taskId: t.taskId });
    await sleep(300);
    const mid = await s.getTask(t.taskId);
    check(mid?.result?.status === "working", "forever: still working after 300 ms", mid);
    const c = await s.rpc("tasks/cancel", { taskId: t.taskId });
    const ct = c.msg?.result;
    check(ct?.status === "cancelled" && ct.taskId === t.taskId && ct.statusMessage === "Client cancelled task execution.", "tasks/cancel: answers the task, cancelled, statusMessage \"Client cancelled task execution.\"", c.msg);
    check(JSON.stringify(ct?._meta) === "{}", "tasks/cancel: the answer carries an empty _meta", ct);
    const open = await waiting.response(waiting.id, 2000);
    check(open?.error?.code === -32603, "a tasks/result open during the cancel: -32603 (no result stored)", open);
    const again = await s.rpc("tasks/cancel", { taskId: t.taskId });
    check(again.msg?.error?.code === -32602 && /terminal status/.test(again.msg.error.message), "tasks/cancel again: -32602 \"Cannot cancel task in terminal status\"", again.msg);
    const g = await s.getTask(t.taskId);
    check(g?.result?.status === "cancelled", "tasks/get after cancel: cancelled", g);
    await sleep(2 * POLL);
    check(statusesOf(t.taskId).length === 0, "tasks/cancel sends no notifications/tasks/status", statusesOf(t.taskId));
  }
  {
    // An optional tool that asks for input, called without task: the SDK runs it as a task of its own
    // (automatic polling) and the request is queued for that task, which the caller does not know.
    const plain = await s.open("tools/call", { name: "ask", arguments: {} });
    const silent = await plain.next(1500);
    check(silent === "timeout", "ask (optional) called without task: nothing on the tools/call stream for 1.5 s (the elicitation is queued for a hidden task)", silent);
    const hidden = ((await s.rpc("tasks/list", {})).msg?.result?.tasks ?? []).filter((x) => x.status === "input_required");
    check(hidden.length === 1, "… the hidden task shows in tasks/list, input_required", hidden);
    if (hidden[0]) await s.rpc("tasks/cancel", { taskId: hidden[0].taskId });
    const after = await plain.response(plain.id, 2000);
    check(after?.result?.isError === true, "… cancelling it ends the plain call with an isError result", after);
  }
  {
    const before = stderr().split("echo ran").length;
    const r = await s.rpc("tools/call", { name: "echo", arguments: { text: "x" }, task: { ttl: 30_000 } });
    await sleep(50);
    const ran = stderr().split("echo ran").length - before;
    check(r.msg?.error?.code === -32602 && /Invalid task creation result/.test(r.msg.error.message), "forbidden tool called with task: -32602 \"Invalid task creation result\"", r.msg);
    check(ran === 1, "… and the tool ran anyway (its result thrown away)", ran);
    const plain = await s.rpc("tools/call", { name: "echo", arguments: { text: "hi" } });
    check(texts(plain.msg?.result)[0] === "hi", "echo without task: answers at once", plain.msg);
  }
  for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
    const r = await s.rpc(method, { taskId: "no-such-task" });
    check(r.msg?.error?.code === -32602, `${method} of an unknown task: -32602`, r.msg);
  }
  listen.close();
  await s.del();
}

/** One input round through tasks/result: the request it carries, the answer, the final result. */
async function inputRound(url, tool, answer, expectText, checkRequest) {
  const s = await initialized(url);
  const listen = await s.listen();
  const t = (await s.createTask(tool)).task;
  const ir = await s.pollUntil(t.taskId, (x) => x.status === "input_required");
  check(ir?.result?.status === "input_required" && sameKeys(ir.result, TASK_KEYS), `${tool}: tasks/get input_required (no inputRequests in the task)`, ir);
  await sleep(3 * POLL);
  check(!listen.all.some(isRequest), `${tool}: nothing but notifications on the GET stream while input_required`, listen.all);
  const stream = await s.open("tasks/result", { taskId: t.taskId });
  const req = await stream.next(3000);
  check(isRequest(req) && typeof req.id === "number", `${tool}: the tasks/result stream carries the server→client request`, req);
  check(req?.params?._meta?.[RELATED]?.taskId === t.taskId, `${tool}: … with _meta related-task`, req?.params?._meta);
  checkRequest(req);
  const status = await s.answer(req?.id, answer);
  check(status === 202, `${tool}: the answer POSTed as a JSON-RPC response: 202`, status);
  const fin = await stream.response(stream.id, 5000);
  check(texts(fin?.result)[0] === expectText, `${tool}: the same stream then carries the result "${expectText}"`, fin);
  const g = await s.getTask(t.taskId);
  check(g?.result?.status === "completed", `${tool}: completed`, g);
  const seen = listen.all.filter((m) => m.method === "notifications/tasks/status").map((m) => m.params.status);
  check(JSON.stringify(seen) === JSON.stringify(["input_required", "working", "completed"]), `${tool}: GET stream notifications/tasks/status input_required, working, completed`, seen);
  listen.close();
  await s.del();
}

async function input(url) {
  await inputRound(url, "ask", { action: "accept", content: { name: "Ada" } }, 'ask: accept {"name":"Ada"}', (req) => {
    check(req?.method === "elicitation/create" && req.params?.mode === "form" && req.params?.message === "What is your name?" && req.params?.requestedSchema?.required?.[0] === "name", "ask: elicitation/create form", req);
  });
  await inputRound(url, "ask", { action: "decline" }, "ask: decline null", () => {});
  await inputRound(url, "ask_url", { action: "accept" }, "ask_url: accept", (req) => {
    check(req?.method === "elicitation/create" && req.params?.mode === "url" && typeof req.params?.url === "string" && typeof req.params?.elicitationId === "string", "ask_url: elicitation/create url mode (url, elicitationId)", req);
  });
  await inputRound(url, "sample", { role: "assistant", content: { type: "text", text: "hi" }, model: "probe-model" }, "sample: probe-model hi", (req) => {
    check(req?.method === "sampling/createMessage" && req.params?.maxTokens === 50, "sample: sampling/createMessage", req);
  });
  await inputRound(url, "roots", { roots: [{ uri: "file:///tmp/probe", name: "probe" }] }, 'roots: ["file:///tmp/probe"]', (req) => {
    check(req?.method === "roots/list", "roots: roots/list", req);
  });

  // A request delivered on a tasks/result stream that the client then closes is not delivered again.
  {
    const s = await initialized(url);
    const t = (await s.createTask("ask")).task;
    await s.pollUntil(t.taskId, (x) => x.status === "input_required");
    const first = await s.open("tasks/result", { taskId: t.taskId });
    const req = await first.next(3000);
    first.close();
    const second = await s.open("tasks/result", { taskId: t.taskId });
    const nothing = await second.next(1500);
    check(nothing === "timeout", "a request already delivered on a closed tasks/result stream is not delivered again (1.5 s)", nothing);
    const status = await s.answer(req?.id, { action: "accept", content: { name: "Bo" } });
    const fin = await second.response(second.id, 3000);
    check(status === 202 && texts(fin?.result)[0] === 'ask: accept {"name":"Bo"}', "… its answer POSTed later still reaches the task; the second stream carries the result", { status, fin });
    await s.del();
  }
  // Cancelling a task that waits for input: the queued request is dropped, never delivered.
  {
    const s = await initialized(url);
    const t = (await s.createTask("ask")).task;
    await s.pollUntil(t.taskId, (x) => x.status === "input_required");
    const c = await s.rpc("tasks/cancel", { taskId: t.taskId });
    const r = await s.rpc("tasks/result", { taskId: t.taskId });
    check(c.msg?.result?.status === "cancelled" && r.msg?.error?.code === -32603 && r.stream.all.length === 1, "cancel while input_required: tasks/result -32603, the queued request never delivered", { c: c.msg, r: r.stream.all });
    await s.del();
  }
}

async function listAndSessions(url) {
  const a = await initialized(url);
  const b = await initialized(url);
  const ta = (await a.createTask("slow", { ms: 10 })).task;
  const ids = [];
  for (let i = 0; i < 12; i++) ids.push((await b.createTask("slow", { ms: 10 })).task.taskId);
  const p1 = (await b.rpc("tasks/list", {})).msg?.result;
  check(p1?.tasks?.length === 10 && typeof p1.nextCursor === "string", "tasks/list: 10 a page with nextCursor", { n: p1?.tasks?.length, c: p1?.nextCursor });
  check(sameKeys(p1?.tasks?.[0], TASK_KEYS), "tasks/list: each entry the task object", p1?.tasks?.[0]);
  check(p1?.nextCursor === p1?.tasks?.[9]?.taskId, "tasks/list: nextCursor = the page's last task id", p1?.nextCursor);
  check(JSON.stringify(p1?._meta) === "{}", "tasks/list: the answer carries an empty _meta", p1);
  const p2 = (await b.rpc("tasks/list", { cursor: p1?.nextCursor })).msg?.result;
  check(p2?.tasks?.length === 2 && !("nextCursor" in p2), "tasks/list page 2: the last 2, no nextCursor", p2);
  const listed = [...(p1?.tasks ?? []), ...(p2?.tasks ?? [])].map((t) => t.taskId);
  check(JSON.stringify(listed) === JSON.stringify(ids), "tasks/list: the session's own tasks, in creation order", { listed, ids });
  const bad = await b.rpc("tasks/list", { cursor: "nope" });
  check(bad.msg?.error?.code === -32602, "tasks/list with an unknown cursor: -32602", bad.msg);
  const other = await b.getTask(ta.taskId);
  check(other?.error?.code === -32602, "another session's task: tasks/get -32602", other);
  const otherCancel = await b.rpc("tasks/cancel", { taskId: ta.taskId });
  check(otherCancel.msg?.error?.code === -32602, "another session's task: tasks/cancel -32602", otherCancel.msg);
  await a.del();
  // Tasks outlive their session in the store, but no other session can see them.
  const c = await initialized(url);
  check((await c.getTask(ta.taskId))?.error?.code === -32602, "a deleted session's task is not found from a new session", null);
  await b.del();
  await c.del();
}

async function ttl(url) {
  const s = await initialized(url);
  {
    const t = (await s.createTask("slow", { ms: 3000 }, { ttl: 400 })).task;
    const open = await s.open("tasks/result", { taskId: t.taskId });
    const r = await open.response(open.id, 3000);
    check(r?.error?.code === -32602 && /not found/i.test(r.error.message), "ttl 400 on a 3 s task: the open tasks/result ends -32602 when the store deletes it (still working)", r);
    const g = await s.getTask(t.taskId);
    check(g?.error?.code === -32602, "… and tasks/get: -32602", g);
  }
  {
    const t0 = Date.now();
    const t = (await s.createTask("slow", { ms: 500 }, { ttl: 1000 })).task;
    await sleep(1300 - (Date.now() - t0));
    const mid = await s.getTask(t.taskId);
    check(mid?.result?.status === "completed", "ttl 1000 on a 500 ms task: still there at 1.3 s (the ttl restarts when the task ends)", mid);
    await sleep(2200 - (Date.now() - t0));
    const gone = await s.getTask(t.taskId);
    check(gone?.error?.code === -32602, "… gone at 2.2 s", gone);
  }
  {
    const t = (await s.createTask("slow", { ms: 10 }, {})).task;
    check(t?.ttl === null, "task: {} (no ttl) on a server without a default: ttl null (never deleted)", t);
  }
  await s.del();
}

async function progress(url) {
  for (const via of ["request", "task", "session"]) {
    const s = await initialized(url);
    const listen = await s.listen();
    const token = `p-${via}`;
    const c = await s.createTask("progress", { steps: 3, via }, { ttl: 30_000 }, { progressToken: token });
    await c.stream.done;
    const r = await s.rpc("tasks/result", { taskId: c.task.taskId });
    await sleep(50);
    const on = (msgs) => msgs.filter((m) => m.method === "notifications/progress" && m.params?.progressToken === token).length;
    const where = { call: on(c.stream.all), result: on(r.stream.all), get: on(listen.all) };
    const said = texts(r.msg?.result)[0];
    info(`progress via ${via}: tools/call stream ${where.call}, tasks/result stream ${where.result}, GET stream ${where.get}; tool says "${said}"`);
    if (via === "request") check(where.call + where.result + where.get === 0 && /No connection established/.test(said), "progress via extra.sendNotification in a task: delivered nowhere (the send throws: the tools/call stream has ended)", { where, said });
    if (via === "task") check(where.result === 3 && where.get === 0 && where.call === 0, "progress with relatedTask: all 3 on the tasks/result stream", { where, said });
    if (via === "session") check(where.get === 3 && where.result === 0 && where.call === 0, "progress without a related request: all 3 on the GET stream", { where, said });
    listen.close();
    await s.del();
  }
}

async function jsonMode(url) {
  const s = new HttpSession(url);
  const init = await s.init();
  check(init.ctype.startsWith("application/json") && init.msg?.result?.protocolVersion === PV && !!s.sid, "--json-response: initialize answered as JSON, with the session header", { c: init.ctype, m: init.msg });
  const c = await s.createTask("slow", { ms: 300 }, {});
  check(c.ctype.startsWith("application/json") && c.task?.status === "working", "--json-response: CreateTaskResult as JSON", c.msg);
  check(c.task?.ttl === 1500, "--ttl-default 1500: task: {} gets ttl 1500", c.task);
  const r = await s.rpc("tasks/result", { taskId: c.task?.taskId });
  check(r.ctype.startsWith("application/json") && texts(r.msg?.result)[0] === "slept 300 ms", "--json-response: tasks/result blocks, then JSON", r.msg);
  const t = (await s.createTask("ask")).task;
  await s.pollUntil(t.taskId, (x) => x.status === "input_required");
  // With JSON responses the POST's headers come only with the whole answer: wait on the fetch itself.
  const body = JSON.stringify({ jsonrpc: "2.0", id: 99, method: "tasks/result", params: { taskId: t.taskId } });
  const silent = await fetch(url, { method: "POST", headers: s.headers(), body, signal: AbortSignal.timeout(1500) }).then(
    async (res) => res.text(),
    (e) => (e.name === "TimeoutError" ? "timeout" : String(e)),
  );
  check(silent === "timeout", "--json-response: the input request is never delivered (tasks/result silent for 1.5 s)", silent);
  const still = await s.getTask(t.taskId);
  check(still?.result?.status === "input_required", "--json-response: … the task stays input_required", still);
  await s.del();
}

async function unaware(url) {
  const s = new HttpSession(url);
  const init = await s.init();
  check(init.msg?.result && !("tasks" in init.msg.result.capabilities), "--tasks-unaware: no tasks capability", init.msg?.result?.capabilities);
  const tools = (await s.rpc("tools/list", {})).msg?.result?.tools ?? [];
  check(tools.length === 12 && tools.every((t) => t.execution?.taskSupport === "forbidden"), "--tasks-unaware: the same 12 tools, each taskSupport forbidden", tools.map((t) => [t.name, t.execution]));
  const withTask = await s.rpc("tools/call", { name: "slow", arguments: { ms: 10 }, task: { ttl: 30_000 } });
  check(withTask.msg?.error?.code === -32603, "--tasks-unaware: tools/call with task → -32603", withTask.msg);
  const plain = await s.rpc("tools/call", { name: "slow", arguments: { ms: 10 } });
  check(texts(plain.msg?.result)[0] === "slept 10 ms", "--tasks-unaware: plain call → result", plain.msg);
  const ask = await s.open("tools/call", { name: "ask", arguments: {} });
  const req = await ask.next(3000);
  check(req?.method === "elicitation/create" && !req.params?._meta?.[RELATED], "--tasks-unaware: ask's elicitation/create on the tools/call stream (no related-task)", req);
  await s.answer(req?.id, { action: "accept", content: { name: "Cy" } });
  const fin = await ask.response(ask.id, 3000);
  check(texts(fin?.result)[0] === 'ask: accept {"name":"Cy"}', "--tasks-unaware: … answered, the same stream carries the result", fin);
  const get = await s.rpc("tasks/get", { taskId: "x" });
  check(get.msg?.error?.code === -32601, "--tasks-unaware: tasks/get → -32601", get.msg);
  const fs = await s.rpc("tools/call", { name: "fail_status", arguments: {} });
  check(fs.msg?.result?.isError === true && texts(fs.msg.result)[0] === "fail_status: deliberate failure", "--tasks-unaware: fail_status → an isError result", fs.msg);
  await s.del();
}

/** Raw stdio: one JSON object per line both ways. */
async function stdio() {
  const spec = sdkStdioSpec({ pollMs: POLL });
  const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ["pipe", "pipe", "pipe"] });
  const lines = [];
  const waiters = [];
  let buf = "";
  let nonJson = 0;
  child.stdout.on("data", (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      try {
        const m = JSON.parse(line);
        debug(`<stdio ${line.slice(0, 300)}`);
        lines.push(m);
      } catch {
        nonJson++;
      }
      for (const w of waiters.splice(0)) w();
    }
  });
  const exited = new Promise((r) => child.on("exit", (code) => r(code)));
  const send = (m) => child.stdin.write(JSON.stringify(m) + "\n");
  const until = async (pred, ms = 5000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const m = lines.find(pred);
      if (m) return m;
      if (Date.now() > deadline) return undefined;
      await Promise.race([new Promise((r) => waiters.push(r)), sleep(deadline - Date.now())]);
    }
  };
  try {
    send({ jsonrpc: "2.0", id: "d", method: "server/discover", params: {} });
    const d = await until((m) => m.id === "d");
    check(d?.error?.code === -32601, "stdio: server/discover as the first line → -32601, the connection stays usable", d);
    send({ jsonrpc: "2.0", id: "l0", method: "tools/list", params: {} });
    const l0 = await until((m) => m.id === "l0");
    check(Array.isArray(l0?.result?.tools), "stdio: tools/list before initialize is answered (no handshake enforced)", l0);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: PV, capabilities: CLIENT_CAPS, clientInfo: { name: "probe", version: "0" } } });
    const init = await until((m) => m.id === 1);
    check(init?.result?.protocolVersion === PV && !!init.result.capabilities?.tasks, "stdio: initialize → 2025-11-25 with tasks", init);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow", arguments: { ms: 200 }, task: { ttl: 30_000 } } });
    const task = (await until((m) => m.id === 2))?.result?.task;
    check(task?.status === "working", "stdio: CreateTaskResult", task);
    send({ jsonrpc: "2.0", id: 3, method: "tasks/result", params: { taskId: task?.taskId } });
    const r = await until((m) => m.id === 3);
    check(texts(r?.result)[0] === "slept 200 ms", "stdio: tasks/result → the result", r);
    const status = lines.filter((m) => m.method === "notifications/tasks/status");
    check(status.length === 1 && status[0].params?.status === "completed", "stdio: notifications/tasks/status lines on stdout (completed)", status);

    send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "ask", arguments: {}, task: { ttl: 30_000 } } });
    const askTask = (await until((m) => m.id === 4))?.result?.task;
    await sleep(3 * POLL);
    check(!lines.some((m) => m.method === "elicitation/create"), "stdio: no elicitation/create line before tasks/result", null);
    send({ jsonrpc: "2.0", id: 5, method: "tasks/result", params: { taskId: askTask?.taskId } });
    const req = await until((m) => m.method === "elicitation/create");
    check(req?.params?._meta?.[RELATED]?.taskId === askTask?.taskId && req.id !== undefined, "stdio: the elicitation/create line arrives while tasks/result is pending", req);
    send({ jsonrpc: "2.0", id: req?.id, result: { action: "accept", content: { name: "Di" } } });
    const fin = await until((m) => m.id === 5);
    check(texts(fin?.result)[0] === 'ask: accept {"name":"Di"}', "stdio: the answer line reaches the task; tasks/result → the result", fin);
    check(nonJson === 0, "stdio: nothing but JSON-RPC lines on stdout", nonJson);
    const t0 = Date.now();
    child.stdin.end();
    const code = await Promise.race([exited, sleep(3000).then(() => "timeout")]);
    check(code === 0, `stdio: stdin EOF → exit 0 (${Date.now() - t0} ms)`, code);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}

async function main() {
  const [main, json, unawareServer] = await Promise.all([
    startSdkServer({ pollMs: POLL, trace: true }),
    startSdkServer({ pollMs: POLL, jsonResponse: true, ttlDefault: 1500 }),
    startSdkServer({ pollMs: POLL, tasksUnaware: true }),
  ]);
  info(`servers ${main.url} ${json.url} (--json-response --ttl-default 1500) ${unawareServer.url} (--tasks-unaware), ready in ${Date.now() - T0} ms`);
  const sections = [
    ["handshake and sessions", () => handshakeAndSessions(main.url)],
    ["tools/list", () => toolsList(main.url)],
    ["task lifecycle", () => taskLifecycle(main.url)],
    ["endings", () => endings(main.url, main.stderr)],
    ["input", () => input(main.url)],
    ["tasks/list and sessions", () => listAndSessions(main.url)],
    ["ttl", () => ttl(main.url)],
    ["progress", () => progress(main.url)],
    ["json responses", () => jsonMode(json.url)],
    ["tasks-unaware", () => unaware(unawareServer.url)],
    ["stdio", () => stdio()],
  ];
  try {
    for (const [name, run] of sections) {
      const t = Date.now();
      try {
        await run();
      } catch (e) {
        check(false, `${name}: crashed`, String(e?.stack ?? e));
      }
      info(`${name}: ${Date.now() - t} ms`);
    }
  } finally {
    await Promise.all([main.stop(), json.stop(), unawareServer.stop()]);
  }
  console.log(`${passed} passed, ${failed} failed`);
  info(`total ${Date.now() - T0} ms`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error("probe crashed:", e);
  process.exit(1);
});
