// sdkTransportClient over the official SDK's StreamableHTTPClientTransport (@modelcontextprotocol/client,
// a devDependency), against the project's test server in every framing: a task through callTool and
// awaitTask, JSON-RPC errors (HTTP 200 and the 404 the SDK throws on), the routing headers the
// transport derives from _meta, chaining of existing handlers, abort, timeout and close.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { lib, rejection } from "./pkg.mjs";
import { startHttpServer } from "../server/http.mjs";

const { sdkTransportClient, callTool, awaitTask, callAndAwait, TASKS_EXTENSION } = lib;
const withExt = { extensions: { [TASKS_EXTENSION]: {} } };


for (const framing of ["json", "sse", "mixed"]) {
  describe(`sdkTransportClient over StreamableHTTPClientTransport (${framing})`, () => {
    let srv;
    before(async () => { srv = await startHttpServer({ framing, pollIntervalMs: 20 }); });
    after(() => srv.close());

    test("callTool → task → awaitTask → ok", async () => {
      const transport = new StreamableHTTPClientTransport(new URL(srv.url));
      const client = sdkTransportClient(transport, { clientInfo: { name: "sdk-test", version: "1" } });
      const created = await callTool(client, "slow", { ms: 100, steps: 2 });
      assert.equal(created.tag, "task", JSON.stringify(created));
      const out = await awaitTask(client, created.status);
      assert.equal(out.tag, "ok", JSON.stringify(out));
      assert.equal(out.result.content[0].text, "slept 100 ms");
      await transport.close();
    });

    test("listen through the SDK transport: notifications routed to the stream, exactly one tasks/get", async () => {
      const transport = new StreamableHTTPClientTransport(new URL(srv.url));
      const client = sdkTransportClient(transport);
      const created = await callTool(client, "slow", { ms: 150 });
      srv.core.resetLog();
      const out = await awaitTask(client, created.status, { listen: true });
      assert.equal(out.tag, "ok", JSON.stringify(out));
      const log = srv.core.log;
      assert.equal(log.filter((e) => e.method === "subscriptions/listen").length, 1);
      assert.equal(log.filter((e) => e.method === "tasks/get").length, 1, JSON.stringify(log.map((e) => e.method)));
      await transport.close();
    });

    test("a JSON-RPC error rejects with the error object (200 and 404)", async () => {
      const transport = new StreamableHTTPClientTransport(new URL(srv.url));
      const client = sdkTransportClient(transport, { clientCapabilities: withExt });
      const unknown = await rejection(client.request("tasks/get", { taskId: "tsk_nope" }, {}));
      assert.equal(unknown.code, -32602);
      assert.match(unknown.message, /unknown or expired task/);
      const missing = await rejection(client.request("tasks/list", {}, {}));
      assert.equal(missing.code, -32601, `got ${missing?.message}`);
      const out = await callAndAwait(client, "fail");
      assert.equal(out.tag, "error");
      assert.equal(out.error.code, -32603);
      await transport.close();
    });
  });
}

describe("sdkTransportClient: wiring", () => {
  let srv;
  before(async () => { srv = await startHttpServer({ framing: "mixed", pollIntervalMs: 20 }); });
  after(() => srv.close());

  test("routing headers and _meta on the wire; existing handlers keep working", async () => {
    const seen = [];
    const fetchSpy = (url, init) => {
      seen.push({ headers: Object.fromEntries(new Headers(init.headers)), body: JSON.parse(init.body) });
      return fetch(url, init);
    };
    const transport = new StreamableHTTPClientTransport(new URL(srv.url), { fetch: fetchSpy });
    const others = [];
    transport.onmessage = (m) => others.push(m);
    const client = sdkTransportClient(transport, { clientCapabilities: withExt, requestTimeoutMs: 5000 });
    assert.equal(client.requestTimeoutMs, 5000);
    const task = await client.request("tools/call", { name: "slow", arguments: { ms: 50 } }, {});
    assert.equal(task.resultType, "task");
    await client.request("tasks/get", { taskId: task.taskId }, {});
    const [call, get] = seen;
    assert.equal(call.headers["mcp-method"], "tools/call");
    assert.equal(call.headers["mcp-name"], "slow");
    assert.equal(call.headers["mcp-protocol-version"], "2026-07-28");
    assert.equal(get.headers["mcp-name"], task.taskId);
    assert.match(call.body.id, /^mcp-tasks-wasm-\d+$/);
    assert.notEqual(call.body.id, get.body.id);
    assert.deepEqual(call.body.params._meta["io.modelcontextprotocol/clientCapabilities"], withExt);
    assert.deepEqual(call.body.params._meta["io.modelcontextprotocol/clientInfo"], { name: "mcp-tasks-wasm", version: "0.1.0" });
    // mixed framing: tools/call carries a notifications/message first; it goes to the previous handler
    assert.ok(others.some((m) => m.method === "notifications/message"), JSON.stringify(others));
    assert.ok(!others.some((m) => m.id === call.body.id), "our responses are not passed on");
    await transport.close();
  });

  test("abort via signal and timeoutMs reject; close rejects pending requests", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(srv.url));
    const client = sdkTransportClient(transport);
    const ac = new AbortController();
    const pending = client.request("tools/call", { name: "forever" }, { signal: ac.signal }); // sync: blocks
    setTimeout(() => ac.abort(), 30);
    const aborted = await rejection(pending);
    assert.equal(aborted.name, "McpChannelError");
    assert.match(aborted.message, /aborted/);
    const timedOut = await rejection(client.request("tools/call", { name: "forever" }, { timeoutMs: 50 }));
    assert.match(timedOut.message, /timed out after 50 ms/);
    const open = client.request("tools/call", { name: "forever" }, {});
    setTimeout(() => transport.close(), 30);
    const closed = await rejection(open);
    assert.ok(closed instanceof Error, String(closed));
    assert.equal(closed.code === undefined || typeof closed.code === "string", true);
  });

  test("bad arguments throw a TypeError", () => {
    assert.throws(() => sdkTransportClient({}), TypeError);
    assert.throws(() => sdkTransportClient(null), TypeError);
    assert.throws(() => sdkTransportClient({ send() {} }, { requestTimeoutMs: "x" }), TypeError);
  });
});
