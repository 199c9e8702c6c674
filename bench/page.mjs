// The bench page (served from the repo root, driven by bench/browser.mjs through playwright-core).
// Exposes window.bench; the driver measures CPU around `run()` with the DevTools protocol
// (Performance.getMetrics, ThreadTime = the renderer main thread's CPU time). Memory is read in the
// page after a forced GC (Chromium started with --js-flags=--expose-gc --enable-precise-memory-info):
// performance.memory.usedJSHeapSize, plus for ours the wasm memory's byteLength.
import { preparePolls, prepareBig, prepareMany, requestsPerWait, firstRequest, serverShare } from "./scenarios.mjs";

const OURS = "/pkg/index.js";
const THEIRS = "/bench/.out/ext-tasks-client.js"; // esbuild bundle of @modelcontextprotocol/ext-tasks/client

let mod = null;
let wasm = null;
let scenario = null;
let keep = null;

function mem() {
  gc();
  gc();
  const memory = wasm && Object.values(wasm).find((v) => v instanceof WebAssembly.Memory); // exports have one-letter names
  return { heap: performance.memory.usedJSHeapSize, wasm: memory ? memory.buffer.byteLength : 0 };
}

window.bench = {
  async load(kind) {
    const t0 = performance.now();
    mod = await import(kind === "ours" ? OURS : THEIRS);
    if (kind === "ours") wasm = await mod.default();
    return performance.now() - t0;
  },
  mem,
  /**
   * "Hot loop" variant for theirs: its 10 ms poll floor is a setTimeout; from now on every setTimeout
   * of this page runs as soon as possible through a MessageChannel (no 4 ms clamp, no idle wake-ups).
   */
  zeroTimers() {
    const ch = new MessageChannel();
    const queue = new Map();
    let next = 1;
    ch.port1.onmessage = (e) => { const f = queue.get(e.data); if (f) { queue.delete(e.data); f(); } };
    const origClear = window.clearTimeout;
    window.setTimeout = (fn, ms, ...args) => { const id = -(next++); queue.set(id, () => fn(...args)); ch.port2.postMessage(id); return id; };
    window.clearTimeout = (id) => (typeof id === "number" && id < 0 ? queue.delete(id) : origClear(id));
  },
  /** The environment's own cost: 300 bare timer turns (await setTimeout(ms)), no library. */
  async floor(ms) {
    for (let i = 0; i < 300; i += 1) await new Promise((r) => setTimeout(r, ms));
    return 300;
  },
  prepare(name, kind, opts = {}) {
    const make = { polls: preparePolls, big: prepareBig, many: prepareMany }[name];
    scenario = { kind, name, s: make(kind, mod, opts) };
    return name === "big" ? scenario.s.bigJsonBytes() : 0;
  },
  async run(...args) {
    const { name, s } = scenario;
    if (name === "polls") return s.run(...args);
    if (name === "big") {
      let t0 = 0;
      const r = await s.run({ answer: () => { t0 = performance.now(); }, outcome: () => performance.now() - t0 });
      keep = r.keep;
      return { same: r.same, wallMs: r.at };
    }
    if (name === "many") {
      const [n, withSamples] = args;
      const r = await s.run(n, withSamples ? (label) => ({ label, ...mem() }) : null);
      return { ok: r.ok, n: r.n, gets: r.gets, samples: r.samples };
    }
    throw new Error(name);
  },
  /** The fake server's own heap for n waits (records created and polled, no client). */
  serverShareBytes(n) {
    const m0 = mem();
    let share = serverShare(n, 3);
    const m1 = mem();
    share = null;
    return m1.heap - m0.heap;
  },
  drop() { if (keep) keep.out = null; keep = null; },
  requests(kind, cases) {
    return Promise.all(cases.map(async (c) => ({ ...c, ...(await requestsPerWait(kind, mod, c)) })));
  },
  /** Start-up: from before `import` to the first request going out (call on a fresh browser). */
  async startup(kind) {
    const t0 = performance.now();
    const m = await import(kind === "ours" ? OURS : THEIRS);
    const t1 = performance.now();
    if (kind === "ours") await m.default();
    const t2 = performance.now();
    const at = await firstRequest(kind, m);
    return { ms: at - t0, importMs: t1 - t0, initMs: t2 - t1, firstMs: at - t2 };
  },
};
window.benchReady = true;
