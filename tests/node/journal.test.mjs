// The task journal through the built package against the project's test server over HTTP: what is
// recorded and when (the task before the engine sees it, an answer before its tasks/update), what is
// removed (terminal outcomes) and kept (timeouts), TTL expiry, resuming without asking twice, and a
// failing store giving its error outcome. Browser-only parts (reloads, tabs, Web Locks, IndexedDB,
// extension storage) run in headless Chromium: tests/browser/journal.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { journalLib as lib, rejection } from "./pkg.mjs";
import { startHttpServer } from "../server/http.mjs";

const { directClient, callTool, callAndAwait, awaitTask, cancelTask, memoryJournal, pendingTasks, resumeTasks } = lib;
// These tests are of the 2026-07-28 wire: the client is told its generation (no server/discover probe
// first); finding the generation out is tested in tests/node/generation.test.mjs.
const httpClient = (url, o) => lib.httpClient(url, o === undefined ? { generation: "2026-07-28" } : isPlain(o) ? { generation: "2026-07-28", ...o } : o);
function isPlain(o) {
  return typeof o === "object" && o !== null && !Array.isArray(o);
}
const ADA = { action: "accept", content: { name: "Ada" } };

let srv;
before(async () => { srv = await startHttpServer({ pollIntervalMs: 20 }); });
after(() => srv.close());

const log = async () => (await fetch(`${srv.origin}/_test/log`)).json();
const reset = () => fetch(`${srv.origin}/_test/reset`, { method: "POST" });
const count = (entries, method) => entries.filter((e) => e.method === method).length;

/** A journal that records every call on it and can be told to fail. */
function spyJournal(inner = memoryJournal()) {
  const calls = [];
  const j = { calls, failOn: undefined };
  for (const op of ["get", "put", "delete", "list"]) {
    j[op] = async (...args) => {
      calls.push([op, ...args.map((a) => (a && typeof a === "object" ? structuredClone(a) : a))]);
      if (j.failOn?.(op, ...args)) throw new Error(`store down (${op})`);
      return inner[op](...args);
    };
  }
  return j;
}

test("a journaled callAndAwait: the task is journaled before the wait, the answer before its update, removed at ok", async () => {
  await reset();
  const journal = spyJournal();
  const client = httpClient(srv.url);
  assert.equal(client.id, srv.url, "an httpClient's server id is its URL");
  const order = [];
  const out = await callAndAwait(client, "ask", {}, {}, {
    journal,
    inputHandlers: {
      form: async () => {
        const [entry] = await pendingTasks(journal);
        order.push(["asked", entry.status.status]);
        return { tag: "ok", response: ADA };
      },
    },
    onStatus: (s) => order.push(["status", s.status]),
  });
  assert.equal(out.tag, "ok", JSON.stringify(out));
  assert.equal(out.result.content[0].text, "hello, Ada");
  const puts = journal.calls.filter((c) => c[0] === "put").map((c) => c[2]);
  assert.equal(puts[0].tool, "ask");
  assert.equal(puts[0].server, srv.url);
  const withAnswer = puts.find((e) => e.answered.some((a) => a.answer));
  assert.deepEqual(withAnswer.answered[0].answer, ADA);
  assert.match(withAnswer.answered[0].hash, /^sha256:[0-9a-f]{64}$/);
  const afterAck = puts.slice(puts.indexOf(withAnswer) + 1).find((e) => e.answered.length === 1 && !("answer" in e.answered[0]));
  assert.ok(afterAck, "after its tasks/update was acknowledged only the hash stays");
  assert.equal(afterAck.answered[0].hash, withAnswer.answered[0].hash);
  assert.deepEqual(await pendingTasks(journal), [], "removed at the terminal outcome");
  const entries = await log();
  assert.equal(count(entries, "tools/call"), 1);
  assert.equal(count(entries, "tasks/update"), 1);
});

test("the answer is stored before its tasks/update goes out; a store that fails on it ends the wait, nothing sent (not even cancelOnAbort's cancel)", async () => {
  await reset();
  const journal = spyJournal();
  journal.failOn = (op, key, entry) => op === "put" && entry?.answered?.length > 0;
  let asked = 0;
  const out = await callAndAwait(httpClient(srv.url), "ask", {}, {}, {
    journal,
    timeoutMs: 5000,
    signal: new AbortController().signal,
    cancelOnAbort: true,
    inputHandlers: { form: async () => (asked++, { tag: "ok", response: ADA }) },
  });
  assert.equal(out.tag, "error");
  assert.equal(out.error.kind, "journal");
  assert.equal(out.error.cause.type, "journal_failed");
  assert.equal(out.error.cause.operation, "put");
  assert.match(out.error.message, /^journal: put failed: store down/);
  assert.equal(typeof out.error.data.taskId, "string");
  assert.equal(asked, 1);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(count(await log(), "tasks/update"), 0, "the answer that could not be journaled was never sent");
  assert.equal(count(await log(), "tasks/cancel"), 0, "a store failure never cancels the task");
  const [entry] = await pendingTasks(journal);
  assert.equal(entry.taskId, out.error.data.taskId, "the task itself stays journaled: it can be resumed");
  await cancelTask(httpClient(srv.url), entry.taskId);
});

test("a store that fails when the task is created gives the error outcome with the created status", async () => {
  const journal = spyJournal();
  journal.failOn = (op) => op === "put";
  const out = await callTool(httpClient(srv.url), "forever", {}, { journal });
  assert.equal(out.tag, "error");
  assert.equal(out.error.kind, "journal");
  assert.equal(out.error.cause.status.status, "working", "the task is not lost: its status is in the outcome");
  await cancelTask(httpClient(srv.url), out.error.cause.status.taskId);
});

test("a timeout keeps the entry with the last status; resumeTasks finishes it; TTL drops expired entries", async () => {
  await reset();
  const journal = memoryJournal();
  const client = httpClient(srv.url);
  const created = await callTool(client, "slow", { ms: 400 }, { journal });
  assert.equal(created.tag, "task");
  const timedOut = await awaitTask(client, created.status, { journal, timeoutMs: 100 });
  assert.equal(timedOut.error.code, -32001);
  const [entry] = await pendingTasks(journal, { server: srv.url });
  assert.equal(entry.taskId, created.status.taskId);
  assert.equal(entry.status.status, "working");
  assert.equal(entry.tool, "slow");
  assert.deepEqual(await pendingTasks(journal, { server: "http://elsewhere/mcp" }), []);
  const seen = [];
  const results = await resumeTasks(client, journal, { onOutcome: (o, e) => seen.push([o.tag, e.taskId]) });
  assert.deepEqual(results.map((r) => [r.taskId, r.tool, r.outcome.tag]), [[entry.taskId, "slow", "ok"]]);
  assert.deepEqual(seen, [["ok", entry.taskId]]);
  assert.deepEqual(await pendingTasks(journal), []);
  assert.equal(count(await log(), "tools/call"), 1, "exactly one tools/call");

  const old = memoryJournal();
  const key = JSON.stringify([srv.url, "gone"]);
  await old.put(key, { server: srv.url, taskId: "gone", createdAt: "2020-01-01T00:00:00Z", ttlMs: 1000, answered: [] });
  await old.put(JSON.stringify([srv.url, "kept"]), { server: srv.url, taskId: "kept", createdAt: new Date().toISOString(), ttlMs: 60_000, answered: [] });
  assert.deepEqual((await pendingTasks(old)).map((e) => e.taskId), ["kept"]);
  assert.equal(await old.get(key), undefined, "an expired entry is deleted from the store");
});

test("resuming never asks a key answered before: acknowledged → keeps waiting; unacknowledged → sent once, no handler", async () => {
  const client = httpClient(srv.url);
  // An ask task left at input_required, as a page that died would leave it.
  const created = await callTool(client, "ask", {});
  assert.equal(created.tag, "task");
  const status = created.status;
  const taskId = status.taskId;
  const journal = memoryJournal();
  const key = JSON.stringify([srv.url, taskId]);
  const base = { server: srv.url, taskId, tool: "ask", createdAt: status.createdAt, ttlMs: status.ttlMs ?? null, status, journaledAt: Date.now() };
  let asked = 0;
  const handlers = { form: async () => (asked++, { tag: "ok", response: { action: "accept", content: { name: "Eve" } } }) };

  // Acknowledged before the restart (only the hash stays), yet the server still lists the key.
  await journal.put(key, { ...base, answered: [{ key: "name", hash: "sha256:00" }] });
  await reset();
  const waited = await awaitTask(client, taskId, { journal, inputHandlers: handlers, timeoutMs: 300 });
  assert.equal(waited.error?.code, -32001, JSON.stringify(waited));
  assert.equal(asked, 0, "the key is not asked again");
  assert.equal(count(await log(), "tasks/update"), 0);

  // Journaled but never acknowledged: the stored answer goes out once, the handler is not called.
  await journal.put(key, { ...base, answered: [{ key: "name", hash: "sha256:00", answer: ADA }] });
  await reset();
  const [resumed] = await resumeTasks(client, journal, { inputHandlers: handlers });
  assert.equal(resumed.outcome.tag, "ok", JSON.stringify(resumed.outcome));
  assert.equal(resumed.outcome.result.content[0].text, "hello, Ada");
  assert.equal(asked, 0);
  assert.equal(count(await log(), "tasks/update"), 1);
  assert.deepEqual(await pendingTasks(journal), []);
});

test("bad journals and clients without an id reject with a TypeError; no journal is the engine's own call", async () => {
  const direct = directClient(async () => ({ taskId: "t", status: "completed", result: { content: [] } }));
  assert.ok((await rejection(awaitTask(direct, "t", { journal: memoryJournal() }))) instanceof TypeError);
  direct.id = "in-process";
  assert.equal((await awaitTask(direct, "t", { journal: memoryJournal() })).tag, "ok");
  for (const bad of [{}, { get() {} }, 5]) {
    assert.ok((await rejection(awaitTask(direct, "t", { journal: bad }))) instanceof TypeError);
    assert.ok((await rejection(callTool(direct, "x", {}, { journal: bad }))) instanceof TypeError);
    assert.ok((await rejection(callAndAwait(direct, "x", {}, {}, { journal: bad }))) instanceof TypeError);
  }
  assert.ok((await rejection(pendingTasks({}))) instanceof TypeError);
  const noDefault = await rejection(awaitTask(direct, "t", { journal: true }));
  assert.ok(noDefault instanceof TypeError && /IndexedDB/.test(noDefault.message), "journal: true needs IndexedDB (Node has none)");
  // It says what to pass instead, not what a store object lacks.
  assert.match(noDefault.message, /journal: true keeps the journal in IndexedDB, which this environment lacks/);
  assert.match(noDefault.message, /memoryJournal\(\)/);
  assert.doesNotMatch(noDefault.message, /must have get, put/);
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  assert.ok((await rejection(awaitTask(direct, "t", revoked.proxy))) instanceof TypeError, "unreadable options: the engine's TypeError");
});

test("one rule for a journal in every function: null is none; a client without an id (or with \"\") has one message", async () => {
  const ID_MESSAGE = "a journaled client needs an id (HTTP and stdio clients have one; set it on others)";
  const created = { resultType: "task", taskId: "t", status: "working", pollIntervalMs: 5, ttlMs: null };
  const handler = async (method) => (method === "tools/call" ? created : { taskId: "t", status: "completed", result: { content: [] } });
  for (const id of [undefined, ""]) {
    const direct = directClient(handler);
    if (id !== undefined) direct.id = id;
    for (const [what, call] of [
      ["callTool", () => callTool(direct, "x", {}, { journal: memoryJournal() })],
      ["awaitTask", () => awaitTask(direct, "t", { journal: memoryJournal() })],
      ["callAndAwait", () => callAndAwait(direct, "x", {}, { journal: memoryJournal() })],
      ["resumeTasks", () => resumeTasks(direct, memoryJournal())],
    ]) {
      const e = await rejection(call());
      assert.ok(e instanceof TypeError, `${what}: ${e}`);
      assert.equal(e.message, `${what}: ${ID_MESSAGE}`);
    }
  }
  const direct = directClient(handler);
  direct.id = "in-process";
  // null: not journaled, in every function (nothing is asked of a store, and no id is needed without one).
  const anonymous = directClient(handler);
  assert.equal((await callTool(anonymous, "x", {}, { journal: null })).tag, "task");
  assert.equal((await awaitTask(anonymous, "t", { journal: null })).tag, "ok");
  assert.equal((await callAndAwait(anonymous, "x", {}, { journal: null }, { journal: null })).tag, "ok");
  // callAndAwait: the await options' journal, else the call options' (null on the wait is none there).
  const onCall = spyJournal();
  assert.equal((await callAndAwait(direct, "x", {}, { journal: onCall }, { journal: null })).tag, "ok");
  assert.ok(onCall.calls.some(([op]) => op === "put"), "the call options' journal recorded the task");
  const onWait = spyJournal();
  const unused = spyJournal();
  assert.equal((await callAndAwait(direct, "x", {}, { journal: unused }, { journal: onWait })).tag, "ok");
  assert.ok(onWait.calls.some(([op]) => op === "put") && unused.calls.length === 0, "the await options' journal wins");
});

test("cancelOnAbort: the caller's abort during a journaled wait cancels the task; an abort after the outcome sends nothing", async () => {
  await reset();
  const client = httpClient(srv.url, { clientCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } });
  const journal = memoryJournal();
  const ac = new AbortController();
  const created = await callTool(client, "forever", {}, { journal });
  setTimeout(() => ac.abort(new Error("stop")), 100);
  const e = await rejection(awaitTask(client, created.status, { journal, signal: ac.signal, cancelOnAbort: true }));
  assert.equal(e.message, "stop");
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(count(await log(), "tasks/cancel"), 1);
  assert.equal((await pendingTasks(journal)).length, 1, "an abort keeps the entry");

  await reset();
  const later = new AbortController();
  const done = await callAndAwait(client, "slow", { ms: 50 }, {}, { journal, signal: later.signal, cancelOnAbort: true });
  assert.equal(done.tag, "ok");
  later.abort();
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(count(await log(), "tasks/cancel"), 0, "nothing is cancelled after the outcome");
});

test("the created task is stored before anything else happens: a slow store holds the outcome and the first tasks/get", async () => {
  await reset();
  const order = [];
  const inner = memoryJournal();
  const slow = {
    ...inner,
    put: async (key, entry) => {
      order.push(`put start (${entry.status?.status ?? "no status"})`);
      await new Promise((r) => setTimeout(r, 150));
      await inner.put(key, entry);
      order.push("put done");
    },
  };
  const client = httpClient(srv.url, {
    fetch: (u, init) => (order.push(JSON.parse(init.body).method), fetch(u, init)),
  });
  const created = await callTool(client, "slow", { ms: 50 }, { journal: slow });
  order.push(`callTool resolved (${created.tag})`);
  assert.deepEqual(order, ["tools/call", "put start (working)", "put done", "callTool resolved (task)"]);

  order.length = 0;
  const out = await callAndAwait(client, "slow", { ms: 50 }, {}, { journal: slow, minPollIntervalMs: 10 });
  assert.equal(out.tag, "ok");
  // Status writes after that one are not awaited by the wait: only the creation is.
  assert.deepEqual(order.slice(0, 3), ["tools/call", "put start (working)", "put done"], order.join(" → "));
  assert.ok(order.indexOf("tasks/get") > 2, order.join(" → "));
});

test("callAndAwait with cancelOnAbort: the wait's signal aborted during the call sends one tasks/cancel once the task exists, journaled or not", async () => {
  for (const journaled of [false, true]) {
    const sent = [];
    let answerCall;
    const client = directClient((method, params) => {
      sent.push([method, params.taskId]);
      if (method === "tools/call") return new Promise((r) => (answerCall = r));
      return {};
    });
    client.id = "direct:cancel-on-abort";
    const wait = new AbortController();
    const awaitOptions = { signal: wait.signal, cancelOnAbort: true, ...(journaled ? { journal: memoryJournal() } : {}) };
    const p = callAndAwait(client, "slow", {}, {}, awaitOptions);
    await new Promise((r) => setTimeout(r, 10));
    wait.abort(new Error("stop waiting"));
    answerCall({ resultType: "task", taskId: "t-abort", status: "working", ttlMs: null, createdAt: "", lastUpdatedAt: "" });
    const e = await rejection(p);
    assert.equal(e.message, "stop waiting", `journaled: ${journaled}`);
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(sent.filter(([m]) => m === "tasks/cancel"), [["tasks/cancel", "t-abort"]], `journaled: ${journaled}: one cancel of the task`);
    assert.equal(sent.filter(([m]) => m === "tasks/get").length, 0, `journaled: ${journaled}: the wait never polled`);
  }
});

test("cancelOnAbort is the engine's, journaled or not: an abort while the created task is still being journaled rejects, cancels nothing (the wait never knew the task) and keeps the entry", async () => {
  const sent = [];
  const client = directClient((method, params) => {
    sent.push(method);
    if (method === "tools/call") return { resultType: "task", taskId: "t-held", status: "working", ttlMs: null, createdAt: "", lastUpdatedAt: "" };
    return new Promise(() => {});
  });
  client.id = "direct:held-put";
  const inner = memoryJournal();
  let release;
  const held = new Promise((r) => (release = r));
  const journal = { ...inner, put: async (key, entry) => { await held; return inner.put(key, entry); } };
  const ac = new AbortController();
  const p = callAndAwait(client, "slow", {}, { signal: ac.signal }, { journal, cancelOnAbort: true });
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(sent, ["tools/call"], "the put holds the task's answer back from the wait");
  ac.abort(new Error("stop"));
  assert.equal((await rejection(p)).message, "stop");
  release();
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(sent, ["tools/call"], "no tasks/cancel: the wait never knew the task");
  assert.deepEqual((await pendingTasks(journal)).map((e) => e.taskId), ["t-held"], "the entry stays, to be resumed");
});

test("a store whose get fails ends the call as journal_failed with operation get; a final delete that fails, hangs or is aborted still gives the outcome", async () => {
  // get fails: loading the entry of an awaited task.
  const failing = spyJournal();
  failing.failOn = (op) => op === "get";
  const quick = directClient(async (method) => (method === "tasks/get" ? { resultType: "complete", taskId: "t1", status: "completed", result: { content: [] } } : {}));
  quick.id = "quick";
  const got = await awaitTask(quick, "t1", { journal: failing });
  assert.equal(got.tag, "error");
  assert.equal(got.error.kind, "journal");
  assert.equal(got.error.cause.operation, "get");
  assert.equal(got.error.data.operation, "get");
  assert.match(got.error.message, /^journal: get failed: store down \(get\)/);
  // delete throws: the removal is best effort, the outcome is the task's.
  const throwing = spyJournal();
  throwing.failOn = (op) => op === "delete";
  assert.equal((await awaitTask(quick, "t1", { journal: throwing })).tag, "ok");
  // delete never settles: the outcome comes at the deadline at the latest, not never.
  const inner = memoryJournal();
  const stuck = { ...inner, get: inner.get, put: inner.put, list: inner.list, delete: () => new Promise(() => {}) };
  const t0 = performance.now();
  assert.equal((await awaitTask(quick, "t1", { journal: stuck, timeoutMs: 300 })).tag, "ok");
  const took = performance.now() - t0;
  assert.ok(took >= 250 && took < 1000, `settled ${took.toFixed(0)} ms after the call (deadline 300 ms)`);
  // ... or as soon as the caller aborts.
  const abort = new AbortController();
  const stuck2 = { ...stuck, delete: () => (setTimeout(() => abort.abort(new Error("enough")), 20), new Promise(() => {})) };
  const t1 = performance.now();
  assert.equal((await awaitTask(quick, "t1", { journal: stuck2, timeoutMs: 60_000, signal: abort.signal })).tag, "ok");
  assert.ok(performance.now() - t1 < 500, "settled at the abort, with the task's outcome");
  assert.deepEqual(lib.liveCounts(), { runs: 0, requests: 0, asks: 0, streams: 0, timers: 0, calls: 0, failed: null });
});

test("a server's own \"__proto__\" field never becomes a prototype: statuses (given and journaled) keep the task fields only", async () => {
  const journal = spyJournal();
  let gets = 0;
  const client = directClient(async (method) => {
    if (method !== "tasks/get") return {};
    gets++;
    // JSON.parse makes "__proto__" an own field, as any JSON from a server does.
    return JSON.parse(`{"taskId": "t", "status": "${gets < 2 ? "working" : "completed"}", "pollIntervalMs": 1,
      "__proto__": {"statusMessage": "inherited", "error": {}}, "result": {"content": []}}`);
  });
  client.id = "in-process";
  const given = [];
  const out = await awaitTask(client, "t", { journal, onStatus: (s) => given.push(s) });
  assert.equal(out.tag, "ok", JSON.stringify(out));
  // (The spy keeps a structured clone of each entry put: own fields only.)
  const journaled = journal.calls.filter((c) => c[0] === "put").map((c) => c[2].status).filter(Boolean);
  assert.ok(given.length >= 2 && journaled.length >= 1, `statuses given ${given.length}, journaled ${journaled.length}`);
  for (const s of [...given, ...journaled]) {
    assert.equal(Object.getPrototypeOf(s), Object.prototype);
    assert.equal(s.statusMessage, undefined, "nothing inherited from the server's object");
    assert.ok(!Object.hasOwn(s, "__proto__"), "not a task field");
  }
});
