// A quick look at memory per idle wait (not part of `npm run bench`): N waits polling a trivial
// in-process server, measured between two polls after a forced GC: JS heap and wasm linear memory
// growth per wait (the server's own map included). Run: node --expose-gc bench/idle-memory.mjs
import { directClient, awaitTask, initSync } from "../pkg/node.js";
const N = 5000;
const exportsObj = initSync(); // returns the instance exports
// The module's exports have one-letter names (scripts/build.mjs): find its memory by type.
const memory = Object.values(exportsObj).find((v) => v instanceof WebAssembly.Memory);
const mem = () => memory.buffer.byteLength;
const tasks = new Map();
const client = directClient((method, params) => {
  const id = params.taskId;
  const n = (tasks.get(id) ?? 0) + 1;
  tasks.set(id, n);
  return { resultType: "complete", taskId: id, status: n >= 4 ? "completed" : "working", pollIntervalMs: 50, ...(n >= 4 ? { result: { content: [] } } : {}) };
});
global.gc(); const h0 = process.memoryUsage().heapUsed; const w0 = mem();
const waits = [];
for (let i = 0; i < N; i++) waits.push(awaitTask(client, `t${i}`, { minPollIntervalMs: 50, pollIntervalMs: 50 }));
await new Promise((r) => setTimeout(r, 75)); // between polls
global.gc(); const h1 = process.memoryUsage().heapUsed; const w1 = mem();
const outs = await Promise.all(waits);
console.log(`ok ${outs.filter((o) => o.tag === "ok").length}/${N}; per wait: heap ${((h1 - h0) / N).toFixed(0)} B, wasm ${((w1 - w0) / N).toFixed(0)} B (server map included)`);
