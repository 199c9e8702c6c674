// The APIs a user expects, through the built package in Node, against the test server:
// a Cancel button in one step (cancelSignal), callAndAwait's call timeoutMs bounding the whole call,
// input_required's `source`, handlers answering with the plain result, and messages naming a method once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { journalLib, lib } from "./pkg.mjs";
import { createTasksCore } from "../server/core.mjs";

const { callTool, awaitTask, callAndAwait, getTask, directClient, liveCounts } = lib;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function withCore(fn, options = { pollIntervalMs: 20 }) {
  return async () => {
    const core = createTasksCore(options);
    try {
      await fn(core, (o) => directClient((m, p, c) => core.handle(m, p, c), o));
    } finally {
      core.close();
    }
  };
}

const cancels = (core) => core.log.filter((e) => e.method === "tasks/cancel");

for (const [name, l] of [["core", lib], ["journal", journalLib]]) {
  test(`${name}: cancelSignal sends tasks/cancel and the wait resolves cancelled (awaitTask and callAndAwait)`, withCore(async (core, client) => {
    const c = client();
    const created = await l.callTool(c, "forever");
    const button = new AbortController();
    const waiting = l.awaitTask(c, created.status, { cancelSignal: button.signal });
    await sleep(50);
    button.abort();
    button.abort(); // a second press is one cancel
    const out = await waiting;
    assert.equal(out.tag, "cancelled");
    assert.equal(out.status.status, "cancelled");
    assert.equal(out.status.taskId, created.status.taskId);
    assert.equal(cancels(core).length, 1);

    // Pressed during the tools/call: the cancel goes out as soon as the task exists.
    const early = new AbortController();
    early.abort();
    const both = await l.callAndAwait(c, "forever", {}, {}, { cancelSignal: early.signal });
    assert.equal(both.tag, "cancelled");
    assert.equal(cancels(core).length, 2);
  }));
}

test("cancelSignal: a task that completes before the cancel lands gives its result; nothing is asked after a cancel", withCore(async (core, client) => {
  // A task that ended before the press: the server acknowledges (or refuses) and the read tells the end.
  const c = client();
  const created = await callTool(c, "slow", { ms: 20 });
  const button = new AbortController();
  const waiting = awaitTask(c, created.status, { cancelSignal: button.signal, pollIntervalMs: 500, minPollIntervalMs: 10 });
  await sleep(80);
  button.abort();
  const out = await waiting;
  assert.equal(out.tag, "ok", JSON.stringify(out));

  // A form open when Cancel is pressed: the handler's signal aborts and no other ask follows.
  let asked = 0;
  let handlerSignal;
  const asking = client({ inputHandlers: { form: (_params, ctx) => { asked++; handlerSignal = ctx.signal; return new Promise(() => {}); } } });
  const press = new AbortController();
  const pending = callAndAwait(asking, "ask", {}, {}, { cancelSignal: press.signal });
  while (asked === 0) await sleep(5);
  press.abort();
  const ended = await pending;
  assert.equal(ended.tag, "cancelled");
  assert.equal(asked, 1);
  assert.equal(handlerSignal.aborted, true, "the running handler is told to stop");
  await sleep(30);
  assert.deepEqual(liveCounts(), { runs: 0, requests: 0, asks: 0, streams: 0, timers: 0, calls: 0, failed: null });
}));

test("cancelSignal: a server that never answers the cancel is bounded by the deadline; signal still stops at once", async () => {
  let sent = 0;
  const status = { taskId: "t1", status: "working", pollIntervalMs: 20, ttlMs: null, createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z" };
  const client = { request: (method) => {
    if (method === "tasks/cancel") { sent++; return new Promise(() => {}); }
    return Promise.resolve({ resultType: "complete", ...status });
  } };
  const button = new AbortController();
  button.abort();
  const t0 = Date.now();
  const out = await awaitTask(client, "t1", { cancelSignal: button.signal, timeoutMs: 150 });
  assert.equal(out.tag, "error");
  assert.equal(out.error.cause.type, "timeout");
  assert.ok(Date.now() - t0 < 1000);
  assert.equal(sent, 1);

  const stop = new AbortController();
  const waiting = awaitTask(client, "t1", { cancelSignal: new AbortController().signal, signal: stop.signal });
  stop.abort("left");
  await assert.rejects(waiting, (e) => e === "left");
  await assert.rejects(awaitTask(client, "t1", { cancelSignal: "press" }), (e) => e instanceof TypeError && /cancelSignal must be an AbortSignal/.test(e.message));
});

test("callAndAwait: the call's timeoutMs bounds the whole call unless the wait sets its own", withCore(async (core, client) => {
  const c = client();
  let t0 = Date.now();
  const whole = await callAndAwait(c, "slow", { ms: 3000 }, { timeoutMs: 300 });
  const took = Date.now() - t0;
  assert.equal(whole.tag, "error");
  assert.equal(whole.error.cause.type, "timeout");
  assert.equal(whole.error.data.timeoutMs, 300);
  assert.ok(took >= 290 && took < 1500, `ended at the whole call's bound: ${took} ms`);
  assert.equal(whole.error.cause.status.status, "working", "the last status seen");

  // The wait's own timeoutMs governs the wait (counted from its start), as before.
  t0 = Date.now();
  const own = await callAndAwait(c, "slow", { ms: 600 }, { timeoutMs: 100 }, { timeoutMs: 5000 });
  assert.equal(own.tag, "ok", JSON.stringify(own));
  assert.ok(Date.now() - t0 >= 550);
}));

test("input_required tells a task's round from the call's (source)", withCore(async (core, client) => {
  const c = client();
  const task = await callAndAwait(c, "ask", {}, {}, { input: "return" });
  assert.equal(task.tag, "input_required");
  assert.equal(task.source, "task");
  assert.equal(typeof task.status.taskId, "string");
  const call = await callTool(c, "mrtr", {}, { input: "return" });
  assert.equal(call.tag, "input_required");
  assert.equal(call.source, "call");
  assert.equal(call.status.taskId, undefined);
}));

test("handlers may return the plain ElicitResult / ListRootsResult, checked like a tagged answer", withCore(async (core, client) => {
  const c = client({ inputHandlers: {
    form: () => ({ action: "accept", content: { name: "Ada" } }),
    roots: async () => ({ roots: [{ uri: "file:///work" }] }),
  } });
  const out = await callAndAwait(c, "ask");
  assert.equal(out.tag, "ok", JSON.stringify(out));
  assert.match(JSON.stringify(out.result), /Ada/);
  const many = await callAndAwait(c, "ask_many");
  assert.equal(many.tag, "ok", JSON.stringify(many));
  const bad = await callAndAwait(client({ inputHandlers: { form: () => ({ action: "maybe" }) } }), "ask");
  assert.equal(bad.tag, "error");
  assert.deepEqual(bad.error.cause.reason, { type: "invalid_response", response: { action: "maybe" } });
}));

test("a transport error's message names the method once", async () => {
  const client = { request: (method) => Promise.reject(Object.assign(new Error(`${method}: network error: Failed to fetch`), { status: 0 })) };
  const out = await callTool(client, "slow");
  assert.equal(out.error.message, "tools/call failed: network error: Failed to fetch");
  const read = await getTask(client, "t1", { retries: 0 });
  assert.equal(read.error.message, "tasks/get failed: network error: Failed to fetch");
});
