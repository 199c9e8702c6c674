// A request's and an ask's `signal` is made when first read (the shell does not make an
// AbortController nobody looks at), and that must not be observable: read late, it is already
// aborted; read early, its listeners fire; it is an own enumerable property (spreading keeps it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { lib } from "./pkg.mjs";

const { awaitTask, callAndAwait } = lib;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test("a request's signal read only after the wait ended is aborted; read early it fires; spread keeps it", async () => {
  const seen = [];
  const client = {
    request(method, params, options) {
      seen.push({ options, copy: { ...options } });
      return new Promise(() => {}); // never settles: the deadline ends the wait
    },
  };
  const out = await awaitTask(client, "t1", { timeoutMs: 50, retries: 0 });
  assert.equal(out.error.code, -32001);
  const [{ options, copy }] = seen;
  assert.ok("signal" in copy && copy.signal instanceof AbortSignal, "spreading the options keeps the signal");
  assert.equal(copy.signal.aborted, true);
  assert.equal(options.signal.aborted, true, "read late: already aborted");
  assert.equal(options.signal, copy.signal, "one signal per request");

  let fired = 0;
  const early = {
    request(method, params, options) {
      options.signal.addEventListener("abort", () => fired++);
      return new Promise(() => {});
    },
  };
  await awaitTask(early, "t2", { timeoutMs: 50, retries: 0 });
  assert.equal(fired, 1, "read early: its abort event fires once");
});

test("an input handler's signal read after its key went away is aborted", async () => {
  let context;
  let n = 0;
  const client = {
    async request(method, params) {
      if (method === "tools/call") return { resultType: "task", taskId: "t", status: "working", pollIntervalMs: 10 };
      n += 1;
      return n === 1
        ? { resultType: "complete", taskId: "t", status: "input_required", pollIntervalMs: 10, inputRequests: { k: { method: "elicitation/create", params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } } } } }
        : { resultType: "complete", taskId: "t", status: "completed", result: { content: [] } };
    },
    inputHandlers: { form: (params, ctx) => { context = ctx; return new Promise(() => {}); } },
  };
  const out = await callAndAwait(client, "x", {}, {}, { minPollIntervalMs: 10 });
  assert.equal(out.tag, "ok");
  await sleep(0);
  assert.equal(context.key, "k");
  assert.equal(context.signal.aborted, true, "the task ended while the handler ran: its signal is aborted");
});
