// Wire probe for the fastmcp-tasks interop server (Node >= 20, no packages).
// Usage: node probe.mjs <url>   e.g. node probe.mjs http://127.0.0.1:8123/mcp
// Walks every tool's lifecycle with raw HTTP and exits non-zero on any mismatch.
// Set PROBE_VERBOSE=1 to print every exchange.

const url = process.argv[2];
if (!url) {
  console.error("usage: node probe.mjs <url>");
  process.exit(2);
}
const VERBOSE = !!process.env.PROBE_VERBOSE;
const PV = "2026-07-28";
const EXT = "io.modelcontextprotocol/tasks";
const TERMINAL = new Set(["completed", "failed", "cancelled"]);
const STATUSES = new Set(["working", "input_required", ...TERMINAL]);

function meta({ ext = true } = {}) {
  const caps = { elicitation: { form: {}, url: {} } };
  if (ext) caps.extensions = { [EXT]: {} };
  return {
    "io.modelcontextprotocol/protocolVersion": PV,
    "io.modelcontextprotocol/clientInfo": { name: "probe", version: "0" },
    "io.modelcontextprotocol/clientCapabilities": caps,
  };
}

let nextId = 1;
let failures = 0;
let checks = 0;
function check(cond, what, detail) {
  checks++;
  if (cond) {
    if (VERBOSE) console.log(`  ok   ${what}`);
  } else {
    failures++;
    console.log(`  FAIL ${what}${detail !== undefined ? " :: " + JSON.stringify(detail) : ""}`);
  }
  return cond;
}

// Parse a body that is either one JSON object or an SSE stream; return the
// JSON-RPC response (the message carrying our id).
function parseBody(ctype, text, id) {
  if ((ctype || "").includes("text/event-stream")) {
    let data = [];
    const msgs = [];
    for (const line of text.split(/\r?\n/)) {
      if (line === "") {
        if (data.length) msgs.push(JSON.parse(data.join("\n")));
        data = [];
      } else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length) msgs.push(JSON.parse(data.join("\n")));
    return msgs.find((m) => m.id === id) ?? msgs[msgs.length - 1];
  }
  return text ? JSON.parse(text) : undefined;
}

// One JSON-RPC request. opts: ext (declare the extension), name (Mcp-Name or
// null to omit), headers (overrides), accept.
async function rpc(method, params = {}, opts = {}) {
  const id = nextId++;
  const body = { jsonrpc: "2.0", id, method, params: { ...params, _meta: meta(opts) } };
  const headers = {
    "Content-Type": "application/json",
    Accept: opts.accept ?? "application/json, text/event-stream",
    "MCP-Protocol-Version": PV,
    "Mcp-Method": method,
  };
  let name = opts.name;
  if (name === undefined) {
    if (method === "tools/call") name = params.name;
    else if (method.startsWith("tasks/")) name = params.taskId;
  }
  if (name !== null && name !== undefined) headers["Mcp-Name"] = name;
  Object.assign(headers, opts.headers || {});
  const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const ctype = res.headers.get("content-type") || "";
  const text = await res.text();
  let msg;
  try {
    msg = parseBody(ctype, text, id);
  } catch (e) {
    msg = { unparsable: text };
  }
  if (VERBOSE) console.log(`  -> ${method} ${JSON.stringify(body.params).slice(0, 160)}\n  <- ${res.status} ${ctype} ${text.slice(0, 600)}`);
  return { status: res.status, ctype, msg, text, headers: res.headers };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const isIso = (s) => typeof s === "string" && !Number.isNaN(Date.parse(s));
const texts = (result) => (result?.content || []).filter((c) => c.type === "text").map((c) => c.text);

function checkTaskFields(t, where) {
  check(typeof t.taskId === "string" && t.taskId.length > 0, `${where}: taskId string`, t);
  check(STATUSES.has(t.status), `${where}: known status`, t.status);
  check(isIso(t.createdAt) && isIso(t.lastUpdatedAt), `${where}: createdAt/lastUpdatedAt ISO`, t);
  check("ttlMs" in t && (t.ttlMs === null || Number.isInteger(t.ttlMs)), `${where}: ttlMs present`, t.ttlMs);
  check(t.pollIntervalMs === undefined || Number.isInteger(t.pollIntervalMs), `${where}: pollIntervalMs int`, t.pollIntervalMs);
}

// tools/call expecting a CreateTaskResult; returns the task.
async function createTask(name, args = {}) {
  const r = await rpc("tools/call", { name, arguments: args });
  check(r.status === 200, `${name}: tools/call HTTP 200`, r.status);
  check(r.ctype.startsWith("application/json"), `${name}: tools/call application/json`, r.ctype);
  const t = r.msg?.result;
  if (!check(t && t.resultType === "task", `${name}: resultType "task"`, r.msg)) return null;
  checkTaskFields(t, `${name} CreateTaskResult`);
  check(t.status === "working", `${name}: seed status working`, t.status);
  for (const k of ["inputRequests", "result", "error", "requestState", "task"])
    check(!(k in t), `${name}: CreateTaskResult has no ${k}`, t);
  return t;
}

async function getTask(taskId, opts = {}) {
  const r = await rpc("tasks/get", { taskId }, opts);
  return r;
}

// Poll until the predicate holds on a tasks/get snapshot (or terminal).
async function pollUntil(taskId, pred, label, timeoutMs = 10000) {
  const t0 = Date.now();
  let last;
  while (Date.now() - t0 < timeoutMs) {
    const r = await getTask(taskId);
    check(r.status === 200, `${label}: tasks/get HTTP 200`, r.status);
    last = r.msg?.result;
    if (!last) {
      check(false, `${label}: tasks/get returned a result`, r.msg);
      return null;
    }
    check(last.resultType === "complete", `${label}: tasks/get resultType complete`, last.resultType);
    checkTaskFields(last, `${label} tasks/get`);
    if (pred(last) || TERMINAL.has(last.status)) return last;
    await sleep(Math.max(50, Math.min(last.pollIntervalMs ?? 100, 500)));
  }
  check(false, `${label}: reached expected state within ${timeoutMs} ms`, last);
  return last;
}

const done = (t) => TERMINAL.has(t.status);

async function main() {
  console.log(`probe ${url}`);

  // --- server/discover
  {
    const r = await rpc("server/discover", {});
    const res = r.msg?.result;
    check(r.status === 200 && res?.resultType === "complete", "discover: 200 complete", r.msg);
    check(res?.supportedVersions?.includes(PV), "discover: supports 2026-07-28", res?.supportedVersions);
    check(res?.capabilities?.extensions && EXT in res.capabilities.extensions, "discover: advertises tasks extension", res?.capabilities);
    check(Number.isInteger(res?.ttlMs) && ["public", "private"].includes(res?.cacheScope), "discover: ttlMs + cacheScope", res);
  }

  // --- echo: synchronous, never a task
  {
    const r = await rpc("tools/call", { name: "echo", arguments: { text: "hi there" } });
    const res = r.msg?.result;
    check(r.status === 200 && res?.resultType === "complete", "echo: resultType complete", r.msg);
    check(texts(res)[0] === "hi there", "echo: text echoed", res);
    check(res?.isError !== true, "echo: not isError", res);
  }

  // --- slow
  {
    const t = await createTask("slow", { ms: 400 });
    if (t) {
      const first = await getTask(t.taskId);
      check(first.msg?.result?.status === "working", "slow: immediately working", first.msg);
      const fin = await pollUntil(t.taskId, done, "slow");
      check(fin?.status === "completed", "slow: completed", fin);
      check(fin?.result && texts(fin.result)[0] === "slept 400 ms", "slow: text 'slept 400 ms'", fin?.result);
      check(fin?.result?.isError !== true, "slow: not isError", fin?.result);
      check(Date.parse(fin.lastUpdatedAt) >= Date.parse(fin.createdAt), "slow: lastUpdatedAt >= createdAt", fin);
    }
    // default ms
    const t2 = await createTask("slow");
    if (t2) {
      const fin = await pollUntil(t2.taskId, done, "slow default");
      check(texts(fin?.result)[0] === "slept 300 ms", "slow: default 300 ms", fin?.result);
    }
  }

  // --- ask: accept / decline / cancel
  for (const [mode, answer, expected] of [
    ["accept", { action: "accept", content: { name: "Ada" } }, "hello, Ada"],
    ["decline", { action: "decline" }, "no name"],
    ["cancel", { action: "cancel" }, "no name"],
  ]) {
    const label = `ask/${mode}`;
    const t = await createTask("ask");
    if (!t) continue;
    const ir = await pollUntil(t.taskId, (s) => s.status === "input_required", label);
    if (!check(ir?.status === "input_required", `${label}: input_required`, ir)) continue;
    const keys = Object.keys(ir.inputRequests || {});
    check(keys.length === 1, `${label}: exactly one input request`, ir.inputRequests);
    const key = keys[0];
    const req = ir.inputRequests[key];
    check(req?.method === "elicitation/create", `${label}: method elicitation/create`, req);
    check(!("jsonrpc" in req) && !("id" in req), `${label}: no jsonrpc/id in input request`, req);
    check(req?.params?.message === "What is your name?", `${label}: message`, req?.params);
    check((req?.params?.mode ?? "form") === "form", `${label}: form mode`, req?.params);
    const schema = req?.params?.requestedSchema;
    check(
      schema?.type === "object" && schema?.properties?.name?.type === "string" && JSON.stringify(schema?.required) === '["name"]',
      `${label}: requestedSchema`,
      schema,
    );
    // A second poll reports the same key (stable until answered).
    const again = (await getTask(t.taskId)).msg?.result;
    check(again?.status === "input_required" && Object.keys(again.inputRequests || {})[0] === key, `${label}: key stable across polls`, again);
    // Stale/unknown key first: acked and ignored.
    const stale = await rpc("tasks/update", { taskId: t.taskId, inputResponses: { "no-such-key": { action: "cancel" } } });
    check(stale.status === 200 && JSON.stringify(Object.keys(stale.msg?.result || {}).filter((k) => k !== "_meta")) === '["resultType"]' && stale.msg.result.resultType === "complete", `${label}: unknown key acked`, stale.msg);
    const still = (await getTask(t.taskId)).msg?.result;
    check(still?.status === "input_required", `${label}: unknown key ignored`, still);
    const up = await rpc("tasks/update", { taskId: t.taskId, inputResponses: { [key]: answer } });
    check(up.status === 200, `${label}: tasks/update HTTP 200`, up.status);
    const ack = up.msg?.result || {};
    check(ack.resultType === "complete", `${label}: update ack resultType complete`, up.msg);
    check(!("taskId" in ack) && !("status" in ack), `${label}: update ack carries no task fields`, ack);
    const fin = await pollUntil(t.taskId, done, label);
    check(fin?.status === "completed", `${label}: completed`, fin);
    check(texts(fin?.result)[0] === expected, `${label}: text '${expected}'`, fin?.result);
    // Re-sending the same answer after completion: acked, ignored.
    const late = await rpc("tasks/update", { taskId: t.taskId, inputResponses: { [key]: answer } });
    check(late.status === 200 && late.msg?.result?.resultType === "complete", `${label}: late update acked`, late.msg);
  }

  // --- ask_two: two form requests in one round, answered one at a time
  {
    const label = "ask_two";
    const t = await createTask("ask_two");
    if (t) {
      const ir = await pollUntil(t.taskId, (s) => s.status === "input_required" && Object.keys(s.inputRequests || {}).length === 2, label);
      const reqs = ir?.inputRequests || {};
      const byField = {};
      for (const [k, r] of Object.entries(reqs)) byField[Object.keys(r?.params?.requestedSchema?.properties || {})[0]] = k;
      check(Object.keys(reqs).length === 2 && byField.first && byField.last, `${label}: two input requests (fields first, last)`, reqs);
      if (byField.first && byField.last) {
        const u1 = await rpc("tasks/update", { taskId: t.taskId, inputResponses: { [byField.first]: { action: "accept", content: { first: "Ada" } } } });
        check(u1.msg?.result?.resultType === "complete", `${label}: partial update acked`, u1.msg);
        const mid = (await getTask(t.taskId)).msg?.result;
        check(mid?.status === "input_required" && JSON.stringify(Object.keys(mid.inputRequests || {})) === JSON.stringify([byField.last]), `${label}: after 1 of 2 answers still input_required with the other key`, mid);
        await rpc("tasks/update", { taskId: t.taskId, inputResponses: { [byField.last]: { action: "accept", content: { last: "Lovelace" } } } });
        const fin = await pollUntil(t.taskId, done, label);
        check(fin?.status === "completed" && texts(fin?.result)[0] === "hello, Ada Lovelace", `${label}: completed "hello, Ada Lovelace"`, fin);
      }
    }
  }

  // --- fail
  {
    const t = await createTask("fail");
    if (t) {
      const fin = await pollUntil(t.taskId, done, "fail");
      check(fin?.status === "failed", "fail: failed", fin);
      check(fin?.error?.code === -32603 && typeof fin?.error?.message === "string", "fail: error -32603 + message", fin?.error);
      check(!("result" in (fin || {})), "fail: no result", fin);
    }
  }

  // --- tool_error
  {
    const t = await createTask("tool_error");
    if (t) {
      const fin = await pollUntil(t.taskId, done, "tool_error");
      check(fin?.status === "completed", "tool_error: completed (not failed)", fin);
      check(fin?.result?.isError === true, "tool_error: isError true", fin?.result);
      check(texts(fin?.result)[0] === "tool failed", "tool_error: text 'tool failed'", fin?.result);
      check(!("error" in (fin || {})), "tool_error: no error member", fin);
    }
  }

  // --- forever + cancel
  {
    const t = await createTask("forever");
    if (t) {
      await sleep(300);
      const mid = (await getTask(t.taskId)).msg?.result;
      check(mid?.status === "working", "forever: still working", mid);
      const c = await rpc("tasks/cancel", { taskId: t.taskId });
      check(c.status === 200 && c.msg?.result?.resultType === "complete", "forever: cancel acked", c.msg);
      check(!("status" in (c.msg?.result || {})), "forever: cancel ack has no task fields", c.msg?.result);
      const fin = await pollUntil(t.taskId, done, "forever");
      check(fin?.status === "cancelled", "forever: cancelled", fin);
      const again = await rpc("tasks/cancel", { taskId: t.taskId });
      check(again.status === 200 && again.msg?.result?.resultType === "complete", "forever: second cancel acked", again.msg);
    }
  }

  // --- task_only
  {
    const t = await createTask("task_only");
    if (t) {
      const fin = await pollUntil(t.taskId, done, "task_only");
      check(fin?.status === "completed" && texts(fin?.result)[0] === "task only done", "task_only: completed 'task only done'", fin);
      const c = await rpc("tasks/cancel", { taskId: t.taskId });
      check(c.status === 200 && c.msg?.result?.resultType === "complete", "cancel on completed task: acked", c.msg);
      const after = (await getTask(t.taskId)).msg?.result;
      check(after?.status === "completed", "cancel on completed task: stays completed", after);
    }
    const r = await rpc("tools/call", { name: "task_only", arguments: {} }, { ext: false });
    check(r.status === 400, "task_only without extension: HTTP 400", r.status);
    check(r.msg?.error?.code === -32021, "task_only without extension: -32021", r.msg);
    check(r.msg?.error?.data?.requiredCapabilities?.extensions && EXT in r.msg.error.data.requiredCapabilities.extensions, "task_only -32021: data.requiredCapabilities.extensions", r.msg?.error);
  }

  // --- without the extension, optional task tools run synchronously
  {
    const r = await rpc("tools/call", { name: "slow", arguments: { ms: 50 } }, { ext: false });
    check(r.status === 200 && r.msg?.result?.resultType === "complete" && texts(r.msg.result)[0] === "slept 50 ms", "slow without extension: inline complete", r.msg);
  }

  // --- errors on tasks/*
  {
    const r = await getTask("no-such-task");
    check(r.msg?.error?.code === -32602, "tasks/get unknown id: -32602", r.msg);
    check(r.status === 400, "tasks/get unknown id: HTTP 400", r.status);
    const u = await rpc("tasks/update", { taskId: "no-such-task", inputResponses: {} });
    check(u.msg?.error?.code === -32602, "tasks/update unknown id: -32602", u.msg);
    const c = await rpc("tasks/cancel", { taskId: "no-such-task" });
    check(c.msg?.error?.code === -32602, "tasks/cancel unknown id: -32602", c.msg);

    const t = await createTask("slow", { ms: 50 });
    if (t) {
      const noExt = await getTask(t.taskId, { ext: false });
      check(noExt.status === 400 && noExt.msg?.error?.code === -32021, "tasks/get without extension: 400 -32021", { s: noExt.status, m: noExt.msg });
      const noName = await getTask(t.taskId, { name: null });
      check(noName.status === 200 && noName.msg?.result?.taskId === t.taskId, "tasks/get without Mcp-Name: accepted (lenient)", { s: noName.status, m: noName.msg });
      const bad = await getTask(t.taskId, { name: "other" });
      check(bad.status === 400 && bad.msg?.error?.code === -32020, "tasks/get mismatched Mcp-Name: 400 -32020", { s: bad.status, m: bad.msg });
    }
    const acc = await rpc("server/discover", {}, { accept: "application/json" });
    check(acc.status === 406, "Accept: application/json only: HTTP 406", { s: acc.status, b: acc.text });
    const lis = await rpc("subscriptions/listen", { notifications: { taskIds: ["x"] } });
    check(lis.msg?.error?.code === -32601, "subscriptions/listen: -32601", { s: lis.status, m: lis.msg });
    const tr = await rpc("tasks/result", { taskId: "x" });
    check(tr.msg?.error?.code === -32601, "tasks/result: -32601", { s: tr.status, m: tr.msg });
  }

  // --- CORS
  {
    const origin = "http://localhost:9999";
    const pre = await fetch(url, {
      method: "OPTIONS",
      headers: {
        Origin: origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,accept,mcp-protocol-version,mcp-method,mcp-name,authorization",
      },
    });
    check(pre.status === 200, "CORS preflight: 200", pre.status);
    const ao = pre.headers.get("access-control-allow-origin");
    check(ao === "*" || ao === origin, "CORS preflight: allow-origin", ao);
    const ah = (pre.headers.get("access-control-allow-headers") || "").toLowerCase();
    for (const h of ["content-type", "mcp-protocol-version", "mcp-method", "mcp-name", "authorization"])
      check(ah === "*" || ah.includes(h), `CORS preflight: allows ${h}`, ah);
    const am = (pre.headers.get("access-control-allow-methods") || "").toUpperCase();
    check(am.includes("POST") || am === "*", "CORS preflight: allows POST", am);
    if (VERBOSE) console.log("  preflight headers", Object.fromEntries(pre.headers));
    const r = await rpc("tools/call", { name: "echo", arguments: { text: "cors" } }, { headers: { Origin: origin } });
    check(r.status === 200 && texts(r.msg?.result)[0] === "cors", "CORS POST with Origin: 200", { s: r.status, m: r.msg });
    const rao = r.headers.get("access-control-allow-origin");
    check(rao === "*" || rao === origin, "CORS POST: allow-origin", rao);
    check(!!r.headers.get("access-control-expose-headers"), "CORS POST: expose-headers", Object.fromEntries(r.headers));
  }

  console.log(`${checks - failures} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}

main().catch((e) => {
  console.error("probe crashed:", e);
  process.exit(1);
});
