// channelClient (js/channel.js), the JSON-RPC channel under every message transport: ids, routing,
// cancellation, close, streams, and what hostile values and a throwing `send` do — through the
// package, over a bare message pair (the transports' own tests run it over real ports and stdio).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { lib, rejection } from "./pkg.mjs";

const { channelClient } = lib;
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

/** A channel whose sent messages are kept in `sent`. */
function pair(options) {
  const sent = [];
  const client = channelClient((m) => sent.push(m), options);
  return { sent, client, last: () => sent.at(-1) };
}

test("ids are unique, responses match by id out of order, the error object is the rejection", async () => {
  const { sent, client } = pair();
  const a = client.request("tasks/get", { taskId: "t" });
  const b = client.request("tools/call", { name: "x" });
  assert.notEqual(sent[0].id, sent[1].id);
  assert.deepEqual(Object.keys(sent[0]), ["jsonrpc", "id", "method", "params"]);
  assert.equal(sent[0].jsonrpc, "2.0");
  const result = { x: 1 };
  assert.equal(client.receive({ jsonrpc: "2.0", id: sent[1].id, result }), true);
  assert.equal(await b, result, "the very result object");
  const err = { code: -32602, message: "unknown task" };
  assert.equal(client.receive({ jsonrpc: "2.0", id: sent[0].id, error: err }), true);
  assert.equal(await rejection(a), err);
  const c = client.request("ping", {});
  client.receive({ id: sent[2].id, error: { code: 1.5, message: "not an integer" } });
  const e = await rejection(c);
  assert.equal(e.name, "McpChannelError");
  assert.equal(e.status, undefined, "no HTTP fields off HTTP");
  assert.match(e.message, /malformed JSON-RPC error/);
  assert.deepEqual(e.cause, { code: 1.5, message: "not an integer" });
});

test("a response for an unknown or settled id and garbage are ignored", async () => {
  const { sent, client } = pair();
  const p = client.request("ping", {});
  const id = sent[0].id;
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const trap = new Proxy({}, { get() { throw new Error("trap"); }, ownKeys() { throw new Error("trap"); } });
  for (const [i, junk] of [{ id: 99, result: {} }, null, [1], "x", { id }, { id, method: "sampling/createMessage" }, { id: String(id), result: {} }, revoked.proxy, trap].entries()) {
    assert.equal(client.receive(junk), false, `junk #${i}`);
  }
  assert.equal(client.receive({ id, result: {} }), true);
  assert.equal(client.receive({ id, result: {} }), false, "a second response for a settled id");
  await p;
});

test("notifications go to their subscription, else by taskId; an untagged acknowledgement answers each listen once", async () => {
  const { sent, client } = pair();
  const one = await client.listen({ notifications: { taskIds: ["t1"] } });
  const two = await client.listen({ notifications: { taskIds: ["t1", "t2"] } });
  const [idOne, idTwo] = [sent[0].id, sent[1].id];
  const tagged = { method: "notifications/tasks", params: { _meta: { "io.modelcontextprotocol/subscriptionId": idTwo }, taskId: "t1" } };
  assert.equal(client.receive(tagged), true);
  assert.equal((await two.next()).value, tagged, "the very message");
  const untagged = { method: "notifications/tasks", params: { taskId: "t1" } };
  assert.equal(client.receive(untagged), true);
  assert.equal((await one.next()).value, untagged);
  assert.equal((await two.next()).value, untagged);
  assert.equal(client.receive({ method: "notifications/tasks", params: { taskId: "t9" } }), false);
  assert.equal(client.receive({ method: "notifications/message", params: {} }), false);
  const ack = (ids) => ({ method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds: ids } } });
  assert.equal(client.receive(ack(["t2"])), true);
  assert.equal((await two.next()).value.method, "notifications/subscriptions/acknowledged");
  const both = ack(["t1", "t2"]);
  assert.equal(client.receive(both), true, "goes to the one not yet acknowledged");
  assert.equal((await one.next()).value, both);
  assert.equal(client.receive(ack(["t1"])), false, "both acknowledged already");
  assert.ok(idOne !== idTwo);
  await one.return();
  await two.return();
});

test("the listen's response ends its stream: its result cleanly, its error rejects next()", async () => {
  const { sent, client } = pair();
  const a = await client.listen({ notifications: { taskIds: ["t1"] } });
  const b = await client.listen({ notifications: { taskIds: ["t1"] } });
  const waiting = a.next();
  assert.equal(client.receive({ id: sent[0].id, result: { resultType: "complete" } }), true);
  assert.deepEqual(await waiting, { done: true, value: undefined });
  const e = { code: -32601, message: "no" };
  assert.equal(client.receive({ id: sent[1].id, error: e }), true);
  assert.equal(await rejection(b.next()), e);
  assert.deepEqual(await b.next(), { done: true, value: undefined });
  assert.equal(client.receive({ method: "notifications/tasks", params: { taskId: "t1" } }), false);
  assert.equal(client.receive({ id: sent[0].id, result: {} }), false);
  assert.equal(sent.length, 2, "nothing cancelled: the server ended them");
});

test("with idPrefix ids are strings and other ids are not ours", async () => {
  const { sent, client } = pair({ idPrefix: "mtw-", requestTimeoutMs: 5 });
  const p = client.request("ping", {});
  assert.equal(sent[0].id, "mtw-1");
  for (const id of [1, "other-1", "mtw-x1", "mtw-", "mtw-1.0", "mtw-01x"]) assert.equal(client.receive({ id, result: {} }), false, String(id));
  assert.equal(client.receive({ id: "mtw-1", result: { ok: 1 } }), true);
  assert.deepEqual(await p, { ok: 1 });
  const timedOut = client.request("ping", {});
  await rejection(timedOut);
  assert.equal(sent[2].method, "notifications/cancelled");
  assert.equal(sent[2].params.requestId, "mtw-2");
  assert.throws(() => channelClient(() => {}, { idPrefix: 7 }), /channelClient: options.idPrefix must be a string/);
});

test("a timeout rejects, sends notifications/cancelled once, and a late response is ignored; an answer unties the timer", async () => {
  const { sent, client } = pair({ requestTimeoutMs: 30 });
  const slow = client.request("tasks/get", {}, { timeoutMs: 20 });
  const answered = client.request("ping", {});
  client.receive({ id: sent[1].id, result: {} });
  await answered;
  const e = await rejection(slow);
  assert.equal(e.name, "McpChannelError");
  assert.equal(e.message, "tasks/get: request timed out after 20 ms");
  await tick(40);
  const cancels = sent.filter((m) => m.method === "notifications/cancelled");
  assert.deepEqual(cancels, [{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: sent[0].id, reason: "the client gave up the request" } }]);
  assert.equal(client.receive({ id: sent[0].id, result: {} }), false, "a late response after the cancel");
});

test("a signal aborted after sending rejects and cancels; one aborted before sends nothing", async () => {
  const { sent, client } = pair();
  assert.equal((await rejection(client.request("ping", {}, { signal: AbortSignal.abort() }))).message, "ping: request aborted");
  assert.equal(sent.length, 0);
  const c = new AbortController();
  const p = client.request("ping", {}, { signal: c.signal });
  c.abort();
  assert.equal((await rejection(p)).message, "ping: request aborted");
  assert.deepEqual(sent.map((m) => m.method), ["ping", "notifications/cancelled"]);
});

test("every request carries the 2026-07-28 _meta; the caller's objects are never changed", async () => {
  const info = { name: "app", version: "9" };
  const { last, client } = pair({ clientInfo: info, clientCapabilities: { x: {} }, inputHandlers: {}, requestTimeoutMs: 100 });
  assert.deepEqual(Object.keys(client).sort(), ["clientCapabilities", "close", "fail", "generation", "inputHandlers", "listen", "notify", "receive", "request", "requestTimeoutMs", "respond", "session", "speak"]);
  const params = Object.freeze({ taskId: "t", _meta: Object.freeze({ "io.modelcontextprotocol/protocolVersion": "old", mine: 1 }) });
  client.request("tasks/get", params).catch(() => {});
  assert.deepEqual(last().params, {
    taskId: "t",
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      mine: 1,
      "io.modelcontextprotocol/clientInfo": info,
      "io.modelcontextprotocol/clientCapabilities": { x: {} },
    },
  });
  const own = { "io.modelcontextprotocol/clientInfo": { name: "other" } };
  client.request("ping", { _meta: own }).catch(() => {});
  assert.deepEqual(last().params._meta["io.modelcontextprotocol/clientInfo"], { name: "other" });
  client.request("ping").catch(() => {});
  assert.deepEqual(Object.keys(last().params), ["_meta"]);
  const version = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;
  const bare = pair();
  bare.client.request("ping", {}).catch(() => {});
  assert.deepEqual(bare.last().params._meta["io.modelcontextprotocol/clientInfo"], { name: "mcp-tasks-wasm", version });
  client.close();
  bare.client.close();
});

test("hostile values and a throwing send become rejections, never a throw; the channel keeps working", async () => {
  let throwing = true;
  const sent = [];
  const client = channelClient((m) => {
    if (throwing) throw new Error("wire down");
    sent.push(m);
  });
  const e = await rejection(client.request("ping", {}));
  assert.equal(e.message, "ping: send failed");
  assert.equal(e.cause.message, "wire down");
  assert.equal((await rejection(client.listen({ notifications: { taskIds: ["t"] } }))).message, "subscriptions/listen: send failed");
  throwing = false;
  const getter = { get boom() { throw new Error("getter"); } };
  Object.defineProperty(getter, "boom", { enumerable: true, get() { throw new Error("getter"); } });
  assert.equal((await rejection(client.request("ping", getter))).message, "getter");
  const trap = new Proxy({}, { ownKeys() { throw new Error("trap"); }, get() { throw new Error("trap"); } });
  assert.equal((await rejection(client.request("ping", trap))).message, "trap");
  assert.equal((await rejection(client.request("ping", 5))).name, "TypeError");
  assert.equal((await rejection(client.request(5, {}))).message, "request: method must be a string");
  // A Proxy as the request options: a throwing read counts as absent (no signal, no timeout).
  const p = client.request("ping", {}, trap);
  client.receive({ id: sent[0].id, result: { fine: true } });
  assert.deepEqual(await p, { fine: true });
  assert.equal(sent.length, 1);
  // A Proxy as the channel options: absent too.
  channelClient(() => {}, trap).close();
  assert.throws(() => channelClient(() => {}, 5), /channelClient: options must be an object/);
  assert.throws(() => channelClient(5, {}, "portClient"), /^TypeError: portClient: send must be a function/);
  assert.throws(() => channelClient(() => {}, { requestTimeoutMs: -1 }), /options.requestTimeoutMs must be a non-negative number/);
  assert.throws(() => channelClient(() => {}, { clientInfo: [] }), /options.clientInfo must be an object/);
});

test("a stream's return() or signal sends notifications/cancelled once, ends a pending next() and forgets the stream", async () => {
  const { sent, client } = pair();
  const it = await client.listen({ notifications: { taskIds: ["t"] } });
  assert.equal(it[Symbol.asyncIterator](), it);
  const pending = it.next();
  assert.deepEqual(await it.next(), { done: true, value: undefined }, "a concurrent next() gets the end");
  await it.return();
  await it.return();
  assert.deepEqual(await pending, { done: true, value: undefined });
  assert.deepEqual(sent.map((m) => m.method), ["subscriptions/listen", "notifications/cancelled"]);
  assert.equal(sent[1].params.reason, "the client closed the stream");
  assert.equal(client.receive({ method: "notifications/tasks", params: { taskId: "t" } }), false, "forgotten");
  const c = new AbortController();
  const two = await client.listen({ notifications: { taskIds: ["t"] } }, { signal: c.signal });
  client.receive({ method: "notifications/tasks", params: { taskId: "t" } });
  c.abort();
  assert.deepEqual(await two.next(), { done: true, value: undefined }, "unread messages are dropped: its reader left");
  assert.equal(sent.filter((m) => m.method === "notifications/cancelled").length, 2);
});

test("more than 10000 unread notifications fail the stream (and cancel it); what was read before arrives in order", async () => {
  const { sent, client } = pair();
  const it = await client.listen({ notifications: { taskIds: ["t"] } });
  const n = (i) => ({ method: "notifications/tasks", params: { taskId: "t", i } });
  client.receive(n(0));
  assert.equal((await it.next()).value.params.i, 0);
  for (let i = 1; i <= 10_000; i++) client.receive(n(i));
  assert.equal(sent.length, 1);
  client.receive(n(10_001));
  assert.match((await rejection(it.next())).message, /more than 10000 notifications queued unread/);
  assert.equal(sent[1].method, "notifications/cancelled");
  assert.equal(client.receive(n(10_002)), false);
});

test("fail(id) fails one request or listen; fail(undefined) every pending request; close() everything, later requests at once", async () => {
  const { sent, client } = pair();
  const a = client.request("tasks/get", {});
  const b = client.request("tasks/get", {});
  const s = await client.listen({ notifications: { taskIds: ["t"] } });
  const c = client.request("ping", {});
  const boom = new Error("reported");
  client.fail(sent[0].id, boom);
  assert.equal(await rejection(a), boom);
  client.fail(sent[2].id, boom);
  assert.equal(await rejection(s.next()), boom);
  client.fail("not-ours", boom);
  const other = new Error("all");
  client.fail(undefined, other);
  assert.equal(await rejection(b), other);
  assert.equal(await rejection(c), other);
  const d = client.request("ping", {});
  const t = await client.listen({ notifications: { taskIds: ["t"] } });
  const waiting = t.next();
  client.close();
  const closed = await rejection(d);
  assert.equal(closed.message, "the channel closed");
  assert.equal(closed.retryable, false);
  assert.equal(await rejection(waiting), closed);
  assert.equal(await rejection(client.request("ping", {})), closed);
  assert.equal(await rejection(client.listen({})), closed);
  client.close(new Error("second"));
  assert.equal(await rejection(client.request("ping", {})), closed, "the first close wins");
  assert.equal(sent.filter((m) => m.method === "notifications/cancelled").length, 0, "nothing the client gave up");
});
