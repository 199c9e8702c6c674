// Tests of the Tasks test server itself, over real HTTP with global fetch.
// Run: node --test tests/server/server.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startHttpServer } from "./http.mjs";
import { createTasksCore } from "./core.mjs";
import {
  C, EXT, SUB, V, encode, headersFor, listen, meta, resultText, rpc, sleep, terminal, waitFor,
} from "./wire.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ISO_Z = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const TASK_ID = /^tsk_[0-9a-f]{32}$/;

let srv;
let url;
const call = (name, args = {}, opts) => rpc(url, "tools/call", { name, arguments: args }, opts);
async function startTask(name, args = {}) {
  const r = await call(name, args);
  assert.equal(r.result?.resultType, "task", JSON.stringify(r.response));
  return r.result;
}
const get = (taskId, opts) => rpc(url, "tasks/get", { taskId }, opts);
const update = (taskId, inputResponses, opts) => rpc(url, "tasks/update", { taskId, inputResponses }, opts);
const cancel = (taskId, opts) => rpc(url, "tasks/cancel", { taskId }, opts);

before(async () => {
  srv = await startHttpServer({ pollIntervalMs: 20 });
  url = srv.url;
});
after(() => srv.close());

describe("discovery", () => {
  test("server/discover", async () => {
    const r = await rpc(url, "server/discover");
    assert.equal(r.status, 200);
    assert.match(r.ct, /^application\/json/);
    assert.deepEqual(r.result, {
      resultType: "complete", supportedVersions: ["2026-07-28"],
      capabilities: { tools: {}, extensions: { [EXT]: {} } }, ttlMs: 60000, cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp-tasks-wasm-test-server", version: "0.1.0" } },
    });
  });

  test("tools/list lists every tool with a description and an object inputSchema", async () => {
    const r = await rpc(url, "tools/list");
    assert.equal(r.result.resultType, "complete");
    const names = r.result.tools.map((t) => t.name);
    assert.deepEqual(names, ["echo", "slow", "ask", "ask_twice", "ask_many", "ask_url", "sample", "form", "fail",
      "tool_error", "forever", "task_only", "mrtr", "mrtr2", "mrtr_state"]);
    for (const t of r.result.tools) {
      assert.ok(t.description.length > 10);
      assert.equal(t.inputSchema.type, "object");
    }
    const slow = r.result.tools.find((t) => t.name === "slow");
    assert.ok(slow.inputSchema.properties.listen.enum.includes("noisy"));
    assert.deepEqual(r.result.tools.find((t) => t.name === "echo").inputSchema.required, ["text"]);
  });

  test("ping", async () => {
    assert.deepEqual((await rpc(url, "ping")).result, { resultType: "complete" });
  });
});

describe("HTTP validation", () => {
  const echo = { name: "echo", arguments: { text: "x" } };

  test("Accept must list both media types (406)", async () => {
    for (const accept of ["application/json", "text/event-stream", undefined]) {
      const r = await rpc(url, "tools/call", echo, { headers: { accept } });
      assert.equal(r.status, 406, String(accept));
    }
  });

  test("Content-Type must be JSON (415); body must be JSON (-32700, 400)", async () => {
    assert.equal((await rpc(url, "ping", {}, { headers: { "content-type": "text/plain" } })).status, 415);
    const r = await rpc(url, "ping", {}, { body: "{nope" });
    assert.equal(r.status, 400);
    assert.equal(r.error.code, -32700);
    assert.equal(r.response.id, null);
  });

  test("bad envelope → -32600 (400); a notification → 202", async () => {
    const r = await rpc(url, "ping", {}, { id: 777, body: JSON.stringify({ jsonrpc: "1.0", id: 777, method: "ping" }) });
    assert.equal(r.status, 400);
    assert.equal(r.error.code, -32600);
    const n = await rpc(url, "notifications/initialized", {}, { body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
    assert.equal(n.status, 202);
    assert.equal(n.raw, "");
  });

  test("MCP-Protocol-Version missing or different from _meta → -32020; unsupported → -32022", async () => {
    let r = await rpc(url, "tools/call", echo, { headers: { "mcp-protocol-version": undefined } });
    assert.deepEqual([r.status, r.error.code], [400, -32020]);
    r = await rpc(url, "tools/call", echo, { headers: { "mcp-protocol-version": "2025-11-25" } });
    assert.deepEqual([r.status, r.error.code], [400, -32020]);
    r = await rpc(url, "ping", { _meta: { ...meta(), [V]: "2025-11-25" } }, { withMeta: false, headers: { "mcp-protocol-version": "2025-11-25" } });
    assert.deepEqual([r.status, r.error.code], [400, -32022]);
    assert.deepEqual(r.error.data, { supported: ["2026-07-28"], requested: "2025-11-25" });
  });

  test("Mcp-Method missing or mismatched → -32020 (400)", async () => {
    for (const m of [undefined, "tools/list"]) {
      const r = await rpc(url, "tools/call", echo, { headers: { "mcp-method": m } });
      assert.deepEqual([r.status, r.error.code], [400, -32020]);
    }
  });

  test("Mcp-Name required and equal to params.name / params.taskId → else -32020 (400)", async () => {
    for (const name of [undefined, "slow", encode("slow"), "=?base64?***?="]) {
      const r = await rpc(url, "tools/call", echo, { headers: { "mcp-name": name } });
      assert.deepEqual([r.status, r.error.code], [400, -32020], String(name));
    }
    const t = await startTask("slow", { ms: 30 });
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const params = { taskId: t.taskId, inputResponses: {} };
      for (const name of [undefined, "tsk_other"]) {
        const r = await rpc(url, method, params, { headers: { "mcp-name": name } });
        assert.deepEqual([r.status, r.error.code], [400, -32020], `${method} ${name}`);
      }
      const ok = await rpc(url, method, params);
      assert.equal(ok.status, 200);
      assert.equal(ok.result.resultType, "complete");
    }
  });

  test("Mcp-Name in the base64 sentinel form is decoded", async () => {
    const r = await rpc(url, "tools/call", echo, { headers: { "mcp-name": encode("echo") } });
    assert.equal(r.status, 200);
    assert.equal(r.result.content[0].text, "x");
  });

  test("_meta and its required fields → else -32602 (400)", async () => {
    const variants = [
      {},
      { _meta: { [C]: {} } },
      { _meta: { [V]: "2026-07-28" } },
    ];
    for (const params of variants) {
      const r = await rpc(url, "tools/call", { ...echo, ...params }, { withMeta: false });
      assert.deepEqual([r.status, r.error.code], [400, -32602], JSON.stringify(params));
    }
    const r = await rpc(url, "server/discover", {}, { withMeta: false });
    assert.deepEqual([r.status, r.error.code], [400, -32602]);
  });

  test("tasks/* and listen-with-taskIds without the extension → -32021 (400) with requiredCapabilities", async () => {
    const t = await startTask("slow", { ms: 30 });
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const r = await rpc(url, method, { taskId: t.taskId, inputResponses: {} }, { ext: false });
      assert.deepEqual([r.status, r.error.code], [400, -32021], method);
      assert.deepEqual(r.error.data, { requiredCapabilities: { extensions: { [EXT]: {} } } });
    }
    const l = await listen(url, [t.taskId], { ext: false });
    assert.deepEqual([l.status, l.error.code], [400, -32021]);
  });

  test("unknown methods → -32601 (404)", async () => {
    for (const m of ["tasks/list", "tasks/result", "initialize", "nope"]) {
      const r = await rpc(url, m, {});
      assert.deepEqual([r.status, r.error.code], [404, -32601], m);
    }
  });

  test("unknown task → -32602 with HTTP 200", async () => {
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const r = await rpc(url, method, { taskId: "tsk_unknown", inputResponses: {} });
      assert.deepEqual([r.status, r.error.code], [200, -32602], method);
    }
  });

  test("GET/DELETE /mcp → 405; preflight → 204; CORS on every response", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(url, { method });
      assert.equal(res.status, 405);
      assert.equal(res.headers.get("access-control-allow-origin"), "*");
    }
    let res = await fetch(url, { method: "OPTIONS", headers: { origin: "http://a.test", "access-control-request-method": "POST" } });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.match(res.headers.get("access-control-allow-methods"), /POST/);
    for (const h of ["content-type", "mcp-protocol-version", "mcp-method", "mcp-name", "authorization"]) {
      assert.match(res.headers.get("access-control-allow-headers"), new RegExp(h));
    }
    res = await fetch(url, { method: "OPTIONS", headers: { "access-control-request-headers": "mcp-param-region, mcp-name" } });
    assert.equal(res.headers.get("access-control-allow-headers"), "mcp-param-region, mcp-name");
    const r = await rpc(url, "ping");
    assert.equal(r.res.headers.get("access-control-allow-origin"), "*");
    assert.match(r.res.headers.get("access-control-expose-headers"), /mcp-protocol-version/);
    const e = await rpc(url, "nope");
    assert.equal(e.res.headers.get("access-control-allow-origin"), "*");
  });

  test("/_test/log records requests; /_test/reset clears it", async () => {
    let res = await fetch(`${srv.origin}/_test/reset`, { method: "POST" });
    assert.equal(res.status, 200);
    const t = await startTask("slow", { ms: 20 });
    await get(t.taskId);
    await rpc(url, "tools/call", { name: "echo", arguments: { text: "x" } }, { headers: { "mcp-name": undefined } });
    res = await fetch(`${srv.origin}/_test/log`);
    const log = await res.json();
    assert.deepEqual(log.map(({ method, name, taskId, error }) => ({ method, name, taskId, error })), [
      { method: "tools/call", name: "slow", taskId: undefined, error: undefined },
      { method: "tasks/get", name: undefined, taskId: t.taskId, error: undefined },
      { method: "tools/call", name: "echo", taskId: undefined, error: -32020 },
    ]);
    assert.ok(log.every((e) => typeof e.id === "number" && typeof e.at === "number"));
    assert.equal(srv.core.log.length, 3);
  });
});

describe("framing", () => {
  test("mixed (default): tools/call as SSE with keep-alive comment and a notification; others JSON", async () => {
    const r = await call("echo", { text: "hi" });
    assert.match(r.ct, /^text\/event-stream/);
    assert.ok(r.raw.startsWith(": keep-alive\n\n"));
    assert.equal(r.messages.length, 2);
    assert.equal(r.messages[0].method, "notifications/message");
    assert.deepEqual(r.result, { resultType: "complete", content: [{ type: "text", text: "hi" }] });
    const e = await call("nope");
    assert.match(e.ct, /^text\/event-stream/);
    assert.deepEqual([e.status, e.error.code], [200, -32602]);
    const g = await rpc(url, "tools/list");
    assert.match(g.ct, /^application\/json/);
  });

  test("json: everything application/json", async () => {
    const s = await startHttpServer({ framing: "json" });
    try {
      const r = await rpc(s.url, "tools/call", { name: "echo", arguments: { text: "j" } });
      assert.match(r.ct, /^application\/json/);
      assert.equal(r.result.content[0].text, "j");
    } finally { await s.close(); }
  });

  test("sse: every 200 reply is one SSE data event; 4xx stay JSON", async () => {
    const s = await startHttpServer({ framing: "sse" });
    try {
      for (const method of ["server/discover", "tools/list"]) {
        const r = await rpc(s.url, method);
        assert.match(r.ct, /^text\/event-stream/);
        assert.equal(r.messages.length, 1);
        assert.equal(r.result.resultType, "complete");
      }
      const t = await rpc(s.url, "tasks/get", { taskId: "tsk_nope" });
      assert.match(t.ct, /^text\/event-stream/);
      assert.equal(t.error.code, -32602);
      const bad = await rpc(s.url, "tasks/get", { taskId: "tsk_nope" }, { ext: false });
      assert.match(bad.ct, /^application\/json/);
      assert.equal(bad.status, 400);
    } finally { await s.close(); }
  });
});

describe("tools", () => {
  test("echo answers directly, with or without the extension", async () => {
    for (const ext of [true, false]) {
      assert.deepEqual((await call("echo", { text: "a" }, { ext })).result, { resultType: "complete", content: [{ type: "text", text: "a" }] });
    }
  });

  test("argument validation and unknown tools → -32602", async () => {
    assert.equal((await call("echo", {})).error.code, -32602);
    assert.equal((await call("slow", { listen: "bogus" })).error.code, -32602);
    assert.equal((await call("slow", { ms: "1" })).error.code, -32602);
    assert.equal((await call("missing_tool")).error.code, -32602);
  });

  test("slow: CreateTaskResult, step messages, completion", async () => {
    const t = await startTask("slow", { ms: 150, steps: 3 });
    assert.deepEqual(Object.keys(t), ["resultType", "taskId", "status", "statusMessage", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs"]);
    assert.match(t.taskId, TASK_ID);
    assert.equal(t.status, "working");
    assert.match(t.createdAt, ISO_Z);
    assert.deepEqual([t.ttlMs, t.pollIntervalMs, t.statusMessage], [60000, 20, "step 1/3"]);
    const mid = await waitFor(url, t.taskId, (x) => x.statusMessage !== "step 1/3");
    if (!terminal(mid)) assert.deepEqual([mid.status, /^step [23]\/3$/.test(mid.statusMessage)], ["working", true]);
    const done = await waitFor(url, t.taskId, terminal);
    assert.equal(done.resultType, "complete");
    assert.equal(done.status, "completed");
    assert.equal(done.statusMessage, undefined);
    assert.deepEqual(done.result, { resultType: "complete", content: [{ type: "text", text: "slept 150 ms" }], structuredContent: { ms: 150 } });
    assert.ok(done.lastUpdatedAt > t.lastUpdatedAt);
  });

  test("slow without the extension waits and answers directly", async () => {
    const t0 = Date.now();
    const r = await call("slow", { ms: 60 }, { ext: false });
    assert.ok(Date.now() - t0 >= 55);
    assert.deepEqual(r.result, { resultType: "complete", content: [{ type: "text", text: "slept 60 ms" }], structuredContent: { ms: 60 } });
  });

  test("closing a synchronous tools/call stream cancels only that request", async () => {
    srv.core.resetLog();
    const ac = new AbortController();
    const params = { name: "forever", arguments: {}, _meta: meta(false) };
    const pending = fetch(url, { method: "POST", signal: ac.signal, headers: headersFor("tools/call", params),
      body: JSON.stringify({ jsonrpc: "2.0", id: "abort-me", method: "tools/call", params }) }).catch((e) => e.name);
    await sleep(30);
    ac.abort();
    assert.equal(await pending, "AbortError");
    await sleep(20);
    assert.deepEqual(srv.core.log.map((e) => [e.id, e.error]), [["abort-me", -32603]]);
  });

  test("ask: input_required with key 'name'; accept → hello; decline → no name", async () => {
    for (const [answer, expected] of [[{ action: "accept", content: { name: "Ada" } }, "hello, Ada"], [{ action: "decline" }, "no name"]]) {
      const t = await startTask("ask");
      const s = await waitFor(url, t.taskId, (x) => x.status === "input_required");
      assert.deepEqual(s.inputRequests, { name: { method: "elicitation/create", params: { mode: "form", message: "What is your name?",
        requestedSchema: { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] } } } });
      const u = await update(t.taskId, { bogus: { action: "accept" }, name: answer });
      assert.deepEqual(u.result, { resultType: "complete" });
      const done = await waitFor(url, t.taskId, terminal);
      assert.equal(resultText(done), expected);
    }
  });

  test("ask without the extension falls back to MRTR", async () => {
    const r = await call("ask", {}, { ext: false });
    assert.equal(r.result.resultType, "input_required");
    assert.deepEqual(Object.keys(r.result.inputRequests), ["name"]);
    const retry = await rpc(url, "tools/call", { name: "ask", arguments: {}, requestState: r.result.requestState,
      inputResponses: { name: { action: "accept", content: { name: "Bo" } } } }, { ext: false });
    assert.equal(retry.result.content[0].text, "hello, Bo");
  });

  test("ask_twice: two rounds, keys name then age", async () => {
    const t = await startTask("ask_twice");
    const s1 = await waitFor(url, t.taskId, (x) => x.status === "input_required");
    assert.deepEqual(Object.keys(s1.inputRequests), ["name"]);
    await update(t.taskId, { name: { action: "accept", content: { name: "Ada" } } });
    const s2 = await waitFor(url, t.taskId, (x) => x.inputRequests?.age);
    assert.deepEqual(Object.keys(s2.inputRequests), ["age"]);
    assert.equal(s2.inputRequests.age.params.requestedSchema.properties.age.type, "integer");
    await update(t.taskId, { name: { action: "accept", content: { name: "Eve" } } }); // stale key: ignored
    await update(t.taskId, { age: { action: "accept", content: { age: 36 } } });
    assert.equal(resultText(await waitFor(url, t.taskId, terminal)), "Ada is 36");
  });

  test("ask_many: two keys at once; a partial update leaves the other listed", async () => {
    const t = await startTask("ask_many");
    const s = await waitFor(url, t.taskId, (x) => x.status === "input_required");
    assert.deepEqual(s.inputRequests.root, { method: "roots/list", params: {} });
    assert.equal(s.inputRequests.name.method, "elicitation/create");
    await update(t.taskId, { root: { roots: [{ uri: "file:///a" }, { uri: "file:///b" }] } });
    const partial = (await get(t.taskId)).result;
    assert.equal(partial.status, "input_required");
    assert.deepEqual(Object.keys(partial.inputRequests), ["name"]);
    await update(t.taskId, { name: { action: "accept", content: { name: "Ada" } } });
    assert.equal(resultText(await waitFor(url, t.taskId, terminal)), "name: Ada; roots: file:///a, file:///b");
  });

  test("ask_url: url-mode elicitation; accept → consented", async () => {
    const t = await startTask("ask_url", { url: "https://example.org/ok" });
    const s = await waitFor(url, t.taskId, (x) => x.status === "input_required");
    assert.deepEqual(s.inputRequests.consent, { method: "elicitation/create",
      params: { mode: "url", message: "Please give consent on this page", url: "https://example.org/ok" } });
    await update(t.taskId, { consent: { action: "accept" } });
    assert.equal(resultText(await waitFor(url, t.taskId, terminal)), "consented");
  });

  test("sample: sampling/createMessage → the sampled text", async () => {
    const t = await startTask("sample");
    const s = await waitFor(url, t.taskId, (x) => x.status === "input_required");
    assert.equal(s.inputRequests.sample.method, "sampling/createMessage");
    assert.equal(s.inputRequests.sample.params.maxTokens, 100);
    assert.equal(s.inputRequests.sample.params.messages[0].role, "user");
    await update(t.taskId, { sample: { role: "assistant", content: { type: "text", text: "Hi there" }, model: "m" } });
    assert.equal(resultText(await waitFor(url, t.taskId, terminal)), "Hi there");
  });

  test("form: rich schema; the answer is echoed as JSON", async () => {
    const t = await startTask("form");
    const s = await waitFor(url, t.taskId, (x) => x.status === "input_required");
    const schema = s.inputRequests.form.params.requestedSchema;
    assert.deepEqual(Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, v.type])),
      { name: "string", email: "string", score: "number", count: "integer", subscribe: "boolean", color: "string" });
    assert.deepEqual(schema.required, ["name", "score", "color"]);
    assert.deepEqual(schema.properties.color.enum, ["red", "green", "blue"]);
    const answer = { action: "accept", content: { name: "Ada", score: 7.5, color: "red" } };
    await update(t.taskId, { form: answer });
    const done = await waitFor(url, t.taskId, terminal);
    assert.deepEqual(JSON.parse(resultText(done)), answer);
  });

  test("fail: failed with error -32603; without the extension a JSON-RPC error (200)", async () => {
    const t = await startTask("fail", { ms: 10 });
    const done = await waitFor(url, t.taskId, terminal);
    assert.equal(done.status, "failed");
    assert.equal(done.statusMessage, "tool crashed");
    assert.deepEqual(done.error, { code: -32603, message: "tool crashed", data: { reason: "test" } });
    assert.equal(done.result, undefined);
    const r = await call("fail", { ms: 1 }, { ext: false });
    assert.deepEqual([r.status, r.error], [200, { code: -32603, message: "tool crashed", data: { reason: "test" } }]);
  });

  test("tool_error: completed with isError", async () => {
    const t = await startTask("tool_error", { ms: 10 });
    const done = await waitFor(url, t.taskId, terminal);
    assert.equal(done.status, "completed");
    assert.deepEqual(done.result, { resultType: "complete", content: [{ type: "text", text: "tool failed" }], isError: true });
  });

  test("forever + tasks/cancel → cancelled; cancel is always acked and never changes a terminal task", async () => {
    const t = await startTask("forever");
    await sleep(30);
    assert.equal((await get(t.taskId)).result.status, "working");
    assert.deepEqual((await cancel(t.taskId)).result, { resultType: "complete" });
    const s = (await get(t.taskId)).result;
    assert.deepEqual([s.status, s.statusMessage], ["cancelled", "cancelled by client"]);
    assert.deepEqual((await cancel(t.taskId)).result, { resultType: "complete" });
    const d = await startTask("tool_error", { ms: 1 });
    const done = await waitFor(url, d.taskId, terminal);
    await cancel(d.taskId);
    assert.deepEqual((await get(d.taskId)).result, done);
  });

  test("task_only: -32021 (400) without the extension, a task with it", async () => {
    const r = await call("task_only", {}, { ext: false });
    assert.deepEqual([r.status, r.error.code], [400, -32021]);
    assert.deepEqual(r.error.data, { requiredCapabilities: { extensions: { [EXT]: {} } } });
    const t = await startTask("task_only", { ms: 5 });
    assert.equal(resultText(await waitFor(url, t.taskId, terminal)), "task only done");
  });

  test("mrtr: input_required, strict retry, then a task", async () => {
    const first = (await call("mrtr")).result;
    assert.equal(first.resultType, "input_required");
    assert.deepEqual(first.inputRequests.confirm.params.requestedSchema,
      { type: "object", properties: { ok: { type: "boolean", title: "OK" } }, required: ["ok"] });
    assert.equal(typeof first.requestState, "string");
    assert.match(first.requestState, /^[A-Za-z0-9+/]+=*$/);
    const yes = { confirm: { action: "accept", content: { ok: true } } };
    const bad = [
      { inputResponses: yes },
      { inputResponses: yes, requestState: `${first.requestState.slice(0, -4)}AAA=` },
      { inputResponses: {}, requestState: first.requestState },
      { requestState: first.requestState },
    ];
    for (const extra of bad) {
      const r = await rpc(url, "tools/call", { name: "mrtr", arguments: {}, ...extra });
      assert.equal(r.error?.code, -32602, JSON.stringify(extra));
    }
    const t = (await rpc(url, "tools/call", { name: "mrtr", arguments: {}, inputResponses: yes, requestState: first.requestState })).result;
    assert.equal(t.resultType, "task");
    assert.equal(resultText(await waitFor(url, t.taskId, terminal)), "confirmed: true");
  });

  test("mrtr2: two rounds with different requestStates, then a task", async () => {
    const r1 = (await call("mrtr2", { ms: 5 })).result;
    assert.deepEqual(Object.keys(r1.inputRequests), ["first"]);
    const r2 = (await rpc(url, "tools/call", { name: "mrtr2", arguments: { ms: 5 }, requestState: r1.requestState,
      inputResponses: { first: { action: "accept", content: { value: "a" } } } })).result;
    assert.equal(r2.resultType, "input_required");
    assert.deepEqual(Object.keys(r2.inputRequests), ["second"]);
    assert.notEqual(r2.requestState, r1.requestState);
    const t = (await rpc(url, "tools/call", { name: "mrtr2", arguments: { ms: 5 }, requestState: r2.requestState,
      inputResponses: { second: { action: "accept", content: { value: "b" } } } })).result;
    assert.equal(t.resultType, "task");
    assert.equal(resultText(await waitFor(url, t.taskId, terminal)), "first: a, second: b");
  });

  test("mrtr_state: requestState only, then a plain result", async () => {
    const r = (await call("mrtr_state")).result;
    assert.deepEqual(Object.keys(r), ["resultType", "requestState"]);
    const done = (await rpc(url, "tools/call", { name: "mrtr_state", arguments: {}, requestState: r.requestState })).result;
    assert.deepEqual(done, { resultType: "complete", content: [{ type: "text", text: "state ok" }] });
  });
});

describe("task options", () => {
  test("pollIntervalMs list applies to successive tasks/get reads", async () => {
    const t = await startTask("forever", { pollIntervalMs: [50, 200, 1000] });
    assert.equal(t.pollIntervalMs, 50);
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await get(t.taskId)).result.pollIntervalMs);
    assert.deepEqual(seen, [50, 200, 1000, 1000]);
    const one = await startTask("forever", { pollIntervalMs: 7 });
    assert.equal((await get(one.taskId)).result.pollIntervalMs, 7);
    const odd = await startTask("forever", { pollIntervalMs: [null, -5, 0], ttlMs: null });
    assert.ok(!("pollIntervalMs" in odd));
    assert.equal(odd.ttlMs, null);
    const reads = [];
    for (let i = 0; i < 3; i++) reads.push((await get(odd.taskId)).result.pollIntervalMs);
    assert.deepEqual(reads, [undefined, -5, 0]);
    for (const x of [t, one, odd]) await cancel(x.taskId);
  });

  test("staleReads: an answered key stays listed for that many reads", async () => {
    const t = await startTask("ask", { staleReads: 2 });
    await waitFor(url, t.taskId, (x) => x.status === "input_required");
    await update(t.taskId, { name: { action: "accept", content: { name: "Ada" } } });
    for (let i = 0; i < 2; i++) {
      const s = (await get(t.taskId)).result;
      assert.equal(s.status, "input_required");
      assert.ok(s.inputRequests.name);
    }
    await update(t.taskId, { name: { action: "accept", content: { name: "Twice" } } }); // resend: ignored
    const after = await waitFor(url, t.taskId, terminal);
    assert.equal(resultText(after), "hello, Ada");
  });

  test("ttlMs: the task expires (-32602) after createdAt + ttlMs", async () => {
    const t = await startTask("forever", { ttlMs: 200 });
    assert.equal(t.ttlMs, 200);
    assert.equal((await get(t.taskId)).result.status, "working");
    await sleep(230);
    const r = await get(t.taskId);
    assert.deepEqual([r.status, r.error.code], [200, -32602]);
  });

  test("lastUpdatedAt strictly increases with every change", async () => {
    const t = await startTask("ask_twice");
    await waitFor(url, t.taskId, (x) => x.status === "input_required");
    const l = await listen(url, [t.taskId]);
    await l.next();
    await update(t.taskId, { name: { action: "accept", content: { name: "A" } } });
    await update(t.taskId, { age: { action: "accept", content: { age: 1 } } });
    const stamps = (await l.rest()).filter((m) => m.method === "notifications/tasks").map((m) => m.params.lastUpdatedAt);
    assert.equal(stamps.length, 4); // working, input_required, working, completed
    for (let i = 1; i < stamps.length; i++) assert.ok(stamps[i] > stamps[i - 1]);
  });
});

describe("subscriptions/listen", () => {
  const ack = (l, taskIds) => ({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged",
    params: { _meta: { [SUB]: l.id }, notifications: { taskIds } } });
  const final = (l) => ({ jsonrpc: "2.0", id: l.id, result: { resultType: "complete", _meta: { [SUB]: l.id } } });

  test("normal: ack (unknown ids left out), every change, terminal event with result, then the listen result", async () => {
    const t = await startTask("slow", { ms: 150, steps: 3 });
    const l = await listen(url, [t.taskId, "tsk_unknown"]);
    assert.equal(l.status, 200);
    assert.deepEqual(await l.next(), ack(l, [t.taskId]));
    const msgs = await l.rest();
    assert.deepEqual(msgs.at(-1), final(l));
    const events = msgs.slice(0, -1);
    assert.ok(events.every((m) => m.method === "notifications/tasks" && m.params._meta[SUB] === l.id && m.params.taskId === t.taskId));
    const labels = events.map((m) => m.params.statusMessage ?? m.params.status);
    const expected = ["step 2/3", "step 3/3", "completed"]; // a busy machine may ack after a step
    assert.deepEqual(labels, expected.slice(expected.length - labels.length));
    assert.ok(labels.length >= 2);
    const last = events.at(-1).params;
    const { resultType, ...polled } = (await get(t.taskId)).result;
    assert.equal(resultType, "complete");
    assert.deepEqual({ ...last, _meta: undefined }, { ...polled, _meta: undefined });
    await sleep(5);
    assert.equal(srv.core.subscriptions, 0);
  });

  test("normal: input_required event carries inputRequests; failed carries error", async () => {
    const t = await startTask("ask_twice");
    await waitFor(url, t.taskId, (x) => x.status === "input_required");
    const l = await listen(url, [t.taskId], { id: 4242 });
    assert.deepEqual(await l.next(), ack(l, [t.taskId]));
    await update(t.taskId, { name: { action: "accept", content: { name: "Ada" } } });
    const asked = [await l.next(), await l.next()].map((m) => m.params);
    assert.deepEqual(asked.map((p) => p.status), ["working", "input_required"]);
    assert.deepEqual(Object.keys(asked[1].inputRequests), ["age"]);
    await update(t.taskId, { age: { action: "accept", content: { age: 3 } } });
    const msgs = await l.rest();
    assert.deepEqual(msgs.map((m) => m.params?.status ?? "result"), ["working", "completed", "result"]);
    assert.deepEqual(msgs.at(-1), final(l));
    assert.equal(msgs[1].params.result.content[0].text, "Ada is 3");

    const f = await startTask("fail", { ms: 30 });
    const fm = await (await listen(url, [f.taskId])).rest();
    assert.equal(fm.at(-2).params.status, "failed");
    assert.deepEqual(fm.at(-2).params.error, { code: -32603, message: "tool crashed", data: { reason: "test" } });
  });

  test("a task already terminal: ack then the listen result", async () => {
    const t = await startTask("tool_error", { ms: 1 });
    await waitFor(url, t.taskId, terminal);
    const l = await listen(url, [t.taskId]);
    assert.deepEqual(await l.rest(), [ack(l, [t.taskId]), final(l)]);
  });

  test("end_early: ack, then the listen result at once", async () => {
    const t = await startTask("slow", { ms: 60, listen: "end_early" });
    const l = await listen(url, [t.taskId]);
    assert.deepEqual(await l.rest(), [ack(l, [t.taskId]), final(l)]);
  });

  test("current_only: ack, one event with the current state, end", async () => {
    const t = await startTask("forever", { listen: "current_only" });
    const l = await listen(url, [t.taskId]);
    const msgs = await l.rest();
    assert.equal(msgs.length, 3);
    assert.deepEqual(msgs[0], ack(l, [t.taskId]));
    assert.deepEqual([msgs[1].params.taskId, msgs[1].params.status, msgs[1].params.statusMessage], [t.taskId, "working", "running forever"]);
    assert.deepEqual(msgs[2], final(l));
    await cancel(t.taskId);
  });

  test("noisy: foreign ids, duplicates and stale copies", async () => {
    const t = await startTask("ask", { listen: "noisy" });
    await waitFor(url, t.taskId, (x) => x.status === "input_required");
    const l = await listen(url, [t.taskId]);
    assert.deepEqual(await l.next(), ack(l, [t.taskId]));
    await update(t.taskId, { name: { action: "accept", content: { name: "Ada" } } });
    const msgs = await l.rest();
    assert.deepEqual(msgs.at(-1), final(l));
    const events = msgs.slice(0, -1).map((m) => m.params);
    assert.ok(events.every((p) => p._meta[SUB] === l.id));
    const label = (p) => (p.taskId === t.taskId ? p.status : "foreign");
    // one foreign event after the ack; per change: new state, foreign, new state again, stale previous state
    assert.deepEqual(events.map(label), ["foreign", "working", "foreign", "working", "input_required",
      "completed", "foreign", "completed", "working"]);
    assert.ok(events.filter((p) => p.taskId !== t.taskId).every((p) => p.taskId.startsWith("tsk_foreign_")));
    assert.ok(events[4].inputRequests.name); // the stale copy still lists the answered key
  });

  test("refuse: -32601 with HTTP 404", async () => {
    const t = await startTask("slow", { ms: 20, listen: "refuse" });
    const l = await listen(url, [t.taskId]);
    assert.deepEqual([l.status, l.error.code], [404, -32601]);
  });

  test("no_ack: the ack omits the id, then nothing until the client closes", async () => {
    const t = await startTask("slow", { ms: 30, listen: "no_ack" });
    const l = await listen(url, [t.taskId]);
    assert.deepEqual(await l.next(), ack(l, []));
    await waitFor(url, t.taskId, terminal);
    assert.equal(await l.next(100), "timeout");
    assert.equal(srv.core.subscriptions, 1);
    l.close();
    await sleep(30);
    assert.equal(srv.core.subscriptions, 0);
  });

  test("silent: the ack lists the id, then nothing until the client closes", async () => {
    const t = await startTask("slow", { ms: 30, listen: "silent" });
    const l = await listen(url, [t.taskId]);
    assert.deepEqual(await l.next(), ack(l, [t.taskId]));
    await waitFor(url, t.taskId, terminal);
    assert.equal(await l.next(100), "timeout");
    l.close();
    await sleep(30);
    assert.equal(srv.core.subscriptions, 0);
  });

  test("before_ack: one event before the ack, then like normal", async () => {
    const t = await startTask("ask", { listen: "before_ack" });
    await waitFor(url, t.taskId, (x) => x.status === "input_required");
    const l = await listen(url, [t.taskId]);
    const early = await l.next();
    assert.deepEqual([early.method, early.params.taskId, early.params.status], ["notifications/tasks", t.taskId, "input_required"]);
    assert.deepEqual(await l.next(), ack(l, [t.taskId]));
    await update(t.taskId, { name: { action: "accept", content: { name: "Ada" } } });
    const msgs = await l.rest();
    assert.deepEqual(msgs.map((m) => m.params?.status ?? "result"), ["working", "completed", "result"]);
    assert.deepEqual(msgs.at(-1), final(l));
  });

  test("a normal listen closed by the client is cleaned up; no taskIds → ack {} and end", async () => {
    const t = await startTask("forever");
    const l = await listen(url, [t.taskId]);
    assert.deepEqual(await l.next(), ack(l, [t.taskId]));
    assert.equal(srv.core.subscriptions, 1);
    l.close();
    await sleep(30);
    assert.equal(srv.core.subscriptions, 0);
    await cancel(t.taskId);
    const r = await rpc(url, "subscriptions/listen", { notifications: { toolsListChanged: true } });
    assert.match(r.ct, /^text\/event-stream/);
    assert.deepEqual(r.messages.map((m) => m.method ?? "result"), ["notifications/subscriptions/acknowledged", "result"]);
    assert.deepEqual(r.messages[0].params.notifications, {});
    const bad = await rpc(url, "subscriptions/listen", {});
    assert.equal(bad.error.code, -32602);
  });

  test("listen: false → -32601 (404)", async () => {
    const s = await startHttpServer({ listen: false });
    try {
      const l = await listen(s.url, []);
      assert.deepEqual([l.status, l.error.code], [404, -32601]);
    } finally { await s.close(); }
  });
});

describe("core without HTTP", () => {
  test("handle resolves results, rejects plain error objects, listen is an AsyncIterable that ends on abort", async () => {
    const core = createTasksCore({ pollIntervalMs: 5 });
    try {
      const m = { _meta: meta() };
      const err = await core.handle("tasks/get", { taskId: "x", ...m }).catch((e) => e);
      assert.ok(!(err instanceof Error));
      assert.deepEqual(err, { code: -32602, message: "tasks/get: unknown or expired task 'x'" });
      const t = await core.handle("tools/call", { name: "forever", arguments: {}, ...m });
      const ac = new AbortController();
      const it = await core.handle("subscriptions/listen", { notifications: { taskIds: [t.taskId] }, ...m }, { signal: ac.signal, id: 9 });
      const got = [];
      const reading = (async () => { for await (const n of it) got.push(n); })();
      await sleep(10);
      ac.abort();
      await reading;
      assert.deepEqual(got.map((n) => n.method), ["notifications/subscriptions/acknowledged"]);
      assert.equal(got[0].params._meta[SUB], 9);
      assert.equal(core.subscriptions, 0);
      assert.deepEqual(core.log.map((e) => e.method), ["tasks/get", "tools/call", "subscriptions/listen"]);
      core.resetLog();
      assert.equal(core.log.length, 0);
    } finally {
      core.close();
    }
  });

  test("close() stops running tasks and ends open listens", async () => {
    const core = createTasksCore();
    const m = { _meta: meta() };
    const t = await core.handle("tools/call", { name: "slow", arguments: { ms: 100000 }, ...m });
    const it = await core.handle("subscriptions/listen", { notifications: { taskIds: [t.taskId] }, ...m });
    const reading = (async () => { const out = []; for await (const n of it) out.push(n); return out; })();
    await sleep(5);
    core.close();
    assert.equal((await reading).length, 1);
    assert.equal(core.subscriptions, 0);
    await assert.rejects(core.handle("ping", m), { code: -32603 });
  });
});

describe("static files and CLI", () => {
  test("staticDir is served with the right content types; no path traversal", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "tasks-static-"));
    try {
      await mkdir(path.join(dir, "pkg"));
      const files = { "index.html": "<p>hi</p>", "pkg/a.js": "1", "pkg/b.mjs": "2", "pkg/c.wasm": "\0asm", "pkg/d.css": "",
        "pkg/e.json": "{}", "pkg/f.png": "", "pkg/g.d.ts": "export {};" };
      for (const [f, c] of Object.entries(files)) await writeFile(path.join(dir, f), c);
      const s = await startHttpServer({ staticDir: dir });
      try {
        const types = {};
        for (const f of ["", "index.html", ...Object.keys(files).slice(1)]) {
          const res = await fetch(`${s.origin}/${f}`);
          assert.equal(res.status, 200, f);
          types[f] = res.headers.get("content-type").split(";")[0];
          await res.arrayBuffer();
        }
        assert.deepEqual(types, { "": "text/html", "index.html": "text/html", "pkg/a.js": "text/javascript",
          "pkg/b.mjs": "text/javascript", "pkg/c.wasm": "application/wasm", "pkg/d.css": "text/css",
          "pkg/e.json": "application/json", "pkg/f.png": "image/png", "pkg/g.d.ts": "application/typescript" });
        assert.equal((await fetch(`${s.origin}/missing.js`)).status, 404);
        assert.equal((await fetch(`${s.origin}/%2e%2e/%2e%2e/etc/passwd`)).status, 404);
        assert.equal((await rpc(s.url, "ping")).status, 200);
      } finally { await s.close(); }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("cli prints READY <url> and stops on SIGTERM", async () => {
    const child = spawn(process.execPath, [path.join(HERE, "cli.mjs"), "--port", "0", "--poll-ms", "33", "--framing", "json"],
      { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const line = await new Promise((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d) => { out += d; if (out.includes("\n")) resolve(out); });
        child.once("exit", () => reject(new Error(`exited early: ${out}`)));
      });
      assert.match(line, /^READY http:\/\/127\.0\.0\.1:\d+\/mcp\n$/);
      const cliUrl = line.trim().split(" ")[1];
      const r = await rpc(cliUrl, "tools/call", { name: "slow", arguments: { ms: 10 } });
      assert.match(r.ct, /^application\/json/);
      assert.equal(r.result.pollIntervalMs, 33);
      const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      assert.equal(await exited, 0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
