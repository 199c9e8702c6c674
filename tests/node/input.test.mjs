// Input through the built package in Node: handlers, "return", the input function, MRTR rounds,
// handler failures and exceptions, against the project's test server core through directClient.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lib } from "./pkg.mjs";
import { createTasksCore } from "../server/core.mjs";

const { callTool, awaitTask, callAndAwait, directClient, validateElicitResult, validateCreateMessageResult, validateListRootsResult } = lib;

async function withClient(inputHandlers, fn) {
  const core = createTasksCore({ pollIntervalMs: 20 });
  try {
    await fn(directClient((m, p, c) => core.handle(m, p, c), { inputHandlers }), core);
  } finally {
    core.close();
  }
}

const accept = (content) => ({ tag: "ok", response: { action: "accept", content } });

test("a form handler that renders nothing, just resolves, answers the task", () =>
  withClient({ form: async (params, { key, status, signal }) => {
    assert.equal(key, "name");
    assert.equal(params.message, "What is your name?");
    assert.equal(status.status, "input_required");
    assert.ok(signal instanceof AbortSignal && !signal.aborted);
    return accept({ name: "Ada" });
  } }, async (client, core) => {
    const out = await callAndAwait(client, "ask");
    assert.deepEqual(out.result.content, [{ type: "text", text: "hello, Ada" }]);
    assert.equal(core.log.filter((e) => e.method === "tasks/update").length, 1);
  }));

test("two input rounds, several kinds in one round (one update), and dedupe under stale reads", () => {
  let asked = 0;
  const handlers = {
    form: (p, { key }) => { asked += 1; return accept(key === "age" ? { age: 36 } : { name: "Ada" }); },
    roots: () => ({ tag: "ok", response: { roots: [{ uri: "file:///home/ada", name: "home" }] } }),
  };
  return withClient(handlers, async (client, core) => {
    const twice = await callAndAwait(client, "ask_twice", { staleReads: 3 });
    assert.equal(twice.result.content[0].text, "Ada is 36");
    assert.equal(asked, 2, "each key asked once although reads kept listing it");
    const many = await callAndAwait(client, "ask_many");
    assert.equal(many.tag, "ok");
    const updates = core.log.filter((e) => e.method === "tasks/update");
    assert.equal(updates.length, 3, "ask_twice: 2 updates; ask_many: both keys in 1");
  });
});

test("no handler for a kind: the status comes back and nothing answers on the user's behalf", () =>
  withClient({ form: () => assert.fail("must not run") }, async (client, core) => {
    const out = await callAndAwait(client, "ask_many");
    assert.equal(out.tag, "input_required");
    assert.deepEqual(Object.keys(out.status.inputRequests).sort(), ["name", "root"]);
    assert.equal(core.log.filter((e) => e.method === "tasks/update").length, 0);
  }));

test("input: \"return\" and the input function", () =>
  withClient({}, async (client) => {
    const created = await callTool(client, "ask_twice");
    assert.equal((await awaitTask(client, created.status, { input: "return" })).tag, "input_required");
    const seen = [];
    const out = await awaitTask(client, created.status, {
      input: async (status, { signal }) => {
        assert.ok(signal instanceof AbortSignal);
        const keys = Object.keys(status.inputRequests);
        seen.push(keys.join());
        const key = keys[0];
        return { tag: "ok", responses: { [key]: { action: "accept", content: { [key]: key === "age" ? 7 : "Bo" } } } };
      },
    });
    assert.equal(out.result.content[0].text, "Bo is 7");
    assert.deepEqual(seen, ["name", "age"]);
  }));

test("a url handler and a sampling handler", () =>
  withClient({
    url: (p) => { assert.equal(p.url, "https://example.com/consent"); return { tag: "ok", response: { action: "accept" } }; },
    sampling: () => ({ tag: "ok", response: { role: "assistant", content: { type: "text", text: "sampled!" }, model: "test-model" } }),
  }, async (client) => {
    assert.equal((await callAndAwait(client, "ask_url")).result.content[0].text, "consented");
    assert.match((await callAndAwait(client, "sample")).result.content[0].text, /sampled!/);
  }));

test("a non-http url never reaches the handler", () =>
  withClient({ url: () => assert.fail("must not run") }, async (client) => {
    const out = await callAndAwait(client, "ask_url", { url: "javascript:alert(1)" });
    assert.equal(out.error.kind, "protocol");
  }));

test("a handler error, an invalid answer, and an exception", () =>
  withClient({ form: () => ({ tag: "error", reason: "dismissed" }) }, async (client) => {
    const out = await callAndAwait(client, "ask");
    assert.equal(out.error.code, -32603);
    assert.equal(out.error.kind, "execution");
    assert.deepEqual({ type: out.error.cause.type, key: out.error.cause.key, reason: out.error.cause.reason }, { type: "input_handler", key: "name", reason: "dismissed" });
    const bad = await callAndAwait(client, "ask", {}, {}, { inputHandlers: { form: () => ({ tag: "ok", response: { action: "decline", content: { name: "x" } } }) } });
    assert.deepEqual(bad.error.cause.reason, { type: "invalid_response", response: { action: "decline", content: { name: "x" } } });
    const boom = new Error("handler blew up");
    await assert.rejects(callAndAwait(client, "ask", {}, {}, { inputHandlers: { form: async () => { throw boom; } } }), (e) => e === boom);
  }));

test("a handler still running when the deadline comes is aborted", () => {
  let aborted = false;
  return withClient({ form: (p, { signal }) => new Promise(() => signal.addEventListener("abort", () => { aborted = true; })) }, async (client) => {
    const out = await callAndAwait(client, "ask", {}, {}, { timeoutMs: 200 });
    assert.equal(out.error.code, -32001);
    assert.equal(out.error.cause.status.status, "input_required");
    assert.ok(aborted);
  });
});

test("MRTR: one round, two rounds, a state-only round, and return mode", () =>
  withClient({ form: (p, { key }) => accept(key === "confirm" ? { ok: true } : { value: key }) }, async (client, core) => {
    assert.equal((await callAndAwait(client, "mrtr")).result.content[0].text, "confirmed: true");
    assert.equal((await callAndAwait(client, "mrtr2")).result.content[0].text, "first: first, second: second");
    assert.equal((await callTool(client, "mrtr_state")).result.content[0].text, "state ok");
    const back = await callTool(client, "mrtr", {}, { input: "return" });
    assert.equal(back.tag, "input_required");
    assert.ok(back.status.inputRequests.confirm && typeof back.status.requestState === "string");
    const resumed = await callTool(client, "mrtr", {}, { inputResponses: { confirm: { action: "accept", content: { ok: false } } }, requestState: back.status.requestState });
    assert.equal(resumed.tag, "task");
  }));

test("the validators", () => {
  assert.deepEqual(validateElicitResult({ action: "accept", content: { a: 1 } }), { tag: "ok" });
  assert.equal(validateElicitResult({ action: "nope" }).tag, "error");
  assert.deepEqual(validateCreateMessageResult({ role: "assistant", content: [{ type: "text", text: "x" }], model: "m" }), { tag: "ok" });
  assert.match(validateCreateMessageResult({ role: "assistant" }).message, /content/);
  assert.deepEqual(validateListRootsResult({ roots: [{ uri: "file:///x" }] }), { tag: "ok" });
  assert.equal(validateListRootsResult({ roots: [{ uri: "/x" }] }).tag, "error");
});
