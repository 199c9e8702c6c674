// httpClient against hostile application objects and hostile streams: a custom fetch that re-enters
// the client or gives something that is not a Response, a body that yields non-bytes, headers whose
// reading throws, a duck-typed signal whose removeEventListener re-enters, an event larger than the
// 8 MB cap, and a flood of notifications nobody reads. Each ends as a documented outcome (an
// McpHttpError or the thrown error), and the module keeps working.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lib, rejection } from "./pkg.mjs";

const { awaitTask, liveCounts } = lib;
// These tests are of the 2026-07-28 wire: the client is told its generation (no server/discover probe
// first); finding the generation out is tested in tests/node/generation.test.mjs.
const httpClient = (url, o) => lib.httpClient(url, o === undefined ? { generation: "2026-07-28" } : isPlain(o) ? { generation: "2026-07-28", ...o } : o);
function isPlain(o) {
  return typeof o === "object" && o !== null && !Array.isArray(o);
}
const idOf = (init) => JSON.parse(init.body).id;
const json = (body) => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
const sse = (stream) => new Response(stream, { headers: { "content-type": "text/event-stream" } });

async function stillWorks() {
  const client = httpClient("http://x.invalid/mcp", { fetch: async (u, init) => json({ jsonrpc: "2.0", id: idOf(init), result: { pong: 1 } }) });
  assert.deepEqual(await client.request("ping", {}), { pong: 1 });
}

test("a custom fetch that gives something that is not a Response: McpHttpError, no throw escapes", async () => {
  const cases = [null, 42, "x", {}, { status: 200 }, new Proxy({}, { get() { throw new Error("trap"); } })];
  for (const [i, garbage] of cases.entries()) {
    const client = httpClient("http://x.invalid/mcp", { fetch: async () => garbage });
    const e = await rejection(client.request("ping", {}));
    assert.equal(e.name, "McpHttpError", `case ${i}`);
  }
  await stillWorks();
});

test("a custom fetch that re-enters the client synchronously while its exchange is running", async () => {
  let client;
  let inner;
  client = httpClient("http://x.invalid/mcp", {
    fetch: (u, init) => {
      if (idOf(init) === 1) inner = client.request("ping", {}); // a second request from inside fetch
      return Promise.resolve(json({ jsonrpc: "2.0", id: idOf(init), result: { id: idOf(init) } }));
    },
  });
  assert.deepEqual(await client.request("ping", {}), { id: 1 });
  assert.deepEqual(await inner, { id: 2 });
});

test("a listen iterator closed from inside the custom fetch's own abort listener", async () => {
  let it;
  const client = httpClient("http://x.invalid/mcp", {
    fetch: (u, init) => {
      init.signal.addEventListener("abort", () => it?.return()); // re-enters return() while closing
      const body = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('data: {"jsonrpc":"2.0","method":"n"}\n\n')); } });
      return Promise.resolve(sse(body));
    },
  });
  it = await client.listen({ notifications: { taskIds: ["t"] } });
  assert.equal((await it.next()).value.method, "n");
  assert.deepEqual(await it.return(), { done: true, value: undefined });
  await stillWorks();
});

test("a body that yields chunks that are not bytes fails the request as a transport error", async () => {
  const client = httpClient("http://x.invalid/mcp", {
    fetch: async () => sse(new ReadableStream({ start(c) { c.enqueue("a string, not bytes"); c.close(); } })),
  });
  const e = await rejection(client.request("ping", {}));
  assert.equal(e.name, "McpHttpError");
  assert.match(e.message, /not bytes/);
});

test("headers whose reading throws reject the request with what was thrown", async () => {
  const trap = new Proxy({}, { ownKeys() { throw new Error("no keys"); } });
  const client = httpClient("http://x.invalid/mcp", { headers: trap, fetch: async () => json({}) });
  const e = await rejection(client.request("ping", {}));
  assert.equal(e.message, "no keys");
  const fn = httpClient("http://x.invalid/mcp", { headers: () => 7, fetch: async () => json({}) });
  assert.ok((await rejection(fn.request("ping", {}))) instanceof TypeError);
  await stillWorks();
});

test("a duck-typed signal whose removeEventListener re-enters the client", async () => {
  let client;
  let nested;
  const signal = {
    aborted: false,
    addEventListener() {},
    removeEventListener() { nested = client.request("ping", {}); },
  };
  client = httpClient("http://x.invalid/mcp", { fetch: async (u, init) => json({ jsonrpc: "2.0", id: idOf(init), result: { ok: idOf(init) } }) });
  assert.deepEqual(await client.request("ping", {}, { signal }), { ok: 1 });
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(await nested, { ok: 2 });
});

test("an event larger than 8 MB fails the stream instead of growing without bound", async () => {
  const chunk = new TextEncoder().encode("x".repeat(1 << 20));
  let sent = 0;
  const body = new ReadableStream({
    start(c) { c.enqueue(new TextEncoder().encode("data: ")); },
    pull(c) { sent += 1; c.enqueue(chunk); if (sent > 40) c.close(); },
  });
  const client = httpClient("http://x.invalid/mcp", { fetch: async () => sse(body) });
  const e = await rejection(client.request("ping", {}));
  assert.equal(e.name, "McpHttpError");
  assert.match(e.message, /larger than 8 MB/);
  assert.ok(sent <= 10, `stopped reading soon after the cap (${sent} MB read)`);
});

test("a listen flood is read on demand (the queue holds at most one chunk, capped at 10000)", async () => {
  const line = new TextEncoder().encode('data: {"jsonrpc":"2.0","method":"notifications/message"}\n\n'.repeat(2000));
  let pulls = 0;
  const body = new ReadableStream({ pull(c) { pulls += 1; c.enqueue(line); if (pulls > 50) c.close(); } });
  const client = httpClient("http://x.invalid/mcp", { fetch: async () => sse(body) });
  const it = await client.listen({ notifications: { taskIds: ["t"] } });
  // Reading one at a time: the reader asks for more only when the queue is drained, so no flood builds.
  for (let i = 0; i < 3; i++) assert.equal((await it.next()).value.method, "notifications/message");
  await it.return();
});

test("awaitTask over a hostile fetch ends with its documented outcome and leaves nothing running", async () => {
  const client = httpClient("http://x.invalid/mcp", { fetch: async () => ({ status: 200, headers: null }) });
  const out = await awaitTask(client, "t1", { timeoutMs: 400, retries: 0 });
  assert.equal(out.tag, "error");
  assert.equal(out.error.code, -32000);
  assert.equal(out.error.cause.type, "request_failed");
  assert.deepEqual(liveCounts(), { runs: 0, requests: 0, asks: 0, streams: 0, timers: 0, calls: 0, failed: null });
});

test("a 503 with Retry-After is re-issued after it; the outcome after retries is the last HTTP error", async () => {
  const sent = [];
  const client = httpClient("http://x.invalid/mcp", {
    fetch: async (u, init) => {
      sent.push(performance.now());
      if (sent.length === 1) return new Response("busy", { status: 503, headers: { "retry-after": "1" } });
      return json({ jsonrpc: "2.0", id: idOf(init), result: { taskId: "t1", status: "completed", result: { content: [] } } });
    },
  });
  const out = await awaitTask(client, "t1", { timeoutMs: 5000 });
  assert.equal(out.tag, "ok");
  assert.equal(sent.length, 2);
  assert.ok(sent[1] - sent[0] >= 990, `waited Retry-After: ${sent[1] - sent[0]} ms`);

  const down = httpClient("http://x.invalid/mcp", { fetch: async () => new Response("down", { status: 502 }) });
  const failed = await awaitTask(down, "t1", { timeoutMs: 5000, retries: 1 });
  assert.equal(failed.error.cause.type, "request_failed");
  assert.equal(failed.error.data.status, 502);
  const e = await rejection(httpClient("http://x.invalid/mcp", { fetch: async () => new Response("x", { status: 429, headers: { "retry-after": "2" } }) }).request("ping", {}));
  assert.equal(e.retryAfterMs, 2000);
});

test("discover: a headers function that throws synchronously is not cached as the discover result", async () => {
  let calls = 0;
  let posts = 0;
  const client = httpClient("http://x.invalid/mcp", {
    headers: () => {
      calls += 1;
      if (calls === 1) throw new Error("no token yet");
      return { authorization: "Bearer t" };
    },
    fetch: async (u, init) => {
      posts += 1;
      return json({ jsonrpc: "2.0", id: idOf(init), result: { capabilities: {}, supportedVersions: ["2026-07-28"] } });
    },
  });
  assert.equal((await rejection(client.discover())).message, "no token yet");
  assert.deepEqual((await client.discover()).supportedVersions, ["2026-07-28"]);
  assert.equal(await client.discover(), await client.discover(), "a success is cached");
  assert.equal(posts, 1);
});
