// The fault matrix (tests/faults/matrix.mjs) through the built package, in Node (pkg/node.js) and in
// headless Chromium from tests/faults/page.html (served from the repo root; it loads /pkg/index.js,
// awaits init() and runs the same module). Both environments run at the same time (the cells are
// timer-bound, not CPU-bound), so the whole run stays under 60 s; the Node lines are printed first,
// then the Chromium lines, then `faults: N passed, M failed`. Exits non-zero on any failure.
//   node tests/faults/run.mjs              both environments, passes solo + parallel
//   node tests/faults/run.mjs --node       Node only        --chromium   Chromium only
//   node tests/faults/run.mjs --passes=solo                 one pass only
//   node tests/faults/run.mjs --table      prints the outcome table (markdown) and exits
import { fileURLToPath } from "node:url";
import { runFaults, outcomeTable } from "./matrix.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dir = process.env.PKG_DIR ?? "pkg";
const args = process.argv.slice(2);
const passes = (args.find((a) => a.startsWith("--passes="))?.slice(9) ?? "solo,parallel").split(",");
const withNode = !args.includes("--chromium");
const withChromium = !args.includes("--node");

if (args.includes("--table")) {
  console.log(outcomeTable());
  process.exit(0);
}

const started = performance.now();

/** Starts Chromium on the page; resolves once the page is loaded, with `done` = the page's result. */
async function startChromium() {
  const { startHttpServer } = await import("../server/http.mjs");
  const { launch } = await import("../browser/chromium.mjs");
  const site = await startHttpServer({ staticDir: root });
  let browser;
  try {
    browser = await launch();
    const page = await browser.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(`${site.origin}/tests/faults/page.html?passes=${passes.join(",")}`);
    const done = (async () => {
      try {
        await page.waitForFunction(() => window.__faults, null, { timeout: 120_000, polling: 250 });
        return { ...(await page.evaluate(() => window.__faults)), problems };
      } finally {
        await browser.close();
        await site.close();
      }
    })();
    return { done };
  } catch (e) {
    await browser?.close();
    await site.close();
    throw e;
  }
}

async function runNode() {
  const uncaught = [];
  const onError = (kind) => (e) => uncaught.push(`${kind}: ${e?.stack ?? e}`);
  const onException = onError("uncaughtException");
  const onRejection = onError("unhandledRejection");
  process.on("uncaughtException", onException);
  process.on("unhandledRejection", onRejection);
  const lines = [];
  try {
    const lib = await import(new URL(`../../${dir}/node.js`, import.meta.url).href);
    const r = await runFaults(lib, { log: (l) => lines.push(`node ${l}`), uncaught, passes });
    await new Promise((res) => setTimeout(res, 50)); // late uncaught ones still count
    if (uncaught.length > r.uncaughtSeen) {
      r.failed += 1;
      lines.push(`FAIL node: uncaught after the last cell: ${uncaught.slice(r.uncaughtSeen).join("; ")}`);
    }
    return { ...r, lines };
  } finally {
    process.off("uncaughtException", onException);
    process.off("unhandledRejection", onRejection);
  }
}

let passed = 0;
let failed = 0;
const summary = [];
let chromium;
if (withChromium) {
  try {
    chromium = await startChromium();
  } catch (e) {
    failed += 1;
    console.log(`FAIL chromium setup: ${e?.stack ?? e}`);
  }
}
if (withNode) {
  try {
    const r = await runNode();
    for (const l of r.lines) console.log(l);
    passed += r.passed;
    failed += r.failed;
    summary.push(`node: ${r.passed} passed, ${r.failed} failed in ${(r.ms / 1000).toFixed(1)} s`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL node setup: ${e?.stack ?? e}`);
  }
}
if (chromium) {
  try {
    const r = await chromium.done;
    for (const l of r.lines) console.log(`chromium ${l}`);
    passed += r.passed;
    failed += r.failed;
    summary.push(`chromium: ${r.passed} passed, ${r.failed} failed in ${(r.ms / 1000).toFixed(1)} s`);
    // Uncaught errors inside a cell fail that cell (the page records them); these are extra.
    for (const p of r.problems) console.log(`chromium ${p}`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL chromium: ${e?.stack ?? e}`);
  }
}
for (const s of summary) console.log(s);
console.log(`run time ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`faults: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
