// The built package in Node, with real (short) timers: the polling path through directClient and
// through a plain JS client object, bounded waits, abort, the one-step functions and the helpers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { journalLib, lib, rejection } from "./pkg.mjs";
import { createTasksCore } from "../server/core.mjs";

const { callTool, awaitTask, callAndAwait, getTask, updateTask, cancelTask, directClient, capabilities, serverSupports, TASKS_EXTENSION } = lib;

function withCore(fn, options = { pollIntervalMs: 20 }) {
  return async () => {
    const core = createTasksCore(options);
    try {
      await fn(core, directClient((m, p, c) => core.handle(m, p, c)));
    } finally {
      core.close();
    }
  };
}

test("a slow task through directClient: status changes, then its result", withCore(async (core, client) => {
  const created = await callTool(client, "slow", { ms: 120, steps: 3 });
  assert.equal(created.tag, "task");
  assert.match(created.status.taskId, /^tsk_/);
  assert.equal(created.status.resultType, undefined);
  const seen = [];
  const out = await awaitTask(client, created.status, { onStatus: (s) => seen.push(s.statusMessage ?? s.status) });
  assert.equal(out.tag, "ok");
  assert.deepEqual(out.result.content, [{ type: "text", text: "slept 120 ms" }]);
  assert.equal(seen.at(-1), "completed");
  assert.ok(seen.length >= 2 && new Set(seen).size === seen.length, `each status once: ${seen}`);
  // The first tasks/get comes after the created status's interval, not at once.
  const gets = core.log.filter((e) => e.method === "tasks/get");
  const call = core.log.find((e) => e.method === "tools/call");
  assert.ok(gets[0].at - call.at >= 15, `first poll after the interval (${gets[0].at - call.at} ms)`);
}));

test("failed, tool error, cancelled and unknown tasks", withCore(async (core, client) => {
  const failed = await callAndAwait(client, "fail");
  assert.equal(failed.tag, "error");
  assert.deepEqual({ ...failed.error, cause: undefined }, { code: -32603, message: "tool crashed", data: { reason: "test" }, kind: "server", cause: undefined });
  assert.equal(failed.error.cause.type, "task_failed");
  assert.equal(failed.error.cause.status.status, "failed");

  const toolError = await callAndAwait(client, "tool_error");
  assert.equal(toolError.tag, "ok");
  assert.equal(toolError.result.isError, true);

  const forever = await callTool(client, "forever");
  const waiting = awaitTask(client, forever.status);
  assert.deepEqual(await cancelTask(client, forever.status.taskId), { tag: "ok" });
  const cancelled = await waiting;
  assert.equal(cancelled.tag, "cancelled");
  assert.equal(cancelled.status.status, "cancelled");

  const unknown = await awaitTask(client, "tsk_nope");
  assert.equal(unknown.error.code, -32602);
  assert.equal(unknown.error.kind, "server");
  assert.deepEqual(await getTask(client, "tsk_nope").then((o) => o.error.cause), { type: "rpc_error", method: "tasks/get" });
}));

test("an immediate result and a task-only tool without the capability", withCore(async (core, client) => {
  assert.deepEqual(await callAndAwait(client, "echo", { text: "hi" }), { tag: "ok", result: { resultType: "complete", content: [{ type: "text", text: "hi" }] } });
  // A client whose request strips the extension: the server refuses with -32021.
  const stripping = directClient((m, p) => core.handle(m, { ...p, _meta: { ...p._meta, "io.modelcontextprotocol/clientCapabilities": {} } }));
  const out = await callTool(stripping, "task_only");
  assert.equal(out.tag, "error");
  assert.equal(out.error.code, -32021);
}));

test("a plain JS client: every params carries the capabilities; the result is the very object request resolved with", async () => {
  const finalResult = { content: [{ type: "text", text: "exact" }], isError: true, structuredContent: [1] };
  const calls = [];
  const client = {
    clientCapabilities: { elicitation: { form: {} } },
    async request(method, params, options) {
      calls.push({ method, params, options });
      assert.ok(options.signal instanceof AbortSignal);
      if (method === "tools/call") return { resultType: "task", taskId: "t-1", status: "working", pollIntervalMs: 10, ttlMs: null, createdAt: "x", lastUpdatedAt: "x" };
      if (calls.length < 4) return { resultType: "complete", taskId: "t-1", status: "working", pollIntervalMs: 10 };
      return { resultType: "complete", taskId: "t-1", status: "completed", result: finalResult };
    },
  };
  const out = await callAndAwait(client, "anything", { a: 1 });
  assert.equal(out.tag, "ok");
  assert.equal(out.result, finalResult, "same object, not a copy");
  for (const c of calls) {
    assert.deepEqual(c.params._meta["io.modelcontextprotocol/clientCapabilities"], { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } });
    assert.equal(typeof c.options.timeoutMs, "number");
  }
  assert.deepEqual(client.clientCapabilities, { elicitation: { form: {} } }, "the client is not modified");
  assert.deepEqual(calls.map((c) => c.method), ["tools/call", "tasks/get", "tasks/get", "tasks/get"]);
});

test("a request that never settles cannot hang a wait: the timeout outcome carries the last status", async () => {
  let n = 0;
  let lastSignal;
  const client = {
    request(method, params, { signal }) {
      lastSignal = signal;
      n += 1;
      if (n === 1) return Promise.resolve({ taskId: "t", status: "working", statusMessage: "1/2", pollIntervalMs: 10 });
      return new Promise(() => {});
    },
  };
  const started = Date.now();
  const out = await awaitTask(client, "t", { timeoutMs: 150 });
  const took = Date.now() - started;
  assert.equal(out.tag, "error");
  assert.equal(out.error.code, -32001);
  assert.equal(out.error.kind, "transport");
  assert.deepEqual(out.error.data, { taskId: "t", timeoutMs: 150 });
  assert.equal(out.error.cause.type, "timeout");
  assert.equal(out.error.cause.status.statusMessage, "1/2");
  assert.ok(lastSignal.aborted, "the stuck request's signal was aborted");
  assert.ok(took >= 140 && took < 1000, `took ${took} ms`);
});

test("the client's requestTimeoutMs bounds each request", async () => {
  const client = { requestTimeoutMs: 60, request: () => new Promise(() => {}) };
  const out = await awaitTask(client, "t", { timeoutMs: 5000 });
  assert.equal(out.error.code, -32001);
  assert.deepEqual(out.error.cause, { type: "request_timeout", method: "tasks/get", status: null });
});

test("abort rejects with signal.reason; cancelOnAbort also sends tasks/cancel", withCore(async (core, client) => {
  const created = await callTool(client, "forever");
  const ac = new AbortController();
  setTimeout(() => ac.abort(new Error("user left")), 60);
  await assert.rejects(awaitTask(client, created.status, { signal: ac.signal, cancelOnAbort: true }), /user left/);
  await new Promise((r) => setTimeout(r, 30));
  assert.ok(core.log.some((e) => e.method === "tasks/cancel" && e.taskId === created.status.taskId));
  const after = await getTask(client, created.status.taskId);
  assert.equal(after.status.status, "cancelled");

  const already = AbortSignal.abort("early");
  const before = core.log.length;
  await assert.rejects(callTool(client, "slow", {}, { signal: already }), (e) => e === "early");
  assert.equal(core.log.length, before, "nothing sent");
}));

test("updateTask answers by hand; awaitTask then goes on", withCore(async (core, client) => {
  const created = await callTool(client, "ask");
  const asked = await awaitTask(client, created.status, { input: "return" });
  assert.equal(asked.tag, "input_required");
  assert.ok(asked.status.inputRequests.name);
  assert.deepEqual(await updateTask(client, created.status.taskId, { name: { action: "accept", content: { name: "Grace" } } }), { tag: "ok" });
  const done = await awaitTask(client, created.status.taskId);
  assert.equal(done.result.content[0].text, "hello, Grace");
}));

test("bad caller input rejects with a TypeError, never a panic", withCore(async (core, client) => {
  for (const [f, args] of [
    [awaitTask, [client, 42]],
    [awaitTask, [{}, "t"]],
    [awaitTask, [client, "t", { timeoutMs: -1 }]],
    [awaitTask, [client, "t", { input: "sometimes" }]],
    [awaitTask, [client, { taskId: "t", status: "snoozing" }]],
    [callTool, [client, ""]],
    [callTool, [client, "echo", "not an object"]],
    [getTask, [client, 7]],
    [updateTask, [client, "t", null]],
    [cancelTask, [null, "t"]],
  ]) {
    await assert.rejects(f(...args), TypeError);
  }
  // The instance still works afterwards.
  assert.equal((await callAndAwait(client, "echo", { text: "still alive" })).tag, "ok");
}));

test("args: an object, or none; anything else (an array too) is one TypeError, nothing sent", withCore(async (core, client) => {
  const sent = [];
  const direct = directClient(async (method, params) => (sent.push(method), { content: [{ type: "text", text: JSON.stringify(params.arguments ?? null) }] }));
  for (const bad of [[1, 2], [], "text", 5, true]) {
    for (const [what, call] of [["callTool", () => callTool(direct, "echo", bad)], ["callAndAwait", () => callAndAwait(direct, "echo", bad)]]) {
      const e = await rejection(call());
      assert.ok(e instanceof TypeError, `${what}(${JSON.stringify(bad)}): ${e}`);
      assert.equal(e.message, `${what}: args must be an object (not an array)`);
    }
  }
  assert.deepEqual(sent, [], "nothing sent");
  for (const none of [undefined, null]) assert.equal((await callTool(direct, "echo", none)).result.content[0].text, "null");
  assert.equal((await callTool(direct, "echo", { a: [1] })).result.content[0].text, '{"a":[1]}');
}));

test("capabilities, serverSupports, TASKS_EXTENSION", withCore(async (core, client) => {
  assert.equal(TASKS_EXTENSION, "io.modelcontextprotocol/tasks");
  const base = { roots: {}, extensions: { "x/y": { a: 1 } } };
  assert.deepEqual(capabilities(base), { roots: {}, extensions: { "x/y": { a: 1 }, [TASKS_EXTENSION]: {} } });
  assert.deepEqual(base, { roots: {}, extensions: { "x/y": { a: 1 } } });
  assert.deepEqual(capabilities(), { extensions: { [TASKS_EXTENSION]: {} } });
  const discovered = await client.request("server/discover", { _meta: { "io.modelcontextprotocol/clientCapabilities": {} } }, {});
  assert.equal(serverSupports(discovered), true);
  assert.equal(serverSupports(discovered.capabilities), true);
  assert.equal(serverSupports({ capabilities: { tools: {} } }), false);
}));

test("the declarations name exactly the runtime exports, of both entries; the core one has no journal", async () => {
  const { readFileSync } = await import("node:fs");
  const read = (path) => readFileSync(new URL(`../../${process.env.PKG_DIR ?? "pkg"}/${path}`, import.meta.url), "utf8");
  const dts = read("node.d.ts");
  const list = dts.slice(dts.indexOf("export {"));
  const declared = new Set([...list.slice(0, list.indexOf("} from")).matchAll(/^\s+(\w+),$/gm)].map((m) => m[1]));
  for (const m of dts.matchAll(/^export declare (?:function|class) (\w+)/gm)) declared.add(m[1]);
  for (const extra of ["default", "init", "TASKS_EXTENSION"]) declared.add(extra);
  assert.deepEqual([...declared].sort(), Object.keys(lib).sort());
  // The journal entry declares the core's names (export *) plus its own.
  const jdts = read("journal/node.d.ts");
  const jdeclared = new Set(declared);
  for (const m of jdts.matchAll(/^export \{([^}]*)\} from/gm)) for (const n of m[1].split(",")) jdeclared.add(n.trim());
  for (const m of jdts.matchAll(/^export declare function (\w+)/gm)) jdeclared.add(m[1]);
  assert.deepEqual([...jdeclared].sort(), Object.keys(journalLib).sort());
  assert.equal(lib.pendingTasks, undefined);
  assert.equal(typeof journalLib.pendingTasks, "function");
  const e = await rejection(lib.callTool(directClient(() => ({})), "x", {}, { journal: {} }));
  assert.ok(e instanceof TypeError && /journal entry/.test(e.message), String(e));
});

test("a client that aborts the caller's signal from inside its own abort listener cannot break the wait", async () => {
  const user = new AbortController();
  const client = {
    request(method, params, { signal }) {
      signal.addEventListener("abort", () => user.abort("chained"));
      return new Promise(() => {});
    },
  };
  // Without retries the request timeout is the outcome; the chained abort comes after it and is ignored.
  const out = await awaitTask(client, "t", { requestTimeoutMs: 40, timeoutMs: 1000, signal: user.signal, retries: 0 });
  assert.equal(out.error.cause.type, "request_timeout");
  assert.ok(user.signal.aborted);
  // With retries the timed-out request is aborted while the wait goes on: the chained abort ends it.
  const again = new AbortController();
  const chained = {
    request(method, params, { signal }) {
      signal.addEventListener("abort", () => again.abort("chained"));
      return new Promise(() => {});
    },
  };
  assert.equal(await rejection(awaitTask(chained, "t", { requestTimeoutMs: 40, timeoutMs: 1000, signal: again.signal })), "chained");
  // The module is still healthy.
  assert.equal((await awaitTask({ request: async () => ({ taskId: "u", status: "cancelled" }) }, "u")).tag, "cancelled");
});

test("the TTL backstop through the package: past createdAt + ttlMs a -32602 means expired", async () => {
  const now = new Date();
  const status = { taskId: "t", status: "working", createdAt: now.toISOString(), lastUpdatedAt: now.toISOString(), ttlMs: 120, pollIntervalMs: 60000 };
  const seen = [];
  const client = {
    async request(method) {
      seen.push([method, Math.round(performance.now() - started)]);
      throw { code: -32602, message: "unknown task" };
    },
  };
  const started = performance.now();
  const out = await awaitTask(client, status, { timeoutMs: 2000 });
  assert.equal(out.tag, "error");
  assert.equal(out.error.code, -32602);
  assert.equal(out.error.cause.type, "expired");
  assert.equal(out.error.cause.status.taskId, "t");
  assert.equal(seen.length, 1);
  assert.ok(seen[0][1] >= 110 && seen[0][1] < 400, `read at the TTL, not the 60 s interval: ${seen[0][1]} ms`);
});

test("a listen stream that acknowledges and goes silent gets safety reads every listenCheckMs", async () => {
  let reads = 0;
  const client = {
    async request() {
      reads += 1;
      return { taskId: "t", status: reads >= 3 ? "completed" : "working", result: { content: [] } };
    },
    async listen() {
      return (async function* () {
        yield { jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds: ["t"] } } };
        await new Promise(() => {}); // silent forever
      })();
    },
  };
  const started = performance.now();
  const out = await awaitTask(client, "t", { listen: true, listenCheckMs: 60, timeoutMs: 2000 });
  const took = performance.now() - started;
  assert.equal(out.tag, "ok");
  assert.equal(reads, 3, "the resync read, then two safety reads");
  assert.ok(took >= 110 && took < 600, `took ${took} ms`);
  assert.deepEqual(lib.liveCounts(), { runs: 0, requests: 0, asks: 0, streams: 0, timers: 0, calls: 0, failed: null });
});
