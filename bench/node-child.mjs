// One Node measurement in a fresh process (run with --expose-gc): `node --expose-gc bench/node-child.mjs
// <task> <ours|theirs> [json options]`. Prints one JSON line. Started by bench/run.mjs.
// CPU is process.cpuUsage() (user + system, all threads of the process), memory is
// process.memoryUsage() after a forced full GC; for ours the wasm linear memory is read from the
// instance's exports (`initSync()` returns them once the module is initialised).
import inspector from "node:inspector";
import v8 from "node:v8";
import { pathToFileURL } from "node:url";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { preparePolls, prepareBig, prepareMany, serverShare, serverWork, requestsPerWait, firstRequest } from "./scenarios.mjs";

const [task, kind, optsJson] = process.argv.slice(2);
const opts = optsJson ? JSON.parse(optsJson) : {};
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const OURS = pathToFileURL(path.join(root, "pkg/node.js")).href;
const THEIRS = "@modelcontextprotocol/ext-tasks/client";

if (typeof globalThis.gc !== "function") throw new Error("run with --expose-gc");

// "Hot loop" variant for theirs: its poll floor (10 ms) is a setTimeout; replaced here by setImmediate
// so that its per-poll work can be timed back to back like ours at 0 ms (no idle wake-ups between).
if (opts.zeroTimers) {
  const origClear = globalThis.clearTimeout;
  globalThis.setTimeout = (fn, ms, ...args) => setImmediate(fn, ...args);
  globalThis.clearTimeout = (t) => (t !== null && typeof t === "object" && t.constructor?.name === "Immediate" ? clearImmediate(t) : origClear(t));
}

const cpuUs = () => { const u = process.cpuUsage(); return u.user + u.system; };
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

async function importWithRetry(spec) {
  for (let i = 0; ; i += 1) {
    try { return await import(spec); } catch (e) {
      if (i >= 20) throw e;
      await new Promise((r) => setTimeout(r, 1000)); // pkg/ may be mid-rebuild
    }
  }
}

async function load() {
  if (kind === "ours") {
    const mod = await importWithRetry(OURS);
    const wasm = mod.initSync(); // already initialised on import: returns the instance's exports
    // The module's exports have one-letter names (scripts/build.mjs): find its memory by type.
    const memory = Object.values(wasm).find((v) => v instanceof WebAssembly.Memory);
    return { mod, wasmBytes: () => memory.buffer.byteLength };
  }
  return { mod: await importWithRetry(THEIRS), wasmBytes: () => 0 };
}

function mem(wasmBytes) {
  globalThis.gc();
  globalThis.gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, wasm: wasmBytes(), rss: m.rss };
}
const diff = (a, b) => Object.fromEntries(Object.keys(a).map((k) => [k, b[k] - a[k]]));

function inspectorSession() {
  const s = new inspector.Session();
  s.connect();
  return (m, p = {}) => new Promise((res, rej) => s.post(m, p, (e, r) => (e ? rej(e) : res(r))));
}
async function sampledAllocation(fn) {
  const post = inspectorSession();
  await post("HeapProfiler.enable");
  await post("HeapProfiler.startSampling", { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await fn();
  const { profile } = await post("HeapProfiler.stopSampling");
  let sum = 0;
  const walk = (n) => { sum += n.selfSize; for (const c of n.children) walk(c); };
  walk(profile.head);
  return sum;
}

const out = { task, kind, node: process.version };

if (task === "polls") {
  const { mod } = await load();
  const s = preparePolls(kind, mod, { intervalMs: opts.intervalMs ?? 0 });
  await s.run(opts.warm ?? 100);
  const runs = [];
  for (let i = 0; i < (opts.runs ?? 5); i += 1) {
    globalThis.gc();
    const w0 = performance.now();
    const c0 = cpuUs();
    const r = await s.run(opts.polls ?? 300);
    const c1 = cpuUs();
    runs.push({ cpuUsPerPoll: (c1 - c0) / r.polls, wallMsPerPoll: (performance.now() - w0) / r.polls });
  }
  // The fake server's own CPU for the same number of answers (called in a loop, no client).
  serverWork(200, 300);
  const c0 = cpuUs();
  const gets = serverWork(200, 300);
  out.serverUsPerPoll = (cpuUs() - c0) / gets;
  out.runs = runs;
  out.cpuUsPerPoll = median(runs.map((r) => r.cpuUsPerPoll));
  out.wallMsPerPoll = median(runs.map((r) => r.wallMsPerPoll));
} else if (task === "floor") {
  // The environment's own cost of one timer turn (await setTimeout(ms)), no library: the part of a
  // poll's CPU that any polling client pays on this machine.
  const turn = (ms) => new Promise((r) => setTimeout(r, ms));
  for (const ms of opts.intervals ?? [0, 10]) {
    for (let i = 0; i < 50; i += 1) await turn(ms);
    const runs = [];
    for (let k = 0; k < (opts.runs ?? 5); k += 1) {
      const c0 = cpuUs();
      for (let i = 0; i < 300; i += 1) await turn(ms);
      runs.push((cpuUs() - c0) / 300);
    }
    out[`usPerTurn@${ms}`] = median(runs);
  }
} else if (task === "big") {
  const { mod, wasmBytes } = await load();
  const s = prepareBig(kind, mod, {});
  out.resultJsonBytes = s.bigJsonBytes();
  await s.run();
  await s.run();
  const runs = [];
  for (let i = 0; i < (opts.runs ?? 5); i += 1) {
    const m0 = mem(wasmBytes);
    let c0 = 0;
    const r = await s.run({
      answer: () => { c0 = cpuUs(); },
      outcome: () => ({ cpu: cpuUs() - c0 }),
    });
    const m1 = mem(wasmBytes); // only the outcome is still reachable (r.keep); server and client are not
    const same = r.same;
    const cpuMs = r.at.cpu / 1000;
    r.keep.out = null;
    const m2 = mem(wasmBytes);
    runs.push({ cpuMs, same, outcomeHolds: diff(m2, m1), wasmGrowth: m1.wasm - m0.wasm });
  }
  // Allocation (sampled, counting objects already collected) over a whole wait.
  out.allocatedBytes = await sampledAllocation(() => s.run());
  const small = prepareBig(kind, mod, { bytes: 1000, big: false });
  await small.run(); await small.run();
  out.allocatedBytesSmall = await sampledAllocation(() => small.run());
  out.runs = runs;
  out.cpuMs = median(runs.map((r) => r.cpuMs));
  out.outcomeHoldsBytes = median(runs.map((r) => r.outcomeHolds.heap + r.outcomeHolds.external));
  out.wasmGrowth = Math.max(...runs.map((r) => r.wasmGrowth));
  out.same = runs.every((r) => r.same);
} else if (task === "many") {
  const n = opts.n ?? 10000;
  const { mod, wasmBytes } = await load();
  const m0 = mem(wasmBytes);
  // The fake server's own share: the same n task records, created and polled, no client.
  let share = serverShare(n, 3);
  const mShare = mem(wasmBytes);
  share = null;
  out.serverShareBytes = mShare.heap + mShare.external - m0.heap - m0.external;
  const s = prepareMany(kind, mod, {});
  const base = mem(wasmBytes);
  const cold = await s.run(n, (label) => ({ label, ...mem(wasmBytes) }));
  const after = mem(wasmBytes);
  if (cold.ok !== n) throw new Error(`${kind}: ${cold.ok}/${n} resolved`);
  const peak = cold.samples.reduce((a, b) => (b.heap + b.external > a.heap + a.external ? b : a));
  out.samples = cold.samples.map((x) => ({ label: x.label, ...diff(base, x) }));
  out.peak = { label: peak.label, ...diff(base, peak) };
  out.peakBytesPerWait = (peak.heap + peak.external - base.heap - base.external - out.serverShareBytes) / n;
  out.heapBytesPerWait = (peak.heap - base.heap) / n;
  out.wasmBytesPerWait = (peak.wasm - base.wasm) / n;
  out.wasmBefore = base.wasm;
  out.wasmAfter = after.wasm;
  out.wasmInitial = m0.wasm;
  out.afterEnd = diff(base, after);
  out.gets = cold.gets;
  // Warm runs, no sampling: CPU per wait.
  const runs = [];
  for (let i = 0; i < (opts.runs ?? 2); i += 1) {
    globalThis.gc();
    const c0 = cpuUs();
    const w0 = performance.now();
    const r = await s.run(n);
    if (r.ok !== n) throw new Error(`${kind}: ${r.ok}/${n} resolved`);
    runs.push({ cpuUsPerWait: (cpuUs() - c0) / n, wallMs: performance.now() - w0 });
  }
  serverWork(n, 3);
  const c0 = cpuUs();
  serverWork(n, 3);
  out.serverUsPerWait = (cpuUs() - c0) / n;
  out.runs = runs;
  out.wasmAfterWarm = wasmBytes();
} else if (task === "heap") {
  // Where the memory of one wait goes: heap snapshots before and while n waits are live, diffed by
  // constructor / type; plus the wasm memory growth.
  const n = opts.n ?? 2000;
  const { mod, wasmBytes } = await load();
  const s = prepareMany(kind, mod, {});
  await s.run(200);
  // Snapshots go to files and are read only at the end, so that no bookkeeping of this script sits
  // in the heap being measured.
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-heap-"));
  const snap = (name) => { globalThis.gc(); return v8.writeHeapSnapshot(path.join(dir, `${name}.heapsnapshot`)); };
  const fBefore = snap("before");
  // The fake server's own objects for n waits (records created and polled, no client), to subtract.
  let share = serverShare(n, 3);
  const fServer = snap("server");
  share = null;
  const w0 = wasmBytes();
  let fDuring = null;
  let wasmDuring = 0;
  let refsDuring = null;
  // ours: the JS values the wasm side holds (wasm-bindgen's externref table; freed slots hold null).
  // The exports have one-letter names: the externref table is the table whose slot 1026 holds `true`
  // (wasm-bindgen's glue seeds slots 1024..1027 with undefined, null, true, false).
  const table = kind === "ours"
    ? Object.values(mod.initSync()).find((v) => v instanceof WebAssembly.Table && v.length > 1027 && (() => { try { return v.get(1026) === true; } catch { return false; } })())
    : null;
  const externrefs = () => {
    if (table === null) return null;
    const kinds = {};
    let live = 0;
    for (let i = 0; i < table.length; i += 1) {
      const v = table.get(i);
      if (v === null || v === undefined || v === true || v === false) continue;
      live += 1;
      const k = typeof v === "function" ? "function" : typeof v === "object" ? (v.constructor?.name ?? "object") : typeof v;
      kinds[k] = (kinds[k] ?? 0) + 1;
    }
    return { length: table.length, live, kinds };
  };
  const refsBefore = externrefs();
  await s.run(n, (label) => {
    if (label === "poll1" && fDuring === null) { fDuring = snap("during"); wasmDuring = wasmBytes(); refsDuring = externrefs(); }
    return label;
  });
  const before = aggregate(fBefore), withServer = aggregate(fServer), during = aggregate(fDuring);
  rmSync(dir, { recursive: true, force: true });
  const serverRows = new Map();
  for (const [key, v] of withServer) {
    const b = before.get(key) ?? { count: 0, size: 0 };
    serverRows.set(key, { count: v.count - b.count, size: v.size - b.size });
  }
  const rows = [];
  for (const [key, v] of during) {
    const b = before.get(key) ?? { count: 0, size: 0 };
    const sv = serverRows.get(key) ?? { count: 0, size: 0 };
    const dc = v.count - b.count - Math.max(0, sv.count);
    const ds = v.size - b.size - Math.max(0, sv.size);
    if (ds > 0) rows.push({ key, countPerWait: dc / n, bytesPerWait: ds / n });
  }
  rows.sort((a, b) => b.bytesPerWait - a.bytesPerWait);
  out.n = n;
  out.rows = rows.slice(0, opts.top ?? 25);
  out.totalHeapPerWait = rows.reduce((a, r) => a + r.bytesPerWait, 0);
  out.wasmPerWait = (wasmDuring - w0) / n;
  if (refsDuring !== null) {
    out.externrefs = {
      slotsPerWait: (refsDuring.length - refsBefore.length) / n,
      livePerWait: (refsDuring.live - refsBefore.live) / n,
      kindsPerWait: Object.fromEntries(Object.entries(refsDuring.kinds).map(([k, v]) => [k, (v - (refsBefore.kinds[k] ?? 0)) / n])),
    };
  }
} else if (task === "requests") {
  const { mod } = await load();
  out.rows = await Promise.all(opts.cases.map(async (c) => ({ ...c, ...(await requestsPerWait(kind, mod, c)) })));
} else if (task === "startup") {
  const t0 = performance.now();
  const mod = kind === "ours" ? await import(OURS) : await import(THEIRS);
  const at = await firstRequest(kind, mod);
  out.startupMs = at - t0;
} else {
  throw new Error(`unknown task ${task}`);
}

process.stdout.write(JSON.stringify(out) + "\n");
process.exit(0);

/**
 * Reads a heap snapshot file and sums self sizes by "type:name". Plain objects are keyed by their
 * property names ("object:{a,b,c}"), closures by their function name, strings all together.
 */
function aggregate(file) {
  const snap = JSON.parse(readFileSync(file, "utf8"));
  const meta = snap.snapshot.meta;
  const f = meta.node_fields, ef = meta.edge_fields;
  const types = meta.node_types[0], etypes = meta.edge_types[0];
  const iType = f.indexOf("type"), iName = f.indexOf("name"), iSize = f.indexOf("self_size"), iEdges = f.indexOf("edge_count");
  const eType = ef.indexOf("type"), eName = ef.indexOf("name_or_index");
  const nodes = snap.nodes, edges = snap.edges, strings = snap.strings, w = f.length, ew = ef.length;
  const map = new Map();
  let e = 0;
  for (let i = 0; i < nodes.length; i += w) {
    const type = types[nodes[i + iType]];
    let name = strings[nodes[i + iName]];
    const edgeCount = nodes[i + iEdges];
    if (type === "string" || type === "concatenated string" || type === "sliced string") name = "(string)";
    else if (type === "object" && name === "Object") {
      const keys = [];
      let other = 0;
      for (let k = 0; k < edgeCount; k += 1) {
        const t = etypes[edges[e + k * ew + eType]];
        if (t === "property") {
          const key = strings[edges[e + k * ew + eName]];
          if (key !== "__proto__") keys.push(key);
        } else if (t === "element") other += 1;
      }
      name = `{${keys.slice(0, 8).join(",")}${other ? `,[${other} elements]` : ""}}`;
    } else if (name.length > 60) name = name.slice(0, 60);
    e += edgeCount * ew;
    const key = `${type}:${name}`;
    const m = map.get(key);
    if (m) { m.count += 1; m.size += nodes[i + iSize]; } else map.set(key, { count: 1, size: nodes[i + iSize] });
  }
  return map;
}
