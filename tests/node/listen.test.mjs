// Listen mode through the built package in Node, against the project's test server core (the
// direct client's listen) and, over HTTP, against its Streamable HTTP server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lib } from "./pkg.mjs";
import { createTasksCore } from "../server/core.mjs";

const { callTool, awaitTask, directClient } = lib;

async function withCore(options, fn) {
  const core = createTasksCore({ pollIntervalMs: 20, ...options });
  try {
    await fn(directClient((m, p, c) => core.handle(m, p, c), { inputHandlers: { form: () => ({ tag: "ok", response: { action: "accept", content: { name: "Lin" } } }) } }), core);
  } finally {
    core.close();
  }
}

const gets = (core) => core.log.filter((e) => e.method === "tasks/get").length;

test("a task completed through listen sends exactly one tasks/get", () =>
  withCore({}, async (client, core) => {
    const created = await callTool(client, "slow", { ms: 150, listen: "normal" });
    core.resetLog();
    const seen = [];
    const out = await awaitTask(client, created.status, { listen: true, onStatus: (s) => seen.push(s.statusMessage ?? s.status) });
    assert.equal(out.tag, "ok");
    assert.equal(gets(core), 1);
    assert.equal(core.log.filter((e) => e.method === "subscriptions/listen").length, 1);
    assert.equal(seen.at(-1), "completed");
    assert.equal(core.subscriptions, 0, "the stream was closed");
  }));

test("input requests pushed through listen are answered once", () =>
  withCore({}, async (client, core) => {
    const created = await callTool(client, "ask", { listen: "normal" });
    const out = await awaitTask(client, created.status, { listen: true });
    assert.equal(out.result.content[0].text, "hello, Lin");
    assert.equal(core.log.filter((e) => e.method === "tasks/update").length, 1);
  }));

test("noisy streams (foreign, duplicate, stale events) change nothing", () =>
  withCore({}, async (client) => {
    const created = await callTool(client, "slow", { ms: 100, listen: "noisy" });
    const seen = [];
    const out = await awaitTask(client, created.status, { listen: true, onStatus: (s) => seen.push(s.statusMessage ?? s.status) });
    assert.equal(out.tag, "ok");
    assert.equal(new Set(seen).size, seen.length, `no status twice: ${seen}`);
  }));

for (const mode of ["end_early", "current_only", "no_ack"]) {
  test(`listen mode ${mode} falls back to polling`, () =>
    withCore({}, async (client, core) => {
      const created = await callTool(client, "slow", { ms: 120, listen: mode });
      core.resetLog();
      const out = await awaitTask(client, created.status, { listen: true });
      assert.equal(out.tag, "ok");
      assert.ok(gets(core) >= 2, `polled ${gets(core)} times`);
    }));
}

test("a server without subscriptions refuses with -32601; a client without listen gets a transport error", () =>
  withCore({ listen: false }, async (client, core) => {
    const created = await callTool(client, "slow", { ms: 50 });
    const refused = await awaitTask(client, created.status, { listen: true });
    assert.equal(refused.error.code, -32601);
    assert.equal(refused.error.kind, "server");
    const noListen = { request: client.request };
    const out = await awaitTask(noListen, created.status, { listen: true });
    assert.equal(out.error.kind, "transport");
    assert.deepEqual(out.error.cause, { type: "listen_unsupported" });
  }));

test("the listen errors carry the task (never orphaned); listenFallback polls instead", () =>
  withCore({ listen: false }, async (client, core) => {
    const created = await callTool(client, "slow", { ms: 80 });
    const refused = await awaitTask(client, created.status, { listen: true });
    assert.equal(refused.tag, "error");
    assert.equal(refused.taskId, created.status.taskId, "the task's id beside the error");
    assert.equal(refused.status.taskId, created.status.taskId, "and its last status (the seed)");
    const noListen = { request: client.request };
    const bare = await awaitTask(noListen, created.status.taskId, { listen: true });
    assert.equal(bare.taskId, created.status.taskId);
    assert.equal(bare.status, undefined, "no status read yet: none");
    // Asked to: poll where there is no listen.
    core.resetLog();
    const polled = await awaitTask(client, created.status, { listen: true, listenFallback: true });
    assert.equal(polled.tag, "ok", JSON.stringify(polled));
    assert.ok(gets(core) >= 1);
    const polledBare = await awaitTask(noListen, created.status, { listen: true, listenFallback: true });
    assert.equal(polledBare.tag, "ok");
  }));

test("a silent stream is bounded by the deadline and closed", () =>
  withCore({}, async (client, core) => {
    const created = await callTool(client, "forever", { listen: "silent" });
    const out = await awaitTask(client, created.status, { listen: true, timeoutMs: 150 });
    assert.equal(out.error.code, -32001);
    assert.equal(core.subscriptions, 0);
  }));

test("the outcome does not wait for a stream whose return() never settles", async () => {
  const iterator = {
    [Symbol.asyncIterator]() { return this; },
    n: 0,
    next() {
      this.n += 1;
      if (this.n === 1) return Promise.resolve({ done: false, value: { jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds: ["t"] } } } });
      if (this.n === 2) return Promise.resolve({ done: false, value: { jsonrpc: "2.0", method: "notifications/tasks", params: { taskId: "t", status: "completed", result: { content: [] } } } });
      return new Promise(() => {});
    },
    returned: 0,
    return() { this.returned += 1; return new Promise(() => {}); },
  };
  let signal;
  const client = {
    request: async () => ({ taskId: "t", status: "working" }),
    listen: async (params, options) => { signal = options.signal; return iterator; },
  };
  const started = Date.now();
  const out = await awaitTask(client, "t", { listen: true });
  const took = Date.now() - started;
  assert.equal(out.tag, "ok");
  assert.ok(took < 500, `took ${took} ms`);
  // Closing happened, without being awaited: the signal aborted, return() called once.
  assert.ok(signal.aborted);
  assert.equal(iterator.returned, 1);
  assert.deepEqual(lib.liveCounts(), { runs: 0, requests: 0, asks: 0, streams: 0, timers: 0, calls: 0, failed: null });
});
