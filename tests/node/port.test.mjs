// portClient in Node: over a MessageChannel to the test server (polling and listen), and over an
// object shaped like a WebExtension runtime.Port whose disconnect closes the channel.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lib, rejection } from "./pkg.mjs";
import { createTasksCore } from "../server/core.mjs";
import { serveMessages } from "../server/messages.mjs";

const { portClient, callAndAwait, callTool, awaitTask, liveCounts } = lib;

test("a MessageChannel to the test server: a task, and listen with exactly one tasks/get", async () => {
  const core = createTasksCore({ pollIntervalMs: 20 });
  const { port1, port2 } = new MessageChannel();
  const receive = serveMessages(core, (m) => port2.postMessage(m));
  port2.addEventListener("message", (e) => receive(e.data));
  port2.start();
  const client = portClient(port1);
  try {
    assert.equal((await callAndAwait(client, "slow", { ms: 60 })).tag, "ok");
    const created = await callTool(client, "slow", { ms: 100 });
    core.resetLog();
    assert.equal((await awaitTask(client, created.status, { listen: true })).tag, "ok");
    assert.equal(core.log.filter((e) => e.method === "tasks/get").length, 1);
  } finally {
    client.close();
    port1.close();
    port2.close();
    core.close();
  }
});

test("an extension-style port: messages through onMessage, a disconnect fails what is pending", async () => {
  const listeners = { message: [], disconnect: [] };
  const sent = [];
  const port = {
    postMessage: (m) => sent.push(m),
    onMessage: { addListener: (f) => listeners.message.push(f), removeListener: () => {} },
    onDisconnect: { addListener: (f) => listeners.disconnect.push(f), removeListener: () => {} },
  };
  const client = portClient(port);
  const answered = client.request("ping", {});
  assert.equal(sent[0].method, "ping");
  assert.equal(sent[0].params._meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
  listeners.message[0]({ jsonrpc: "2.0", id: sent[0].id, result: { pong: true } });
  assert.deepEqual(await answered, { pong: true });
  const pending = awaitTask(client, "t1", { timeoutMs: 2000 });
  await new Promise((r) => setTimeout(r, 10));
  listeners.disconnect[0]();
  const out = await pending;
  assert.equal(out.tag, "error");
  assert.equal(out.error.code, -32000);
  assert.equal(out.error.cause.error.name, "McpPortError");
  assert.deepEqual(liveCounts(), { runs: 0, requests: 0, asks: 0, streams: 0, timers: 0, calls: 0, failed: null });
  assert.throws(() => portClient({}), TypeError);
  assert.throws(() => portClient({ postMessage() {} }), TypeError);
  assert.equal((await rejection(client.request("ping", {}))).name, "McpPortError");
});

test("a request or listen with an already-aborted signal rejects at once and sends nothing", async () => {
  const sent = [];
  const client = lib.channelClient((m) => sent.push(m));
  const signal = AbortSignal.abort("before");
  assert.equal((await rejection(client.request("ping", {}, { signal }))).name, "McpChannelError");
  assert.equal((await rejection(client.listen({ notifications: { taskIds: ["t"] } }, { signal }))).name, "McpChannelError");
  assert.deepEqual(sent, []);
  // And one aborted later sends notifications/cancelled for the id it sent.
  const later = new AbortController();
  const p = client.request("ping", {}, { signal: later.signal });
  later.abort();
  await rejection(p);
  assert.deepEqual(sent.map((m) => m.method), ["ping", "notifications/cancelled"]);
  assert.equal(sent[1].params.requestId, sent[0].id);
});
