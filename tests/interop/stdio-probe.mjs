// Wire-level probe of the two real Tasks servers over stdio (MCP 2026-07-28 + io.modelcontextprotocol/tasks).
// Plain Node, no library: spawns each server with child_process.spawn, writes newline-delimited
// JSON-RPC to stdin (numeric ids, the 2026-07-28 `_meta` on every request from the first line),
// reads stdout line by line, walks the scenario list and prints a concise report.
//
//   node tests/interop/stdio-probe.mjs [--only rmcp|fastmcp] [--verbose] [--json] [--no-prepare]
//
// Exit 0 when every expected scenario passed, 1 otherwise, 2 on the global timeout. Every child is
// killed (SIGKILL by pid) on exit, on a signal and on the global timeout.
import { spawn } from "node:child_process";
import { stdioServers } from "./stdio-servers.mjs";

const argv = process.argv.slice(2);
const VERBOSE = argv.includes("--verbose");
const JSON_OUT = argv.includes("--json");
const ONLY = argv.includes("--only") ? argv[argv.indexOf("--only") + 1] : null;
const GLOBAL_TIMEOUT_MS = 180_000;
const REQUEST_TIMEOUT_MS = 10_000;

const PV = "2026-07-28";
const TASKS_EXT = "io.modelcontextprotocol/tasks";
const clientInfo = { name: "stdio-probe", version: "0.1.0" };
const meta = (caps = { extensions: { [TASKS_EXT]: {} } }) => ({
  "io.modelcontextprotocol/protocolVersion": PV,
  "io.modelcontextprotocol/clientInfo": clientInfo,
  "io.modelcontextprotocol/clientCapabilities": caps,
});
const META = meta();
const META_NO_TASKS = meta({});

// ---------------------------------------------------------------------------------------------
// Child bookkeeping: whatever happens, every child dies with us.
// ---------------------------------------------------------------------------------------------
const children = new Set();
function killAll() {
  for (const c of children) {
    try {
      process.kill(c.pid, "SIGKILL");
    } catch {}
  }
  children.clear();
}
process.on("exit", killAll);
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(sig, () => { killAll(); process.exit(130); });
process.on("uncaughtException", (e) => { console.error(`stdio-probe: uncaught ${e?.stack ?? e}`); killAll(); process.exit(1); });
const globalTimer = setTimeout(() => {
  console.error(`stdio-probe: global timeout ${GLOBAL_TIMEOUT_MS} ms, killing children`);
  killAll();
  process.exit(2);
}, GLOBAL_TIMEOUT_MS);
globalTimer.unref();

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const show = (v, n = 300) => {
  const s = JSON.stringify(v);
  return s && s.length > n ? `${s.slice(0, n)}…` : s;
};

// ---------------------------------------------------------------------------------------------
// One stdio connection (one child process)
// ---------------------------------------------------------------------------------------------
class Conn {
  constructor(spec, label) {
    this.spec = spec;
    this.label = label;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, sent}
    this.arrivals = []; // ids in arrival order
    this.responses = new Map(); // id -> message (also late ones)
    this.unsolicited = []; // server notifications / requests / responses to unknown ids
    this.nonJson = []; // stdout lines that are not a JSON object
    this.blankLines = 0;
    this.stderr = [];
    this.stdoutBytes = 0;
    this.t0 = performance.now();
    this.exit = null;
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...(spec.env ?? {}) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child = child;
    children.add(child);
    this.exited = new Promise((resolve) => {
      child.on("exit", (code, signal) => {
        children.delete(child);
        this.exit = { code, signal, atMs: this.now() };
        for (const [, p] of this.pending) p.resolve(null);
        this.pending.clear();
        resolve(this.exit);
      });
    });
    child.on("error", (e) => this.stderr.push({ atMs: this.now(), text: `spawn error: ${e.message}` }));
    child.stdin.on("error", () => {}); // EPIPE after the child died
    let buf = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (d) => {
      this.stdoutBytes += Buffer.byteLength(d);
      buf += d;
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        this.onLine(line);
      }
    });
    child.stdout.on("end", () => { if (buf.length) { this.onLine(buf); this.unterminated = buf; buf = ""; } });
    let ebuf = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (d) => {
      ebuf += d;
      let i;
      while ((i = ebuf.indexOf("\n")) >= 0) {
        this.stderr.push({ atMs: this.now(), text: ebuf.slice(0, i) });
        ebuf = ebuf.slice(i + 1);
      }
    });
    child.stderr.on("end", () => { if (ebuf) this.stderr.push({ atMs: this.now(), text: ebuf }); });
  }

  now() {
    return Math.round(performance.now() - this.t0);
  }

  onLine(line) {
    if (VERBOSE) console.log(`  [${this.label} <- ${this.now()}ms] ${line.slice(0, 400)}`);
    if (line.trim() === "") {
      this.blankLines += 1;
      return;
    }
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      this.nonJson.push(line);
      return;
    }
    if (msg === null || typeof msg !== "object" || Array.isArray(msg)) {
      this.nonJson.push(line);
      return;
    }
    if (msg.method !== undefined || !("id" in msg)) {
      this.unsolicited.push(msg);
      return;
    }
    this.arrivals.push(msg.id);
    this.responses.set(msg.id, msg);
    const p = this.pending.get(msg.id);
    if (p) {
      this.pending.delete(msg.id);
      p.resolve({ msg, ms: Math.round(performance.now() - p.sent) });
    } else {
      this.unsolicited.push(msg);
    }
  }

  write(obj) {
    const line = typeof obj === "string" ? obj : JSON.stringify(obj);
    if (VERBOSE) console.log(`  [${this.label} -> ${this.now()}ms] ${line.slice(0, 400)}`);
    if (this.child.stdin.writable) this.child.stdin.write(`${line}\n`);
  }

  /** Sends a request; resolves {msg, ms} or null (timeout / child exited). `_meta` is set unless meta === null. */
  request(method, params = {}, { meta: m = META, timeoutMs = REQUEST_TIMEOUT_MS } = {}) {
    const id = this.nextId++;
    const p = { ...params };
    if (m !== null) p._meta = m;
    const req = { jsonrpc: "2.0", id, method, params: p };
    return { id, done: this.send(req, timeoutMs) };
  }

  send(req, timeoutMs = REQUEST_TIMEOUT_MS) {
    return new Promise((resolve) => {
      if (this.exit) return resolve(null);
      const timer = setTimeout(() => { this.pending.delete(req.id); resolve(null); }, timeoutMs);
      this.pending.set(req.id, { sent: performance.now(), resolve: (v) => { clearTimeout(timer); resolve(v); } });
      this.write(req);
    });
  }

  async rpc(method, params, opts) {
    const r = await this.request(method, params, opts).done;
    return r?.msg ?? null;
  }

  notify(method, params = {}) {
    this.write({ jsonrpc: "2.0", method, params });
  }

  /** Closes stdin; resolves {code, signal, ms} or {timedOut: true} after waitMs (then kills). */
  async eof(waitMs = 10_000) {
    const t = performance.now();
    this.child.stdin.end();
    const exit = await Promise.race([this.exited, sleep(waitMs).then(() => null)]);
    if (!exit) {
      this.kill();
      await this.exited;
      return { timedOut: true, waitMs };
    }
    return { code: exit.code, signal: exit.signal, ms: Math.round(performance.now() - t) };
  }

  kill() {
    try {
      process.kill(this.child.pid, "SIGKILL");
    } catch {}
  }

  async close() {
    if (this.exit) return;
    this.kill();
    await this.exited;
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers over a connection
// ---------------------------------------------------------------------------------------------
const text = (result) => result?.content?.[0]?.text;

async function pollTask(c, taskId, until, timeoutMs = 10_000) {
  const t0 = performance.now();
  let last = null;
  let polls = 0;
  while (performance.now() - t0 < timeoutMs) {
    const msg = await c.rpc("tasks/get", { taskId });
    polls += 1;
    if (!msg) return { last, polls, dead: true };
    if (msg.error) return { last: msg, polls, error: msg.error };
    last = msg.result;
    if (until(last)) return { last, polls, ms: Math.round(performance.now() - t0) };
    await sleep(Math.min(last?.pollIntervalMs ?? 100, 200));
  }
  return { last, polls, timedOut: true };
}
const terminal = (s) => ["completed", "failed", "cancelled"].includes(s?.status);

function answerFor(req) {
  const props = req?.params?.requestedSchema?.properties ?? {};
  const content = {};
  for (const [k, v] of Object.entries(props)) {
    content[k] = v.type === "boolean" ? true : { name: "Ada", first: "Ada", last: "Lovelace" }[k] ?? "x";
  }
  return { action: "accept", content };
}

// ---------------------------------------------------------------------------------------------
// Scenarios on one long connection
// ---------------------------------------------------------------------------------------------
async function mainConnection(spec, report) {
  const c = new Conn(spec, spec.name);
  const facts = report.facts;
  const check = (name, ok, detail) => report.scenarios.push({ name, ok: !!ok, detail });
  try {
    // -- startup: first line is a real request carrying _meta
    const first = c.request("tools/list", {});
    const fr = await first.done;
    facts.coldStartMs = c.now();
    facts.stderrAtStart = c.stderr.filter((l) => l.atMs <= facts.coldStartMs + 50).map((l) => l.text);
    const names = (fr?.msg?.result?.tools ?? []).map((t) => t.name).sort();
    const want = ["ask", "ask_two", "echo", "fail", "forever", "slow", "task_only", "tool_error", ...(spec.name === "rmcp" ? ["compose"] : [])].sort();
    check("tools/list (first line, with _meta)", JSON.stringify(names) === JSON.stringify(want), `${fr?.ms} ms: ${names.join(",")}`);
    facts.toolsListResultType = fr?.msg?.result?.resultType;

    // -- plain echo
    {
      const m = await c.rpc("tools/call", { name: "echo", arguments: { text: "hi there" } });
      check("echo → complete result", m?.result?.resultType === "complete" && text(m.result) === "hi there", show(m?.result ?? m));
    }

    // -- a 1 MB line and non-ASCII text (U+2028 included) round-trip
    {
      const big = "x".repeat(1_000_000);
      const r = await c.request("tools/call", { name: "echo", arguments: { text: big } }).done;
      const uni = "héllo ✓ \u2028 \u{1F600} end";
      const u = await c.rpc("tools/call", { name: "echo", arguments: { text: uni } });
      check("echo of a 1 MB line and of non-ASCII text round-trips", text(r?.msg?.result) === big && text(u?.result) === uni,
        `1 MB in ${r?.ms} ms; unicode ${show(text(u?.result))}`);
    }

    // -- slow → task → poll → completed
    {
      const m = await c.rpc("tools/call", { name: "slow", arguments: { ms: 300 } });
      const created = m?.result;
      let ok = created?.resultType === "task" && created?.status === "working" && typeof created?.taskId === "string";
      let detail = `created ${show(created, 200)}`;
      if (ok) {
        const p = await pollTask(c, created.taskId, terminal);
        ok = p.last?.status === "completed" && text(p.last?.result) === "slept 300 ms";
        detail = `${p.polls} polls, ${p.ms} ms → ${p.last?.status} ${show(p.last?.result, 150)}`;
        facts.taskIdExample = created.taskId;
        facts.pollIntervalMs = created.pollIntervalMs;
        facts.ttlMs = created.ttlMs;
      }
      check("slow → resultType task → tasks/get … completed", ok, detail);
    }

    // -- ask → input_required → tasks/update → completed with the answer
    {
      const m = await c.rpc("tools/call", { name: "ask", arguments: {} });
      const id = m?.result?.taskId;
      let ok = m?.result?.resultType === "task" && !!id;
      let detail = show(m?.result ?? m, 200);
      if (ok) {
        const p = await pollTask(c, id, (t) => t.status === "input_required" || terminal(t));
        const reqs = p.last?.inputRequests ?? {};
        const keys = Object.keys(reqs);
        facts.askInputKeys = keys;
        facts.askCreatedStatus = m.result.status;
        ok = p.last?.status === "input_required" && keys.length === 1 && reqs[keys[0]].method === "elicitation/create";
        detail = `input_required after ${p.polls} poll(s), key ${show(keys)}`;
        if (ok) {
          const u = await c.rpc("tasks/update", { taskId: id, inputResponses: { [keys[0]]: { action: "accept", content: { name: "Ada" } } } });
          const q = await pollTask(c, id, terminal);
          ok = u?.result?.resultType === "complete" && q.last?.status === "completed" && text(q.last?.result) === "hello, Ada";
          detail += `; update ack ${show(u?.result ?? u, 100)}; then ${q.last?.status} ${show(q.last?.result, 120)}`;
        }
      }
      check("ask → input_required → tasks/update accept → completed with the answer", ok, detail);
    }

    // -- ask_two: two inputs in one round, answered one at a time (partial), then completed
    {
      const m = await c.rpc("tools/call", { name: "ask_two", arguments: {} });
      const id = m?.result?.taskId;
      let ok = m?.result?.resultType === "task" && !!id;
      let detail = show(m?.result ?? m, 200);
      if (ok) {
        const p = await pollTask(c, id, (t) => (t.status === "input_required" && Object.keys(t.inputRequests ?? {}).length >= 2) || terminal(t));
        const reqs = p.last?.inputRequests ?? {};
        const keys = Object.keys(reqs);
        facts.askTwoInputKeys = keys;
        ok = p.last?.status === "input_required" && keys.length === 2;
        detail = `input_required with ${keys.length} keys ${show(keys)}`;
        if (ok) {
          // answer the first key alone: the task must stay input_required with the other one
          const u1 = await c.rpc("tasks/update", { taskId: id, inputResponses: { [keys[0]]: answerFor(reqs[keys[0]]) } });
          await sleep(150);
          const mid = await c.rpc("tasks/get", { taskId: id });
          const midKeys = Object.keys(mid?.result?.inputRequests ?? {});
          const partialOk = mid?.result?.status === "input_required" && midKeys.length === 1 && midKeys[0] === keys[1];
          facts.askTwoPartial = `after answering 1 of 2: ${mid?.result?.status} with ${show(midKeys)}`;
          const u2 = await c.rpc("tasks/update", { taskId: id, inputResponses: { [keys[1]]: answerFor(reqs[keys[1]]) } });
          const q = await pollTask(c, id, terminal);
          ok = partialOk && u1?.result && u2?.result && q.last?.status === "completed" && text(q.last?.result) === "hello, Ada Lovelace";
          detail += `; ${facts.askTwoPartial}; then ${q.last?.status} ${show(q.last?.result, 120)}`;
        }
      }
      check("ask_two → input_required with 2 requests → partial update → both → completed", ok, detail);
    }

    // -- fail → failed with error
    {
      const m = await c.rpc("tools/call", { name: "fail", arguments: {} });
      const id = m?.result?.taskId;
      const p = id ? await pollTask(c, id, terminal) : {};
      check("fail → failed with error -32603", p.last?.status === "failed" && p.last?.error?.code === -32603,
        `${p.last?.status} error ${show(p.last?.error)} statusMessage ${show(p.last?.statusMessage)}`);
    }

    // -- tool_error → completed with isError
    {
      const m = await c.rpc("tools/call", { name: "tool_error", arguments: {} });
      const id = m?.result?.taskId;
      const p = id ? await pollTask(c, id, terminal) : {};
      check("tool_error → completed with isError", p.last?.status === "completed" && p.last?.result?.isError === true,
        `${p.last?.status} ${show(p.last?.result, 150)}`);
    }

    // -- forever → tasks/cancel → cancelled
    {
      const m = await c.rpc("tools/call", { name: "forever", arguments: {} });
      const id = m?.result?.taskId;
      let ok = !!id;
      let detail = show(m?.result ?? m, 150);
      if (ok) {
        await sleep(150);
        const w = await c.rpc("tasks/get", { taskId: id });
        const ack = await c.rpc("tasks/cancel", { taskId: id });
        const p = await pollTask(c, id, terminal);
        ok = w?.result?.status === "working" && ack?.result?.resultType === "complete" && p.last?.status === "cancelled";
        detail = `before cancel ${w?.result?.status}; ack ${show(ack?.result ?? ack, 120)}; cancelled after ${p.ms} ms (${p.polls} polls) → ${p.last?.status}`;
      }
      check("forever → tasks/cancel → cancelled", ok, detail);
    }

    // -- unknown task id → -32602 (get, update, cancel)
    {
      const g = await c.rpc("tasks/get", { taskId: "no-such-task-0001" });
      const u = await c.rpc("tasks/update", { taskId: "no-such-task-0002", inputResponses: {} });
      const k = await c.rpc("tasks/cancel", { taskId: "no-such-task-0003" });
      const codes = [g, u, k].map((m) => m?.error?.code);
      check("unknown task id → -32602 (get, update, cancel)", codes.every((x) => x === -32602), `${show(codes)} ${show(g?.error?.message)}`);
    }

    // -- task-only tool without the extension → -32021; with it → task
    {
      const m = await c.rpc("tools/call", { name: "task_only", arguments: {} }, { meta: META_NO_TASKS });
      check("task_only without the extension → -32021", m?.error?.code === -32021, show(m?.error ?? m, 250));
      const t = await c.rpc("tools/call", { name: "task_only", arguments: {} });
      const p = t?.result?.taskId ? await pollTask(c, t.result.taskId, terminal) : {};
      check("task_only with the extension → task → completed", p.last?.status === "completed" && text(p.last?.result) === "task only done", show(p.last?.result, 120));
      const g = await c.rpc("tasks/get", { taskId: "no-such-task-0004" }, { meta: META_NO_TASKS });
      facts.tasksGetWithoutExtension = g?.error?.code ?? show(g?.result);
    }

    // -- MRTR
    if (spec.name === "rmcp") {
      const m = await c.rpc("tools/call", { name: "compose", arguments: {} });
      const ir = m?.result;
      let ok = ir?.resultType === "input_required" && ir?.inputRequests?.confirm && typeof ir?.requestState === "string";
      let detail = show(ir ?? m, 200);
      if (ok) {
        const r = await c.rpc("tools/call", { name: "compose", arguments: {}, inputResponses: { confirm: { action: "accept", content: { ok: true } } }, requestState: ir.requestState });
        const id = r?.result?.taskId;
        const p = id ? await pollTask(c, id, terminal) : {};
        ok = r?.result?.resultType === "task" && p.last?.status === "completed" && text(p.last?.result) === "confirmed: true";
        detail = `round 1 keys ${show(Object.keys(ir.inputRequests))} requestState ${show(ir.requestState)}; retry → ${r?.result?.resultType}; ${p.last?.status} ${show(p.last?.result, 120)}`;
      }
      check("MRTR compose → input_required → retry with inputResponses+requestState → task → completed", ok, detail);
    } else {
      // fastmcp has no MRTR-then-task tool; `ask` without the extension is a plain MRTR round.
      const m = await c.rpc("tools/call", { name: "ask", arguments: {} }, { meta: META_NO_TASKS });
      const ir = m?.result;
      const keys = Object.keys(ir?.inputRequests ?? {});
      let ok = ir?.resultType === "input_required" && keys.length === 1;
      let detail = show(ir ?? m, 200);
      if (ok) {
        const retry = { name: "ask", arguments: {}, inputResponses: { [keys[0]]: { action: "accept", content: { name: "Ada" } } } };
        if (typeof ir.requestState === "string") retry.requestState = ir.requestState;
        const r = await c.rpc("tools/call", retry, { meta: META_NO_TASKS });
        ok = r?.result?.resultType === "complete" && text(r.result) === "hello, Ada";
        detail = `round 1 keys ${show(keys)} requestState ${show(ir.requestState)}; retry → ${r?.result?.resultType} ${show(text(r?.result))}`;
      }
      check("MRTR (ask without the extension) → input_required → retry with inputResponses → complete", ok, detail);
    }

    // -- subscriptions/listen → -32601
    {
      const m = await c.rpc("subscriptions/listen", { notifications: { toolsListChanged: true } }, { timeoutMs: 3000 });
      check("subscriptions/listen {notifications: {toolsListChanged: true}} → -32601", m?.error?.code === -32601, show(m?.error ?? m ?? "no answer in 3 s"));
      const bare = await c.rpc("subscriptions/listen", {}, { timeoutMs: 3000 });
      facts.listenWithoutFilter = show(bare?.error ?? bare ?? "no answer in 3 s");
    }

    // -- two concurrent requests answered out of order (a synchronous slow, then echo)
    {
      const a = c.request("tools/call", { name: "slow", arguments: { ms: 800 } }, { meta: META_NO_TASKS });
      const b = c.request("tools/call", { name: "echo", arguments: { text: "fast" } });
      const [ra, rb] = await Promise.all([a.done, b.done]);
      const order = c.arrivals.filter((x) => x === a.id || x === b.id);
      const ok = ra?.msg?.result?.resultType === "complete" && text(ra.msg.result) === "slept 800 ms" && rb?.msg?.result && order[0] === b.id;
      check("two concurrent requests (sync slow 800 ms, then echo) → echo answered first", ok,
        `arrival order ${show(order)} (slow=${a.id}, echo=${b.id}); slow ${ra?.ms} ms, echo ${rb?.ms} ms`);
    }

    // -- notifications/cancelled for an in-flight request
    {
      const a = c.request("tools/call", { name: "slow", arguments: { ms: 1500 } }, { meta: META_NO_TASKS, timeoutMs: 3000 });
      await sleep(150);
      c.notify("notifications/cancelled", { requestId: a.id, reason: "probe: no longer needed", _meta: META });
      const r = await a.done;
      const alive = await c.rpc("tools/call", { name: "echo", arguments: { text: "still here" } });
      facts.cancelledNotification = r
        ? `the request was still answered after ${r.ms} ms: ${show(r.msg.result ?? r.msg.error, 120)}`
        : "no reply to the cancelled request within 3 s";
      check("notifications/cancelled for an in-flight request (no crash; connection alive)", text(alive?.result) === "still here",
        `${facts.cancelledNotification}; echo afterwards ${show(text(alive?.result))}`);
    }

    // -- a request without _meta on an established connection, then a valid one
    {
      const n = await c.rpc("tools/list", {}, { meta: null });
      const after = await c.rpc("tools/call", { name: "echo", arguments: { text: "after" } });
      facts.noMetaLate = `${show(n?.error ?? n?.result, 250)}; next valid request → ${show(after?.error ?? text(after?.result), 200)}`;
      check("request without _meta (mid-connection) → -32602", n?.error?.code === -32602, facts.noMetaLate);
    }

    // -- stdin EOF with a still-running task
    {
      const f = await c.rpc("tools/call", { name: "forever", arguments: {} });
      const r = await c.eof();
      facts.eofWithRunningTask = r.timedOut ? `did NOT exit within ${r.waitMs} ms (killed)` : `exit code ${r.code}${r.signal ? ` signal ${r.signal}` : ""} after ${r.ms} ms`;
      check("stdin EOF (a `forever` task running) → exits", !r.timedOut && r.code === 0, `${f?.result?.resultType}; ${facts.eofWithRunningTask}`);
    }
  } finally {
    await c.close();
    facts.mainStderrLines = c.stderr.length;
    facts.mainStderrAll = c.stderr.map((l) => `${l.atMs}ms ${l.text}`);
    facts.mainStderrSample = c.stderr.slice(0, 12).map((l) => `${l.atMs}ms ${l.text}`);
    facts.nonJsonStdoutLines = c.nonJson;
    facts.blankStdoutLines = c.blankLines;
    facts.unsolicited = c.unsolicited.map((m) => show(m, 200));
    if (c.unterminated) facts.unterminatedStdoutTail = c.unterminated;
    check("stdout: only JSON-RPC objects, one per line", c.nonJson.length === 0 && c.blankLines === 0 && !c.unterminated,
      `${c.nonJson.length} non-JSON, ${c.blankLines} blank; ${c.unsolicited.length} unsolicited message(s)`);
  }
}

// ---------------------------------------------------------------------------------------------
// Short-lived connections for start/stop and first-line behaviour
// ---------------------------------------------------------------------------------------------
async function freshConnections(spec, report) {
  const facts = report.facts;
  const check = (name, ok, detail) => report.scenarios.push({ name, ok: !!ok, detail });
  const stray = [];
  const run = async (label, fn) => {
    const c = new Conn(spec, `${spec.name}:${label}`);
    try {
      return await fn(c);
    } finally {
      await c.close();
      if (c.nonJson.length || c.blankLines) stray.push(`${label}: ${show(c.nonJson)} (+${c.blankLines} blank)`);
    }
  };

  // idle EOF: one request, then close stdin
  facts.idleEof = await run("idle-eof", async (c) => {
    const r = await c.request("tools/call", { name: "echo", arguments: { text: "x" } }).done;
    const startMs = c.now();
    const e = await c.eof();
    const stderrAtStart = c.stderr.filter((l) => l.atMs <= startMs).map((l) => l.text);
    return { firstReplyMs: startMs, replied: !!r, eof: e, stderrAtStart, stderrTotal: c.stderr.length };
  });
  const ie = facts.idleEof.eof;
  check("stdin EOF (idle, after one reply) → exit 0", !ie.timedOut && ie.code === 0, ie.timedOut ? "did not exit (killed)" : `exit ${ie.code} after ${ie.ms} ms; first reply ${facts.idleEof.firstReplyMs} ms after spawn`);

  // EOF before any request
  facts.eofBeforeAnyRequest = await run("eof-at-once", async (c) => {
    const e = await c.eof(15_000);
    return { ...e, stderr: c.stderr.map((l) => l.text).slice(-3) };
  });

  // SIGTERM while idle
  facts.sigterm = await run("sigterm", async (c) => {
    await c.request("tools/call", { name: "echo", arguments: { text: "x" } }).done;
    const t = performance.now();
    process.kill(c.child.pid, "SIGTERM");
    const exit = await Promise.race([c.exited, sleep(5000).then(() => null)]);
    return exit ? { code: exit.code, signal: exit.signal, ms: Math.round(performance.now() - t) } : { timedOut: true };
  });

  // first line without _meta, then a valid request
  facts.noMetaFirst = await run("no-meta-first", async (c) => {
    const n = await c.rpc("tools/list", {}, { meta: null });
    const v = await c.rpc("tools/call", { name: "echo", arguments: { text: "after" } });
    return { first: n?.error ?? n?.result ?? null, next: v?.error ?? v?.result ?? null, exit: c.exit };
  });
  check("first request without _meta → -32602", facts.noMetaFirst.first?.code === -32602, show(facts.noMetaFirst, 400));

  // an initialize first (old era), then a valid 2026-07-28 request
  facts.initializeFirst = await run("initialize-first", async (c) => {
    const i = await c.send({ jsonrpc: "2.0", id: c.nextId++, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo } }, 5000);
    await sleep(300);
    const v = c.exit ? null : await c.rpc("tools/call", { name: "echo", arguments: { text: "after" } }, { timeoutMs: 3000 });
    await sleep(100);
    return { initialize: i?.msg?.error ?? (i?.msg?.result ? { resultKeys: Object.keys(i.msg.result), protocolVersion: i.msg.result.protocolVersion } : null), next: v?.error ?? v?.result ?? null, exit: c.exit, stderr: c.stderr.map((l) => l.text).slice(-2) };
  });

  // a notification as the very first line, then a valid request
  facts.notificationFirst = await run("notification-first", async (c) => {
    c.notify("notifications/cancelled", { requestId: 99, reason: "nothing", _meta: META });
    await sleep(300);
    const v = c.exit ? null : await c.rpc("tools/call", { name: "echo", arguments: { text: "after" } }, { timeoutMs: 5000 });
    await sleep(100);
    return { next: v?.error ?? v?.result ?? null, exit: c.exit, stderr: c.stderr.map((l) => l.text).slice(-2) };
  });

  // a non-JSON line, then a valid request
  facts.garbageLine = await run("garbage", async (c) => {
    const v0 = await c.rpc("tools/call", { name: "echo", arguments: { text: "before" } });
    c.write("this is not json");
    await sleep(300);
    const v = c.exit ? null : await c.rpc("tools/call", { name: "echo", arguments: { text: "after" } }, { timeoutMs: 3000 });
    await sleep(100);
    return { before: !!v0, reply: c.unsolicited.map((m) => show(m, 200)), next: v?.error ?? text(v?.result) ?? null, exit: c.exit, stderr: c.stderr.map((l) => l.text).slice(-2) };
  });

  facts.strayStdoutInFreshConnections = stray;
  check("stdout clean in the short-lived connections too", stray.length === 0, stray.join("; ") || "clean");
}

// ---------------------------------------------------------------------------------------------
const specs = stdioServers({ prepare: !argv.includes("--no-prepare") }).filter((s) => !ONLY || s.name === ONLY);
const reports = [];
for (const spec of specs) {
  const report = { name: spec.name, command: [spec.command, ...spec.args].join(" "), scenarios: [], facts: {} };
  reports.push(report);
  const t0 = Date.now();
  try {
    await mainConnection(spec, report);
    await freshConnections(spec, report);
  } catch (e) {
    report.scenarios.push({ name: "probe ran to the end", ok: false, detail: String(e?.stack ?? e) });
  }
  report.ms = Date.now() - t0;
}
killAll();

let failed = 0;
for (const r of reports) {
  console.log(`\n=== ${r.name}  (${r.command})  ${r.ms} ms`);
  for (const s of r.scenarios) {
    if (!s.ok) failed += 1;
    console.log(`${s.ok ? "ok  " : "FAIL"} ${s.name}\n       ${s.detail}`);
  }
  const f = r.facts;
  console.log("--- facts");
  console.log(`cold start (spawn → tools/list reply): ${f.coldStartMs} ms; idle connection first reply: ${f.idleEof?.firstReplyMs} ms`);
  console.log(`stderr before the first reply: ${show(f.stderrAtStart, 600)}`);
  console.log(`stderr lines over the main connection: ${f.mainStderrLines}; sample: ${show(f.mainStderrSample, 900)}`);
  console.log(`stdin EOF idle: ${show(f.idleEof?.eof)}; with a running task: ${f.eofWithRunningTask}; EOF before any request: ${show(f.eofBeforeAnyRequest)}`);
  console.log(`SIGTERM idle: ${show(f.sigterm)}`);
  console.log(`ask: CreateTaskResult status ${f.askCreatedStatus}, input keys ${show(f.askInputKeys)}; ask_two keys ${show(f.askTwoInputKeys)}; ${f.askTwoPartial}`);
  console.log(`tasks/get without the extension: ${f.tasksGetWithoutExtension}; subscriptions/listen with params {} (no filter): ${f.listenWithoutFilter}`);
  console.log(`notifications/cancelled: ${f.cancelledNotification}`);
  console.log(`no _meta mid-connection: ${f.noMetaLate}`);
  console.log(`no _meta as first line: ${show(f.noMetaFirst, 500)}`);
  console.log(`initialize as first line: ${show(f.initializeFirst, 600)}`);
  console.log(`notification as first line: ${show(f.notificationFirst, 500)}`);
  console.log(`non-JSON line sent: ${show(f.garbageLine, 500)}`);
  console.log(`non-JSON stdout lines: ${show(f.nonJsonStdoutLines)}; blank: ${f.blankStdoutLines}; unsolicited server messages: ${show(f.unsolicited, 400)}`);
  console.log(`taskId example ${f.taskIdExample}, pollIntervalMs ${f.pollIntervalMs}, ttlMs ${f.ttlMs}`);
}
if (JSON_OUT) console.log(JSON.stringify(reports, null, 2));
console.log(failed ? `\nstdio-probe: ${failed} check(s) failed` : "\nstdio-probe: all checks passed");
process.exit(failed ? 1 : 0);
