// The Chromium half of the bench: the same scenarios in bench/page.html, served from the repo root by
// the project's test server, in headless Chromium (playwright-core + /usr/bin/chromium, launched like
// tests/browser/chromium.mjs). Every (scenario, library) pair gets a fresh browser context and page,
// so the two libraries never share a heap, a JIT or a wasm memory.
//
// CPU: the DevTools protocol's Performance.getMetrics with timeDomain "threadTicks": ThreadTime is the
// renderer main thread's CPU time (GC helper threads not included), read before and after `run()`.
// Memory: read in the page after gc() (see page.mjs).
import { startHttpServer } from "../tests/server/http.mjs";
import { launch, CHROMIUM_ARGS } from "../tests/browser/chromium.mjs";

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

export async function runBrowser({ root, log = () => {}, runs = 5, manyRuns = 3, n = 10000 }) {
  const site = await startHttpServer({ staticDir: root });
  const browser = await launch({ args: [...CHROMIUM_ARGS, "--js-flags=--expose-gc", "--enable-precise-memory-info"] });
  const out = { version: browser.version() };
  const problems = [];

  async function fresh(kind) {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    page.on("console", (m) => { if (m.type() === "error") problems.push(`console: ${m.text()}`); });
    await page.goto(`${site.origin}/bench/page.html`);
    await page.waitForFunction(() => window.benchReady === true);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
    const metrics = async () => {
      const { metrics: m } = await cdp.send("Performance.getMetrics");
      const get = (k) => m.find((x) => x.name === k)?.value ?? NaN;
      return { thread: get("ThreadTime"), process: get("ProcessTime") };
    };
    let loadMs = null;
    if (kind) {
      for (let i = 0; ; i += 1) {
        try { loadMs = await page.evaluate((k) => window.bench.load(k), kind); break; } catch (e) {
          if (i >= 10) throw e;
          await new Promise((r) => setTimeout(r, 1000)); // pkg/ may be mid-rebuild
          await page.reload();
          await page.waitForFunction(() => window.benchReady === true);
        }
      }
    }
    /** CPU (ms) of the main thread and the renderer process while `fn` runs in the page. */
    const measure = async (fn, arg) => {
      await page.evaluate(() => { gc(); });
      const m0 = await metrics();
      const value = await page.evaluate(fn, arg);
      const m1 = await metrics();
      return { value, threadMs: (m1.thread - m0.thread) * 1000, processMs: (m1.process - m0.process) * 1000 };
    };
    return { context, page, measure, loadMs, close: () => context.close() };
  }

  try {
    // 5. Start-up: import → first request, a fresh browser each run (no module, HTTP or compiled-wasm
    //    cache; the renderer process is new), before anything heavy has run.
    out.startup = {};
    for (const kind of ["ours", "theirs"]) {
      const xs = [];
      for (let i = 0; i < runs + 1; i += 1) {
        const own = await launch({ args: [...CHROMIUM_ARGS] });
        const page = await own.newPage();
        await page.goto(`${site.origin}/bench/page.html`);
        await page.waitForFunction(() => window.benchReady === true);
        await new Promise((r) => setTimeout(r, 1000)); // let the fresh browser finish starting up
        xs.push(await page.evaluate((k) => window.bench.startup(k), kind));
        await own.close();
      }
      const rest = xs.slice(1);
      out.startup[kind] = { ms: median(rest.map((x) => x.ms)), importMs: median(rest.map((x) => x.importMs)), initMs: median(rest.map((x) => x.initMs)), firstMs: median(rest.map((x) => x.firstMs)), runs: xs };
      log(`browser startup ${kind}: ${out.startup[kind].ms.toFixed(1)} ms`);
    }

    // 1. CPU per poll round trip.
    out.polls = {};
    for (const [label, kind, intervalMs] of [["ours@0", "ours", 0], ["ours@10", "ours", 10], ["theirs", "theirs", 0], ["theirs@0*", "theirs", 0]]) {
      const p = await fresh(kind);
      if (label === "theirs@0*") await p.page.evaluate(() => window.bench.zeroTimers());
      await p.page.evaluate(([k, i]) => window.bench.prepare("polls", k, { intervalMs: i }), [kind, intervalMs]);
      await p.page.evaluate(() => window.bench.run(100));
      const rs = [];
      for (let i = 0; i < runs; i += 1) {
        const r = await p.measure(() => window.bench.run(300));
        rs.push({ usPerPoll: (r.threadMs * 1000) / r.value.polls });
      }
      // the bare floor of a DevTools round trip around an empty evaluate (subtracted nowhere; reported)
      const empty = await p.measure(() => 0);
      out.polls[label] = { usPerPoll: median(rs.map((r) => r.usPerPoll)), runs: rs, evaluateFloorMs: empty.threadMs };
      await p.close();
      log(`browser polls ${label}: ${out.polls[label].usPerPoll.toFixed(1)} µs/poll`);
    }

    {
      const p = await fresh(null);
      await p.page.evaluate(() => window.bench.floor(0));
      out.floor = {};
      for (const ms of [0, 10]) {
        const xs = [];
        for (let i = 0; i < runs; i += 1) xs.push(((await p.measure((m) => window.bench.floor(m), ms)).threadMs * 1000) / 300);
        out.floor[ms] = median(xs);
      }
      await p.close();
      log(`browser timer floor: ${out.floor[0].toFixed(1)} µs @0, ${out.floor[10].toFixed(1)} µs @10`);
    }

    // 2. Large result.
    out.big = {};
    for (const kind of ["ours", "theirs"]) {
      const p = await fresh(kind);
      const bytes = await p.page.evaluate((k) => window.bench.prepare("big", k, { bytes: 1000, big: false }), kind);
      await p.page.evaluate(() => window.bench.run());
      await p.page.evaluate(() => window.bench.run());
      const small = [];
      for (let i = 0; i < runs; i += 1) small.push((await p.measure(() => window.bench.run())).threadMs);
      const jsonBytes = await p.page.evaluate((k) => window.bench.prepare("big", k, {}), kind);
      await p.page.evaluate(() => window.bench.run());
      await p.page.evaluate(() => { window.bench.drop(); });
      const rs = [];
      for (let i = 0; i < runs; i += 1) {
        const m0 = await p.page.evaluate(() => window.bench.mem());
        const r = await p.measure(() => window.bench.run());
        const m1 = await p.page.evaluate(() => window.bench.mem());
        await p.page.evaluate(() => { window.bench.drop(); });
        const m2 = await p.page.evaluate(() => window.bench.mem());
        rs.push({ threadMs: r.threadMs, wallMs: r.value.wallMs, same: r.value.same, outcomeHolds: m1.heap - m2.heap, wasmGrowth: m1.wasm - m0.wasm });
      }
      const smallMs = median(small);
      out.big[kind] = {
        jsonBytes, smallBytes: bytes,
        cpuMs: Math.max(0, median(rs.map((r) => r.threadMs)) - smallMs),
        wholeWaitMs: median(rs.map((r) => r.threadMs)), smallWaitMs: smallMs,
        wallMs: median(rs.map((r) => r.wallMs)),
        outcomeHoldsBytes: median(rs.map((r) => r.outcomeHolds)),
        wasmGrowth: Math.max(...rs.map((r) => r.wasmGrowth)),
        same: rs.every((r) => r.same), runs: rs,
      };
      await p.close();
      log(`browser big ${kind}: ${out.big[kind].cpuMs.toFixed(2)} ms, same ${out.big[kind].same}`);
    }

    // 3. Many waits: a fresh page per repeat; the first (cold) run is sampled for memory, one warm run
    //    more for CPU. The two libraries take turns, repeat by repeat (the machine's speed drifts over a
    //    minute: measured one block after the other, their ratio swung from 0.29× to 0.46×).
    out.many = {};
    const repsOf = { ours: [], theirs: [] };
    for (let rep = 0; rep < manyRuns; rep += 1) {
      for (const kind of ["ours", "theirs"]) {
        const reps = repsOf[kind];
        const p = await fresh(kind);
        const m00 = await p.page.evaluate(() => window.bench.mem());
        const serverShareBytes = await p.page.evaluate((k) => window.bench.serverShareBytes(k), n);
        await p.page.evaluate((k) => window.bench.prepare("many", k, {}), kind);
        const base = await p.page.evaluate(() => window.bench.mem());
        const cold = await p.page.evaluate((k) => window.bench.run(k, true), n);
        if (cold.ok !== n) throw new Error(`browser ${kind}: ${cold.ok}/${n} resolved`);
        const after = await p.page.evaluate(() => window.bench.mem());
        const peak = cold.samples.reduce((a, b) => (b.heap + b.wasm > a.heap + a.wasm ? b : a));
        const warm = await p.measure((k) => window.bench.run(k, false), n);
        if (warm.value.ok !== n) throw new Error(`browser ${kind}: ${warm.value.ok}/${n} resolved`);
        reps.push({
          peakLabel: peak.label,
          bytesPerWait: (peak.heap + peak.wasm - base.heap - base.wasm - serverShareBytes) / n,
          heapPerWait: (peak.heap - base.heap) / n,
          wasmPerWait: (peak.wasm - base.wasm) / n,
          serverShareBytes,
          wasmInitial: m00.wasm, wasmBefore: base.wasm, wasmAfter: after.wasm,
          heapAfterEnd: after.heap - base.heap,
          cpuUsPerWait: (warm.threadMs * 1000) / n,
          processUsPerWait: (warm.processMs * 1000) / n,
        });
        await p.close();
      }
    }
    for (const kind of ["ours", "theirs"]) {
      const reps = repsOf[kind];
      const med = (k) => median(reps.map((r) => r[k]));
      out.many[kind] = {
        bytesPerWait: med("bytesPerWait"), heapPerWait: med("heapPerWait"), wasmPerWait: med("wasmPerWait"),
        serverShareBytes: med("serverShareBytes"), cpuUsPerWait: med("cpuUsPerWait"), processUsPerWait: med("processUsPerWait"),
        wasmGrowth: Math.max(...reps.map((r) => r.wasmAfter - r.wasmBefore)), wasmInitial: reps[0].wasmInitial,
        heapAfterEnd: med("heapAfterEnd"), reps,
      };
      log(`browser many ${kind}: ${out.many[kind].bytesPerWait.toFixed(0)} B/wait, ${out.many[kind].cpuUsPerWait.toFixed(1)} µs/wait`);
    }

    // 4. Requests per wait (both libraries at once, on their own pages).
    out.requests = {};
    const cases = requestCases();
    const pages = await Promise.all(["ours", "theirs"].map((k) => fresh(k)));
    const [ro, rt] = await Promise.all([
      pages[0].page.evaluate((c) => window.bench.requests("ours", c), cases),
      pages[1].page.evaluate((c) => window.bench.requests("theirs", c), cases),
    ]);
    out.requests = { ours: ro, theirs: rt };
    for (const p of pages) await p.close();
    log("browser requests done");

  } finally {
    await browser.close();
    await site.close();
  }
  out.problems = problems;
  return out;
}

/** The request-count cases: task length T, interval P, mode. */
export function requestCases() {
  return [
    { T: 1000, P: 100, mode: "poll" },
    { T: 550, P: 100, mode: "poll" },
    { T: 1000, P: 250, mode: "poll" },
    { T: 300, P: 20, mode: "poll" },
    { T: 1000, P: 100, mode: "listen" },
  ];
}
