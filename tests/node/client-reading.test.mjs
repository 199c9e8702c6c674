// The shell shares its reading of a client between calls (thousands of waits on one client hold one
// copy). That must never serve a stale reading: a client whose request, listen, inputHandlers,
// requestTimeoutMs or clientCapabilities changed between calls (replaced, or mutated inside) is read
// afresh.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lib } from "./pkg.mjs";

const { awaitTask } = lib;
const EXT = "io.modelcontextprotocol/tasks";
const done = (taskId) => ({ resultType: "complete", taskId, status: "completed", result: { content: [] } });

test("a client changed between calls is read afresh", async () => {
  const seen = [];
  const client = { request: async (m, p, o) => (seen.push(["first", o.timeoutMs]), done(p.taskId)) };
  await awaitTask(client, "a");
  client.request = async (m, p, o) => (seen.push(["second", o.timeoutMs]), done(p.taskId));
  await awaitTask(client, "b");
  client.requestTimeoutMs = 1234;
  await awaitTask(client, "c", { timeoutMs: 60000 });
  assert.deepEqual(seen.map((s) => s[0]), ["first", "second", "second"]);
  assert.equal(seen[2][1], 1234, "a new requestTimeoutMs is used");

  const caps = [];
  const withCaps = { clientCapabilities: { elicitation: {} }, request: async (m, p) => (caps.push(structuredClone(p._meta["io.modelcontextprotocol/clientCapabilities"])), done(p.taskId)) };
  await awaitTask(withCaps, "d");
  withCaps.clientCapabilities.sampling = {}; // mutated inside, same object
  await awaitTask(withCaps, "e");
  assert.equal("sampling" in caps[0], false);
  assert.deepEqual(Object.keys(caps[1]).sort(), ["elicitation", "extensions", "sampling"]);
  assert.ok(caps[1].extensions[EXT]);
});

test("two clients alternating never see each other's request", async () => {
  const hits = { a: 0, b: 0 };
  const a = { request: async (m, p) => (hits.a++, done(p.taskId)) };
  const b = { request: async (m, p) => (hits.b++, done(p.taskId)) };
  await Promise.all([awaitTask(a, "1"), awaitTask(b, "2"), awaitTask(a, "3"), awaitTask(b, "4"), awaitTask(b, "5")]);
  assert.deepEqual(hits, { a: 2, b: 3 });
});
