// The Rust driver of the engine (src/shell/run.rs) as a user meets it: its one timer serving many waits with
// different clocks, application code re-entering the library from inside a run, and nothing left
// behind — through the package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lib } from "./pkg.mjs";

const { awaitTask, callAndAwait, callTool, liveCounts } = lib;
const zero = { runs: 0, requests: 0, asks: 0, streams: 0, timers: 0, calls: 0, failed: null };
const status = (taskId, s, extra = {}) => ({ taskId, status: s, createdAt: "2026-12-03T00:00:00Z", lastUpdatedAt: "2026-12-03T00:00:00Z", ttlMs: 60000, ...extra });

/** A client whose task `t<i>` completes on its `polls`-th `tasks/get`; it records when each poll came. */
function pollingClient(polls) {
  const seen = new Map();
  return {
    seen,
    request(method, params) {
      const id = params.taskId;
      const times = seen.get(id) ?? [];
      times.push(performance.now());
      seen.set(id, times);
      return times.length >= polls ? status(id, "completed", { result: { content: [], n: id } }) : status(id, "working");
    },
  };
}

test("one timer, 300 waits on 300 clocks: each polls at its own interval, none early, and nothing is left armed", async () => {
  const client = pollingClient(4);
  // Intervals 5..34 ms, in an order that is not the order of their deadlines.
  const intervals = Array.from({ length: 300 }, (_, i) => 5 + ((i * 7919) % 30));
  const outs = await Promise.all(intervals.map((ms, i) =>
    awaitTask(client, status(`t${i}`, "working"), { pollIntervalMs: ms, minPollIntervalMs: ms, maxPollIntervalMs: ms })));
  outs.forEach((o, i) => {
    assert.equal(o.tag, "ok", JSON.stringify(o));
    assert.equal(o.result.n, `t${i}`, "each wait gets its own task's result");
  });
  intervals.forEach((ms, i) => {
    const t = client.seen.get(`t${i}`);
    assert.equal(t.length, 4, `t${i}: exactly 4 polls`);
    for (let k = 1; k < t.length; k += 1) assert.ok(t[k] - t[k - 1] >= ms - 1, `t${i}: poll ${k} came ${(t[k] - t[k - 1]).toFixed(1)} ms after the one before, interval ${ms}`);
  });
  assert.deepEqual(liveCounts(), zero);
});

test("a run that ends long before its wake leaves no timer armed (a Node process can exit)", async () => {
  const client = { request: () => status("t", "working", { pollIntervalMs: 60000 }) };
  const ac = new AbortController();
  const wait = awaitTask(client, "t", { signal: ac.signal, timeoutMs: 120000 });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(liveCounts().timers, 1, "sleeping until the next poll, a minute away");
  ac.abort(new Error("enough"));
  await assert.rejects(wait, /enough/);
  assert.deepEqual(liveCounts(), zero, "the minute-away wake is dropped with the run");
});

test("application code that re-enters the library from inside a run: onStatus, a getter the engine reads, a client", async () => {
  const inner = [];
  const client = {
    request(method, params) {
      if (method === "tools/call" && params.name === "outer") {
        // A client that starts another call while it is being asked for this one.
        inner.push(callTool(client, "inner"));
        return { resultType: "task", ...status("outer", "working") };
      }
      if (method === "tools/call") return { resultType: "complete", content: [{ type: "text", text: "inner" }] };
      const s = status(params.taskId, "completed", { result: { content: [] } });
      if (params.taskId !== "outer") return s;
      // A getter the engine reads while the machine is being fed: it starts a wait of its own (once).
      let started = false;
      Object.defineProperty(s, "statusMessage", {
        enumerable: true,
        get() {
          if (!started) inner.push(awaitTask(client, "other", { timeoutMs: 500 }));
          started = true;
          return "done";
        },
      });
      return s;
    },
  };
  const out = await callAndAwait(client, "outer", {}, {}, {
    pollIntervalMs: 1, minPollIntervalMs: 1,
    onStatus: () => inner.push(callTool(client, "inner")), // and onStatus does too
  });
  assert.equal(out.tag, "ok", JSON.stringify(out));
  const settled = await Promise.all(inner);
  assert.ok(inner.length >= 3, `${inner.length} calls started from inside the run`);
  for (const o of settled) assert.equal(o.tag, "ok", JSON.stringify(o));
  assert.deepEqual(liveCounts(), zero);
});

test("an abort inside the client's request (re-entering the run being fed) ends the run once, with the reason", async () => {
  const ac = new AbortController();
  let calls = 0;
  const client = {
    request() {
      calls += 1;
      ac.abort(new Error("stop now")); // fires the run's abort listener while the run performs its actions
      return new Promise(() => {}); // never settles
    },
  };
  await assert.rejects(callTool(client, "x", {}, { signal: ac.signal }), /stop now/);
  assert.equal(calls, 1);
  assert.deepEqual(liveCounts(), zero);
});

test("waits that share one AbortSignal share one abort listener (and the registry one), removed when the last ends; no MaxListeners warning", async () => {
  const { getEventListeners } = await import("node:events");
  const warnings = [];
  const onWarning = (w) => warnings.push(w.name);
  process.on("warning", onWarning);
  const ac = new AbortController();
  let release;
  const gate = new Promise((r) => (release = r));
  const client = { request: async (method, params) => (await gate, status(params.taskId, "completed", { result: { content: [] } })) };
  const waits = Array.from({ length: 50 }, (_, i) => awaitTask(client, `t${i}`, { signal: ac.signal, retries: 0 }));
  await new Promise((r) => setTimeout(r, 10));
  // One listener of the module's for 50 waits, and one of the promise registry's (its backstop).
  assert.equal(getEventListeners(ac.signal, "abort").length, 2, "one listener each for 50 waits");
  release();
  const outs = await Promise.all(waits);
  assert.ok(outs.every((o) => o.tag === "ok"));
  assert.equal(getEventListeners(ac.signal, "abort").length, 0, "removed when the last wait ended");
  // Shared, the abort still reaches every wait that uses the signal, with its reason.
  const more = Array.from({ length: 20 }, (_, i) => awaitTask({ request: () => new Promise(() => {}) }, `u${i}`, { signal: ac.signal }));
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(getEventListeners(ac.signal, "abort").length, 2);
  ac.abort(new Error("all of them"));
  const reasons = await Promise.allSettled(more);
  assert.ok(reasons.every((r) => r.status === "rejected" && r.reason.message === "all of them"));
  assert.equal(getEventListeners(ac.signal, "abort").length, 0);
  await new Promise((r) => setImmediate(r));
  process.off("warning", onWarning);
  assert.deepEqual(warnings.filter((n) => n === "MaxListenersExceededWarning"), []);
  assert.deepEqual(liveCounts(), zero);
});
