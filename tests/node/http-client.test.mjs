// httpClient (Streamable HTTP over fetch) in Node, against the project's test server in every framing
// (json, sse, mixed): the exact wire headers and _meta, JSON-RPC errors at 200/400/404, SSE replies
// with keep-alives and interleaved notifications, McpHttpError for non-JSON bodies, refused
// connections, aborts and timeouts, the header option (static, sync and async function), a custom
// fetch, base64-sentinel Mcp-Name, listen (ack, notifications, graceful end, refusal, return() while
// pending), discover caching, and the library end to end (polling and listen).
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { lib, rejection } from "./pkg.mjs";
import { startHttpServer } from "../server/http.mjs";

const { callTool, callAndAwait, serverSupports, TASKS_EXTENSION } = lib;
// These tests are of the 2026-07-28 wire: the client is told its generation (no server/discover probe
// first); finding the generation out is tested in tests/node/generation.test.mjs.
const httpClient = (url, o) => lib.httpClient(url, o === undefined ? { generation: "2026-07-28" } : isPlain(o) ? { generation: "2026-07-28", ...o } : o);
function isPlain(o) {
  return typeof o === "object" && o !== null && !Array.isArray(o);
}
const V = "io.modelcontextprotocol/protocolVersion";
const C = "io.modelcontextprotocol/clientCapabilities";
const I = "io.modelcontextprotocol/clientInfo";
const withExt = { extensions: { [TASKS_EXTENSION]: {} } };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));


function isMcpHttpError(e, status) {
  assert.ok(e instanceof Error, `an Error: ${e}`);
  assert.equal(e.name, "McpHttpError");
  assert.equal(typeof e.message, "string");
  assert.equal(e.code, undefined, "no code property");
  assert.equal(e.status, status);
  assert.equal(typeof e.body, "string");
  assert.ok(e.body.length <= 200);
}

/** A tiny node:http server answering every POST with `handler(req, body, res)`; records headers. */
async function rawServer(handler) {
  const seen = [];
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks).toString("utf8");
    seen.push({ headers: req.headers, body: body ? JSON.parse(body) : undefined });
    handler(req, body ? JSON.parse(body) : undefined, res);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    seen,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
  };
}

/** A fetch wrapper that records every call (method, headers, parsed body). */
function recordingFetch() {
  const calls = [];
  const f = async (url, init) => {
    calls.push({ url, headers: Object.fromEntries(new Headers(init.headers)), body: JSON.parse(init.body), signal: init.signal });
    return fetch(url, init);
  };
  return { f, calls };
}

for (const framing of ["json", "sse", "mixed"]) {
  describe(`httpClient against the test server (${framing})`, () => {
    let srv;
    before(async () => { srv = await startHttpServer({ framing, pollIntervalMs: 20 }); });
    after(() => srv.close());

    test("headers and _meta arrive exactly; params are not mutated", async () => {
      const rec = recordingFetch();
      const client = httpClient(srv.url, { fetch: rec.f });
      const params = { name: "echo", arguments: { text: "hi" }, _meta: { [C]: withExt, custom: 1 } };
      const frozen = structuredClone(params);
      const result = await client.request("tools/call", params);
      assert.deepEqual(result.content, [{ type: "text", text: "hi" }]);
      assert.deepEqual(params, frozen, "the caller's params are untouched");
      const { headers, body } = rec.calls[0];
      assert.equal(headers["content-type"], "application/json");
      assert.equal(headers.accept, "application/json, text/event-stream");
      assert.equal(headers["mcp-protocol-version"], "2026-07-28");
      assert.equal(headers["mcp-method"], "tools/call");
      assert.equal(headers["mcp-name"], "echo");
      assert.equal(body.jsonrpc, "2.0");
      assert.equal(typeof body.id, "number");
      assert.equal(body.method, "tools/call");
      assert.equal(body.params._meta[V], "2026-07-28");
      assert.deepEqual(body.params._meta[C], withExt, "the capabilities already in _meta are kept");
      assert.deepEqual(body.params._meta[I], { name: "mcp-tasks-wasm", version: "0.1.0" });
      assert.equal(body.params._meta.custom, 1);
    });

    test("tools/call → task; tasks/get, tasks/update, tasks/cancel with Mcp-Name", async () => {
      const rec = recordingFetch();
      const client = httpClient(srv.url, { fetch: rec.f, clientCapabilities: { ...withExt, elicitation: { form: {} } } });
      const task = await client.request("tools/call", { name: "forever" });
      assert.equal(task.resultType, "task");
      const got = await client.request("tasks/get", { taskId: task.taskId });
      assert.equal(got.status, "working");
      assert.equal((await client.request("tasks/update", { taskId: task.taskId, inputResponses: {} })).resultType, "complete");
      assert.equal((await client.request("tasks/cancel", { taskId: task.taskId })).resultType, "complete");
      assert.equal((await client.request("tasks/get", { taskId: task.taskId })).status, "cancelled");
      const names = rec.calls.map((c) => [c.headers["mcp-method"], c.headers["mcp-name"]]);
      assert.deepEqual(names.slice(1, 4), [["tasks/get", task.taskId], ["tasks/update", task.taskId], ["tasks/cancel", task.taskId]]);
      assert.deepEqual(rec.calls[1].body.params._meta[C], { ...withExt, elicitation: { form: {} } }, "option clientCapabilities");
    });

    test("JSON-RPC errors reject with the error object (HTTP 200, 400, 404)", async () => {
      const client = httpClient(srv.url);
      // 200: unknown task (-32602)
      const unknown = await rejection(client.request("tasks/get", { taskId: "tsk_nope", _meta: { [C]: withExt } }));
      assert.equal(Object.getPrototypeOf(unknown), Object.prototype, "a plain object");
      assert.equal(unknown.code, -32602);
      assert.match(unknown.message, /unknown or expired task/);
      // 400: tasks/* without the extension (-32021), with data
      const cap = await rejection(client.request("tasks/get", { taskId: "tsk_nope" }));
      assert.equal(cap.code, -32021);
      assert.deepEqual(cap.data.requiredCapabilities, withExt);
      // 404: unknown method (-32601)
      const missing = await rejection(client.request("tasks/list", {}));
      assert.equal(missing.code, -32601);
      // 200 error from a sync tool
      const fail = await rejection(client.request("tools/call", { name: "fail" }));
      assert.equal(fail.code, -32603);
      assert.deepEqual(fail.data, { reason: "test" });
    });

    test("a non-ASCII task id travels base64-sentinel encoded (the server decodes it)", async () => {
      const rec = recordingFetch();
      const client = httpClient(srv.url, { fetch: rec.f, clientCapabilities: withExt });
      for (const taskId of ["tâche-ü-1", " padded ", "=?base64?dHNr?="]) {
        const e = await rejection(client.request("tasks/get", { taskId }));
        assert.equal(e.code, -32602, `${taskId}: got past the header check (${e.message})`);
        const sent = rec.calls.at(-1).headers["mcp-name"];
        assert.equal(sent, `=?base64?${Buffer.from(taskId).toString("base64")}?=`);
      }
    });

    test("request ids are unique per client", async () => {
      const rec = recordingFetch();
      const client = httpClient(srv.url, { fetch: rec.f });
      await Promise.all([client.request("ping"), client.request("ping"), client.request("ping", {})]);
      await client.request("ping");
      const ids = rec.calls.map((c) => c.body.id);
      assert.equal(new Set(ids).size, 4, `ids ${ids}`);
    });

    test("library end to end: callAndAwait slow → ok (polling)", async () => {
      const out = await callAndAwait(httpClient(srv.url), "slow", { ms: 200 });
      assert.equal(out.tag, "ok", JSON.stringify(out));
      assert.equal(out.result.content[0].text, "slept 200 ms");
    });

    test("library end to end: {listen: true} → ok with exactly one tasks/get", async () => {
      await fetch(`${srv.origin}/_test/reset`, { method: "POST" });
      const out = await callAndAwait(httpClient(srv.url), "slow", { ms: 200 }, {}, { listen: true, pollIntervalMs: 10000 });
      assert.equal(out.tag, "ok", JSON.stringify(out));
      const log = await (await fetch(`${srv.origin}/_test/log`)).json();
      assert.equal(log.filter((e) => e.method === "tasks/get").length, 1, JSON.stringify(log.map((e) => e.method)));
      assert.equal(log.filter((e) => e.method === "subscriptions/listen").length, 1);
    });

    test("listen: ack, notifications, graceful end", async () => {
      const client = httpClient(srv.url, { clientCapabilities: withExt });
      const task = await client.request("tools/call", { name: "slow", arguments: { ms: 120, steps: 2 } });
      const it = await client.listen({ notifications: { taskIds: [task.taskId] } }, { signal: new AbortController().signal });
      assert.equal(it[Symbol.asyncIterator](), it);
      const seen = [];
      for await (const n of it) seen.push(n);
      assert.equal(seen[0].method, "notifications/subscriptions/acknowledged");
      assert.deepEqual(seen[0].params.notifications.taskIds, [task.taskId]);
      const last = seen.at(-1);
      assert.equal(last.method, "notifications/tasks");
      assert.equal(last.params.status, "completed");
      assert.equal(typeof last.params._meta["io.modelcontextprotocol/subscriptionId"], "number");
      assert.deepEqual(await it.next(), { done: true, value: undefined });
    });
  });
}

describe("httpClient: transport failures, options, listen edges", () => {
  let srv;
  before(async () => { srv = await startHttpServer({ framing: "mixed", pollIntervalMs: 20 }); });
  after(() => srv.close());

  test("SSE with keep-alive comments, interleaved notifications, CRLF and split writes", async () => {
    const raw = await rawServer((req, body, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(": keep-alive\r\n\r\n");
      res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { data: "x" } })}\r\n\r\n`);
      res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: body.id + 1000, result: { wrong: true } })}\r\n\r\n`);
      res.write("event: other\ndata: {\"jsonrpc\":\"2.0\",\"id\":" + body.id + ",\"result\":{\"wrong\":\"type\"}}\n\n");
      const event = `data: ${JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { ok: "ü ✓" } })}\r\n\r\n`;
      const bytes = Buffer.from(event);
      res.write(bytes.subarray(0, 20));
      setTimeout(() => { res.write(bytes.subarray(20, bytes.length - 1)); setTimeout(() => res.end(bytes.subarray(bytes.length - 1)), 10); }, 10);
    });
    try {
      assert.deepEqual(await httpClient(raw.url).request("ping", {}), { ok: "ü ✓" });
    } finally {
      await raw.close();
    }
  });

  test("an SSE stream that ends without the response → McpHttpError", async () => {
    const raw = await rawServer((req, body, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.end(": bye\n\ndata: not json\n\n");
    });
    try {
      const e = await rejection(httpClient(raw.url).request("ping", {}));
      isMcpHttpError(e, 200);
      assert.match(e.message, /ended without a response/);
      assert.match(e.body, /not json/);
    } finally {
      await raw.close();
    }
  });

  test("a non-JSON body → McpHttpError with status and body excerpt", async () => {
    const raw = await rawServer((req, body, res) => {
      res.writeHead(502, { "Content-Type": "text/html" });
      res.end("<html>" + "bad gateway ".repeat(50) + "</html>");
    });
    try {
      const e = await rejection(httpClient(raw.url).request("ping", {}));
      isMcpHttpError(e, 502);
      assert.match(e.message, /not JSON/);
      assert.ok(e.body.startsWith("<html>bad gateway"));
      assert.equal(e.body.length, 200);
    } finally {
      await raw.close();
    }
  });

  test("JSON that is not a response to this request → McpHttpError", async () => {
    const raw = await rawServer((req, body, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: body.id + 1, result: {} }));
    });
    try {
      const e = await rejection(httpClient(raw.url).request("ping", {}));
      isMcpHttpError(e, 200);
      assert.match(e.message, /not a response to this request/);
    } finally {
      await raw.close();
    }
  });

  test("a refused connection → McpHttpError with status 0", async () => {
    const raw = await rawServer(() => {});
    const url = raw.url;
    await raw.close();
    const e = await rejection(httpClient(url).request("ping", {}));
    isMcpHttpError(e, 0);
    assert.equal(e.body, "");
    assert.match(e.message, /^ping: network error/);
    assert.ok(e.cause);
  });

  test("abort via signal, before and during the request", async () => {
    const client = httpClient(srv.url, { clientCapabilities: {} });
    const pre = new AbortController();
    pre.abort();
    const e1 = await rejection(client.request("ping", {}, { signal: pre.signal }));
    isMcpHttpError(e1, 0);
    assert.match(e1.message, /aborted/);
    const ac = new AbortController();
    const t0 = Date.now();
    const pending = client.request("tools/call", { name: "forever" }, { signal: ac.signal }); // sync without the extension
    setTimeout(() => ac.abort(), 50);
    const e2 = await rejection(pending);
    isMcpHttpError(e2, 0);
    assert.match(e2.message, /aborted/);
    assert.ok(Date.now() - t0 < 1000);
  });

  test("timeoutMs aborts; requestTimeoutMs is the default", async () => {
    const t0 = Date.now();
    const e = await rejection(httpClient(srv.url).request("tools/call", { name: "forever" }, { timeoutMs: 80 }));
    isMcpHttpError(e, 0);
    assert.match(e.message, /timed out after 80 ms/);
    assert.ok(Date.now() - t0 < 1000);
    const client = httpClient(srv.url, { requestTimeoutMs: 60 });
    assert.equal(client.requestTimeoutMs, 60);
    isMcpHttpError(await rejection(client.request("tools/call", { name: "forever" })), 0);
    // An SSE response that stalls after its headers times out while reading the body.
    const raw = await rawServer((req, body, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(": hold\n\n");
    });
    try {
      const stalled = await rejection(httpClient(raw.url).request("ping", {}, { timeoutMs: 80 }));
      isMcpHttpError(stalled, 200);
      assert.match(stalled.message, /timed out/);
    } finally {
      await raw.close();
    }
  });

  test("headers option: static, sync function, async function; protocol headers win", async () => {
    const rec = recordingFetch();
    const a = httpClient(srv.url, { fetch: rec.f, headers: { Authorization: "Bearer static", "mcp-method": "evil", "Mcp-Name": "evil", Accept: "text/plain" } });
    await a.request("ping", {});
    assert.equal(rec.calls[0].headers.authorization, "Bearer static");
    assert.equal(rec.calls[0].headers["mcp-method"], "ping");
    assert.equal(rec.calls[0].headers["mcp-name"], undefined, "no Mcp-Name for a method without one");
    assert.equal(rec.calls[0].headers.accept, "application/json, text/event-stream");
    const args = [];
    const b = httpClient(srv.url, { fetch: rec.f, headers: (method, params) => { args.push([method, params]); return { "X-Sync": method }; } });
    await b.request("tools/call", { name: "echo", arguments: { text: "x" } });
    assert.equal(rec.calls[1].headers["x-sync"], "tools/call");
    assert.equal(args[0][1].name, "echo");
    assert.equal(args[0][1]._meta[V], "2026-07-28");
    const c = httpClient(srv.url, { fetch: rec.f, headers: async () => { await sleep(5); return [["X-Async", "yes"]]; } });
    await c.request("ping", {});
    assert.equal(rec.calls[2].headers["x-async"], "yes");
    const boom = new Error("no token");
    const d = httpClient(srv.url, { headers: async () => { throw boom; } });
    assert.equal(await rejection(d.request("ping", {})), boom, "a failing headers function rejects with its error");
  });

  test("custom fetch: called with (url, init) and its Response is read", async () => {
    const calls = [];
    const client = httpClient(new URL(srv.url), {
      fetch: (url, init) => {
        calls.push([url, init.method]);
        return Promise.resolve(new Response(JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(init.body).id, result: { fake: true } }), { headers: { "content-type": "application/json" } }));
      },
    });
    assert.deepEqual(await client.request("anything", {}), { fake: true });
    assert.deepEqual(calls, [[srv.url, "POST"]]);
    const throwing = httpClient(srv.url, { fetch: () => { throw new TypeError("boom"); } });
    const e = await rejection(throwing.request("ping", {}));
    isMcpHttpError(e, 0);
    assert.match(e.message, /boom/);
  });

  test("bad arguments throw a TypeError", () => {
    assert.throws(() => httpClient(), TypeError);
    assert.throws(() => httpClient(""), TypeError);
    assert.throws(() => httpClient(srv.url, 5), TypeError);
    for (const bad of [{ headers: "x" }, { fetch: {} }, { requestTimeoutMs: -1 }, { requestTimeoutMs: "5" }, { clientInfo: "x" }, { clientCapabilities: [] }, { inputHandlers: 1 }]) {
      assert.throws(() => httpClient(srv.url, bad), TypeError, JSON.stringify(bad));
    }
    const handlers = { form: () => {} };
    const client = httpClient(srv.url, { inputHandlers: handlers, clientCapabilities: withExt });
    assert.equal(client.inputHandlers, handlers);
    assert.deepEqual(client.clientCapabilities, withExt);
    assert.equal(typeof client.request, "function");
    assert.equal(typeof client.listen, "function");
    assert.equal(typeof client.discover, "function");
    assert.equal("requestTimeoutMs" in client, false);
  });

  test("clientInfo option", async () => {
    const rec = recordingFetch();
    await httpClient(srv.url, { fetch: rec.f, clientInfo: { name: "app", version: "9" } }).request("ping", {});
    assert.deepEqual(rec.calls[0].body.params._meta[I], { name: "app", version: "9" });
  });

  test("discover: cached per client; a failure is not cached", async () => {
    await fetch(`${srv.origin}/_test/reset`, { method: "POST" });
    const client = httpClient(srv.url);
    const [d1, d2] = await Promise.all([client.discover(), client.discover()]);
    assert.equal(d1, d2);
    assert.ok(serverSupports(d1));
    assert.equal(await client.discover(), d1);
    const log = await (await fetch(`${srv.origin}/_test/log`)).json();
    assert.equal(log.filter((e) => e.method === "server/discover").length, 1);
    let n = 0;
    const flaky = httpClient(srv.url, { fetch: (u, i) => (++n === 1 ? Promise.reject(new TypeError("offline")) : fetch(u, i)) });
    isMcpHttpError(await rejection(flaky.discover()), 0);
    assert.ok(serverSupports(await flaky.discover()));
    assert.equal(n, 2);
  });

  test("listen refused (-32601 at HTTP 404) rejects with the error object", async () => {
    const noListen = await startHttpServer({ listen: false });
    try {
      const e = await rejection(httpClient(noListen.url, { clientCapabilities: withExt }).listen({ notifications: { taskIds: [] } }, {}));
      assert.equal(e.code, -32601);
    } finally {
      await noListen.close();
    }
  });

  test("listen: a JSON-RPC error inside the stream rejects next()", async () => {
    const raw = await rawServer((req, body, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: {} })}\n\n`);
      res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: -32603, message: "gone" } })}\n\n`);
    });
    try {
      const it = await httpClient(raw.url).listen({ notifications: {} });
      assert.equal((await it.next()).value.method, "notifications/subscriptions/acknowledged");
      const e = await rejection(it.next());
      assert.deepEqual(e, { code: -32603, message: "gone" });
      assert.deepEqual(await it.next(), { done: true, value: undefined });
    } finally {
      await raw.close();
    }
  });

  test("listen: return() while next() is pending resolves both promptly and closes the stream", async () => {
    const client = httpClient(srv.url, { clientCapabilities: withExt });
    const task = await client.request("tools/call", { name: "slow", arguments: { ms: 60000, listen: "silent" } });
    const before = srv.core.subscriptions;
    const it = await client.listen({ notifications: { taskIds: [task.taskId] } });
    assert.equal((await it.next()).value.method, "notifications/subscriptions/acknowledged");
    const pending = it.next();
    await sleep(20);
    const t0 = Date.now();
    assert.deepEqual(await it.return(), { done: true, value: undefined });
    assert.deepEqual(await pending, { done: true, value: undefined });
    assert.ok(Date.now() - t0 < 200);
    for (let i = 0; i < 50 && srv.core.subscriptions > before; i++) await sleep(10);
    assert.equal(srv.core.subscriptions, before, "the server saw the stream close");
    await client.request("tasks/cancel", { taskId: task.taskId });
  });

  test("listen: aborting the signal ends the iteration", async () => {
    const client = httpClient(srv.url, { clientCapabilities: withExt });
    const task = await client.request("tools/call", { name: "forever", arguments: { listen: "silent" } });
    const ac = new AbortController();
    const it = await client.listen({ notifications: { taskIds: [task.taskId] } }, { signal: ac.signal });
    assert.equal((await it.next()).done, false);
    const pending = it.next();
    setTimeout(() => ac.abort(), 20);
    assert.deepEqual(await pending, { done: true, value: undefined });
    await client.request("tasks/cancel", { taskId: task.taskId });
  });

  test("listen: concurrent next() calls are answered in order", async () => {
    const client = httpClient(srv.url, { clientCapabilities: withExt });
    const task = await client.request("tools/call", { name: "slow", arguments: { ms: 60, steps: 2, listen: "current_only" } });
    const it = await client.listen({ notifications: { taskIds: [task.taskId] } });
    const [a, b, c, d] = await Promise.all([it.next(), it.next(), it.next(), it.next()]);
    assert.equal(a.value.method, "notifications/subscriptions/acknowledged");
    assert.equal(b.value.method, "notifications/tasks");
    assert.deepEqual([c.done, d.done], [true, true]);
  });

  test("callTool through httpClient with an MRTR round (mixed framing)", async () => {
    const client = httpClient(srv.url, {
      inputHandlers: { form: async () => ({ tag: "ok", response: { action: "accept", content: { ok: true } } }) },
    });
    const out = await callAndAwait(client, "mrtr");
    assert.equal(out.tag, "ok", JSON.stringify(out));
    assert.equal(out.result.content[0].text, "confirmed: true");
    const created = await callTool(client, "slow", { ms: 50 });
    assert.equal(created.tag, "task");
  });
});
