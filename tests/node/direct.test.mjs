// directClient (js/direct.js): what the handler gets, how its throws and rejections come back, and
// what hostile params do — through the package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lib, rejection } from "./pkg.mjs";

const { directClient } = lib;
const PV = "io.modelcontextprotocol/protocolVersion";

test("the handler gets the method, a copy of params with the protocol version, and the request's own options", async () => {
  const calls = [];
  const client = directClient(function (method, params, options) {
    calls.push({ self: this, method, params, options });
    return { ok: method };
  }, { clientCapabilities: { c: 1 }, inputHandlers: { form() {} }, requestTimeoutMs: 5 });
  assert.deepEqual(Object.keys(client).sort(), ["clientCapabilities", "inputHandlers", "listen", "request"]);
  const params = Object.freeze({ _meta: Object.freeze({ mine: 1 }), taskId: "t" });
  const options = { timeoutMs: 9 };
  assert.deepEqual(await client.request("tasks/get", params, options), { ok: "tasks/get" });
  assert.equal(calls[0].self, undefined);
  assert.equal(calls[0].options, options, "the very options object");
  assert.deepEqual(calls[0].params, { taskId: "t", _meta: { [PV]: "2026-07-28", mine: 1 } });
  const own = { [PV]: "2099-01-01", x: 1 };
  await client.request("ping", { _meta: own });
  assert.equal(calls[1].params._meta, own, "a _meta with a version is passed as it is");
  await client.request("ping");
  assert.deepEqual(calls[2].params, { _meta: { [PV]: "2026-07-28" } });
  await client.listen({ notifications: { taskIds: ["t"] } }, { signal: undefined });
  assert.equal(calls[3].method, "subscriptions/listen");
  assert.deepEqual(calls[3].params.notifications, { taskIds: ["t"] });
});

test("a sync throw, a rejection and hostile params: rejections, never a throw", async () => {
  const err = { code: -32602, message: "unknown task" };
  let seen;
  const client = directClient((method, params) => {
    seen = params;
    if (method === "sync") throw err;
    if (method === "async") return Promise.reject(err);
    return {};
  });
  assert.equal(await rejection(client.request("sync", {})), err);
  assert.equal(await rejection(client.request("async", {})), err);
  const trap = new Proxy({}, { ownKeys() { throw new Error("trap"); }, get() { throw new Error("trap"); } });
  await client.request("ping", trap);
  assert.deepEqual(seen, { _meta: { [PV]: "2026-07-28" } }, "an unreadable params object counts as empty");
  const getter = { taskId: "t" };
  Object.defineProperty(getter, "boom", { enumerable: true, get() { throw new Error("getter"); } });
  await client.request("ping", getter);
  assert.deepEqual(seen, { taskId: "t", _meta: { [PV]: "2026-07-28" } }, "a field whose getter throws is left out");
  assert.throws(() => directClient(5), /^TypeError: directClient: handler must be a function/);
  assert.deepEqual(Object.keys(directClient(() => {}, trap)).sort(), ["listen", "request"]);
});

test("an own \"__proto__\" field of params (or of its _meta) reaches the handler as an own field, the copy's prototype untouched", async () => {
  let seen;
  const client = directClient((method, params) => (seen = params));
  // JSON.parse makes "__proto__" an own field; assignment would make it the copy's prototype instead.
  await client.request("tools/call", JSON.parse(`{"name": "x", "__proto__": {"polluted": 1}, "_meta": {"__proto__": {"m": 1}}}`));
  assert.equal(Object.getPrototypeOf(seen), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(seen, "__proto__")?.value, { polluted: 1 });
  assert.equal(seen.polluted, undefined, "nothing inherited");
  assert.equal(Object.getPrototypeOf(seen._meta), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(seen._meta, "__proto__")?.value, { m: 1 });
  assert.equal(seen._meta[PV], "2026-07-28");
});
