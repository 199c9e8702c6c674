// The robustness matrix (tests/robust/cases.mjs) through the built package, each case in a process
// (Node: `node tests/robust/case.mjs <case>`) or a page (headless Chromium: tests/robust/page.html,
// served by the home server of tests/robust/server.mjs, one browser) of its own: first the ordinary
// cases, two at a time per environment, both environments at once; then the exclusive ones (memory,
// event-loop gaps, timer counts, the starved module) one at a time, nothing else running — a case
// marked `hog` with another process spinning on the CPU beside it. Prints one PASS/FAIL line per case
// and environment, then `robust: N passed, M failed`; exits non-zero on any failure.
//   node tests/robust/run.mjs                 both environments
//   node tests/robust/run.mjs --node          Node only        --chromium   Chromium only
//   node tests/robust/run.mjs --case=stdio    only the cases whose name contains "stdio"
//   node tests/robust/run.mjs --list          prints the cases and exits
// Env PKG_DIR picks another build output than pkg/ (e.g. a build without a fix, to see its case fail).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { caseList } from "./cases.mjs";
import { startServers } from "./server.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dir = process.env.PKG_DIR ?? "pkg";
const args = process.argv.slice(2);
const withNode = !args.includes("--chromium");
const withChromium = !args.includes("--node");
const filter = args.find((a) => a.startsWith("--case="))?.slice(7);
const PER_ENV = 2;

const chosen = caseList().filter((c) => !filter || c.name.includes(filter));
if (args.includes("--list")) {
  for (const c of chosen) console.log(`${c.name} (${c.envs.join(", ")}${c.exclusive ? ", exclusive" : ""})\n    ${c.what}`);
  process.exit(0);
}
/** The runs of `env`: each case it applies to, `repeat[env]` times (named `<case>#<n>`). */
const runsOf = (env) => chosen.filter((c) => c.envs.includes(env)).flatMap((c) => {
  const n = c.repeat?.[env] ?? 1;
  return Array.from({ length: n }, (_, i) => ({ ...c, run: n > 1 ? `${c.name}#${i + 1}` : c.name }));
});

const started = performance.now();
const servers = await startServers({ staticDir: root });
const within = (p, ms) => Promise.race([p, new Promise((r) => setTimeout(r, ms))]);

/** Another process spinning on the CPU while `work` runs (the machine's other load, made sure of). */
async function withHog(c, work) {
  if (!c.hog) return work();
  const hog = spawn(process.execPath, ["-e", "for (;;);"], { stdio: "ignore" });
  try {
    return await work();
  } finally {
    hog.kill("SIGKILL");
  }
}

// ---- Node: a process per case -----------------------------------------------------------------------
function runNode(c) {
  return new Promise((resolve) => {
    const env = { ...process.env, ROBUST_HOME: servers.home, ROBUST_OTHER: servers.other };
    const child = spawn(process.execPath, ["tests/robust/case.mjs", c.run], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    let killed = false;
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, c.budgetMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const last = err.split("\n").filter((l) => l.startsWith("progress: ")).pop()?.slice(10) ?? "none";
      const other = err.split("\n").filter((l) => l.trim() && !l.startsWith("progress: ")).slice(-3).join(" | ");
      if (killed) return resolve({ ok: false, ms: c.budgetMs, detail: `no result within ${c.budgetMs / 1000} s, killed (a frozen event loop or a hang); last progress: ${last}` });
      try {
        resolve(JSON.parse(out.trim().split("\n").reverse().find((l) => l.startsWith("{"))));
      } catch {
        resolve({ ok: false, ms: 0, detail: `exited ${code ?? signal} without a result; stderr: ${other || "empty"}` });
      }
    });
  });
}

// ---- Chromium: a page per case ----------------------------------------------------------------------
async function chromiumRunner() {
  const { launch } = await import("../browser/chromium.mjs");
  const browser = await launch();
  const control = await browser.newBrowserCDPSession();
  const runOne = async (c) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = [];
    let last = "none";
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    page.on("crash", () => problems.push("the page crashed"));
    page.on("console", (m) => {
      if (m.text().startsWith("progress: ")) last = m.text().slice(10);
    });
    try {
      const session = await context.newCDPSession(page);
      const { targetInfo } = await session.send("Target.getTargetInfo");
      await session.detach();
      const url = `${servers.home}/tests/robust/page.html?case=${encodeURIComponent(c.run)}&other=${encodeURIComponent(servers.other)}&pkg=${encodeURIComponent(dir)}`;
      await page.goto(url, { waitUntil: "commit", timeout: 10_000 });
      const done = page.waitForFunction(() => window.__robust, null, { timeout: c.budgetMs, polling: 50 }).then(() => true, () => false);
      if (!(await within(done, c.budgetMs + 1000))) {
        await within(control.send("Target.closeTarget", { targetId: targetInfo.targetId }).catch(() => {}), 3000);
        return { ok: false, ms: c.budgetMs, detail: `no result within ${c.budgetMs / 1000} s (a frozen page or a hang); last progress: ${last}${problems.length ? `; ${problems.join(" | ")}` : ""}` };
      }
      const r = await page.evaluate(() => window.__robust);
      return problems.length ? { ok: false, ms: r.ms, detail: `${r.detail}; ${problems.join(" | ")}` } : r;
    } finally {
      await within(context.close().catch(() => {}), 5000);
    }
  };
  return { runOne, close: () => within(browser.close(), 5000) };
}

/** Runs `list` through `runOne`, `width` at a time, into `results` (run name → result). */
async function pool(list, runOne, results, width) {
  const queue = [...list];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const t0 = performance.now();
      let r;
      try {
        r = await withHog(c, () => runOne(c));
      } catch (e) {
        r = { ok: false, ms: 0, detail: `runner: ${e?.stack ?? e}` };
      }
      r.wallMs = Math.round(performance.now() - t0);
      results.set(c.run, r);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
}

const results = { node: new Map(), chromium: new Map() };
const setupErrors = [];
let chromium;
if (withChromium) {
  try {
    chromium = await chromiumRunner();
  } catch (e) {
    setupErrors.push(`FAIL chromium setup: ${e?.stack ?? e}`);
  }
}
const nodeRuns = withNode ? runsOf("node") : [];
const pageRuns = chromium ? runsOf("chromium") : [];
await Promise.all([
  pool(nodeRuns.filter((c) => !c.exclusive), runNode, results.node, PER_ENV),
  chromium && pool(pageRuns.filter((c) => !c.exclusive), chromium.runOne, results.chromium, PER_ENV),
]);
await pool(nodeRuns.filter((c) => c.exclusive), runNode, results.node, 1);
if (chromium) {
  await pool(pageRuns.filter((c) => c.exclusive), chromium.runOne, results.chromium, 1);
  await chromium.close();
}
await servers.close();

let passed = 0;
let failed = setupErrors.length;
for (const e of setupErrors) console.log(e);
for (const [env, runs] of [["node", nodeRuns], ["chromium", pageRuns]]) {
  for (const c of runs) {
    const r = results[env].get(c.run) ?? { ok: false, ms: 0, detail: "no result" };
    if (r.ok) passed += 1;
    else failed += 1;
    console.log(`${r.ok ? "PASS" : "FAIL"} ${env} ${c.run} (${r.ms} ms, ${r.wallMs ?? 0} ms wall): ${r.detail}`);
  }
}
console.log(`run time ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`robust: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
