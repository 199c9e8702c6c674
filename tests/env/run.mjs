// One package, every environment: packs the package (`npm pack`), checks the tarball's file list,
// installs it into a scratch app the way a user gets it, then proves it in Node (ESM, no init), with
// `tsc --strict` against the installed declarations, in a Vite app, a plain module page, a dedicated
// worker and a Manifest V3 extension service worker (all in headless Chromium).
import { execFileSync, execFile } from "node:child_process";
import { promisify } from "node:util";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startHttpServer } from "../server/http.mjs";
import { CHROMIUM_ARGS, executablePath, launch } from "../browser/chromium.mjs";
import { EXPECTED } from "./fixtures/check.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const here = fileURLToPath(new URL(".", import.meta.url));
const work = join(here, ".work");
const app = join(work, "app");
const bin = (name) => join(root, "node_modules/.bin", name);
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });

const PACKED = [
  "LICENSE", "README.md", "package.json",
  "pkg/index.d.ts", "pkg/index.js", "pkg/mcp_tasks_wasm.d.ts", "pkg/mcp_tasks_wasm.js", "pkg/mcp_tasks_wasm_bg.wasm",
  "pkg/node.d.ts", "pkg/node.js", "pkg/adapters.js", "pkg/load.js", "pkg/channel.js", "pkg/direct.js", "pkg/values.js", "pkg/errors.js", "pkg/generation.js", "pkg/http.js", "pkg/port.js", "pkg/result.js", "pkg/sdk.js", "pkg/stdio.d.ts", "pkg/stdio.js",
  "pkg/journal/index.d.ts", "pkg/journal/index.js", "pkg/journal/mcp_tasks_wasm_journal.d.ts", "pkg/journal/mcp_tasks_wasm_journal.js",
  "pkg/journal/mcp_tasks_wasm_journal_bg.wasm", "pkg/journal/node.d.ts", "pkg/journal/node.js", "pkg/journal/stores.js",
  // The snippets each glue imports (wasm-bindgen names their directory with a hash of the crate).
  ...["pkg/snippets", "pkg/journal/snippets"].flatMap((dir) => filesUnder(join(root, dir)).map((f) => `${dir}/${f}`)),
];

/** The files under `dir`, as paths relative to it. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath ?? d.path, d.name)));
}

let failed = 0;
function report(name, ok, detail = "") {
  if (!ok) failed += 1;
  console.log(`${ok ? "ok  " : "FAIL"} env: ${name}${detail ? ` — ${detail}` : ""}`);
}
const matches = (r, withHttp = true) =>
  r && r.extension === EXPECTED.extension && r.direct === EXPECTED.direct && (!withHttp || r.http === EXPECTED.http);

rmSync(work, { recursive: true, force: true });
mkdirSync(app, { recursive: true });

// 1. npm pack: exactly what users need.
const [packed] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work], root));
const files = packed.files.map((f) => f.path).sort();
report("npm pack contains only what users need", JSON.stringify(files) === JSON.stringify([...PACKED].sort()), files.join(", "));
console.log(`     tarball ${packed.filename}: ${(packed.size / 1024).toFixed(1)} KB packed, ${(packed.unpackedSize / 1024).toFixed(1)} KB unpacked`);

// 2. Install it into a scratch app.
writeFileSync(join(app, "package.json"), JSON.stringify({ name: "env-app", private: true, type: "module" }));
run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", join(work, packed.filename)], app);
for (const f of ["check.js", "node-check.mjs", "plain.html", "worker.html", "worker.js"]) cpSync(join(here, "fixtures", f), join(app, f));
cpSync(join(here, "fixtures/vite"), join(app, "vite"), { recursive: true });
cpSync(join(here, "fixtures/vite-ts"), join(app, "vite-ts"), { recursive: true });

const server = await startHttpServer({ staticDir: app, pollIntervalMs: 20 });
let browser;
try {
  // 3. Node >= 20: ESM import, no init call.
  // Async: the test server answers from this process while the child runs.
  const { stdout } = await promisify(execFile)("node", ["node-check.mjs", server.url], { cwd: app });
  const nodeOut = JSON.parse(stdout);
  report("Node ESM import, no init", matches(nodeOut), JSON.stringify(nodeOut));

  // 4. Types of the installed package, strict.
  cpSync(join(root, "tests/types/usage.ts"), join(app, "usage.ts"));
  cpSync(join(root, "tests/types/no-any.ts"), join(app, "no-any.ts"));
  cpSync(join(root, "tests/types/journal.ts"), join(app, "journal.ts"));
  cpSync(join(root, "tests/types/expected.ts"), join(app, "expected.ts"));
  writeFileSync(join(app, "tsconfig.json"), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", lib: ["es2022", "dom"], types: [], noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true },
    files: ["usage.ts", "no-any.ts", "journal.ts", "expected.ts"],
  }));
  try {
    run("node", [join(root, "node_modules/typescript/bin/tsc"), "-p", app], app);
    report("tsc --strict against the installed .d.ts (no any)", true);
  } catch (e) {
    report("tsc --strict against the installed .d.ts (no any)", false, String(e.stdout ?? e));
  }

  // 4b. Every README example (JS and TS) type-checks against the installed package under the flags of a
  // strict app (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes; JS with checkJs), as
  // tests/node/readme.test.mjs checks them against the build.
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```(js|ts)\n([\s\S]*?)```/g)].map((m, i) => ({ lang: m[1], code: m[2], n: i + 1 }));
  const examples = join(app, "readme");
  mkdirSync(examples, { recursive: true });
  const files = blocks.map((b) => {
    const file = join(examples, `block-${b.n}.${b.lang === "ts" ? "ts" : "mjs"}`);
    writeFileSync(file, b.lang === "ts" ? `${b.code}\nexport {};\n` : `// @ts-check\n${b.code}`);
    return file;
  });
  try {
    for (const file of files) {
      run("node", [join(root, "node_modules/typescript/bin/tsc"), "--noEmit", "--strict", "--noUncheckedIndexedAccess", "--exactOptionalPropertyTypes",
        "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--lib", "es2022,dom", "--allowJs", "--checkJs",
        "--typeRoots", join(root, "node_modules/@types"), "--types", "node", "--ignoreConfig", file], examples);
    }
    report(`every README example (${files.length}) type-checks against the installed package under strict flags`, true);
  } catch (e) {
    report("every README example type-checks against the installed package under strict flags", false, String(e.stdout ?? e));
  }

  // 5. Vite app: build, then load the built page.
  run(bin("vite"), ["build", "--logLevel", "warn", "--base", "./", "--outDir", "dist", "--emptyOutDir"], join(app, "vite"));
  const built = readdirSync(join(app, "vite/dist/assets"));
  report("vite build emits the wasm as an asset", built.some((f) => f.endsWith(".wasm")), built.join(", "));

  browser = await launch();
  const page = async (path) => {
    const p = await browser.newPage();
    const errors = [];
    p.on("pageerror", (e) => errors.push(e.message));
    await p.goto(`${server.origin}${path}`);
    const r = await p.waitForFunction(() => window.__result, null, { timeout: 30_000 }).then((h) => h.jsonValue()).catch((e) => ({ error: String(e) }));
    await p.close();
    return { ...r, ...(errors.length ? { pageErrors: errors } : {}) };
  };
  const viteOut = await page("/vite/dist/index.html");
  report("Vite app (vite build, built page in Chromium)", matches(viteOut), JSON.stringify(viteOut));

  // 5b. A Vite app in strict TypeScript: tsc with strict, noUncheckedIndexedAccess and
  // exactOptionalPropertyTypes against the installed .d.ts, `vite build` with no configuration, the page
  // in Chromium; prints where the .wasm lands and what the built app weighs.
  const viteTs = join(app, "vite-ts");
  try {
    run("node", [join(root, "node_modules/typescript/bin/tsc"), "-p", viteTs], viteTs);
    report("Vite app in strict TypeScript: tsc (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes)", true);
  } catch (e) {
    report("Vite app in strict TypeScript: tsc (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes)", false, String(e.stdout ?? e));
  }
  run(bin("vite"), ["build", "--logLevel", "warn", "--base", "./", "--outDir", "dist", "--emptyOutDir"], viteTs);
  const assets = readdirSync(join(viteTs, "dist/assets")).map((f) => `${f} ${(statSync(join(viteTs, "dist/assets", f)).size / 1024).toFixed(1)} KB`);
  console.log(`     vite build (no config): dist/assets/ ${assets.join(", ")}`);
  const tsOut = await page("/vite-ts/dist/index.html");
  const tsOk = /^mcp-tasks-wasm: callTool\(\) called before init\(\)/.test(tsOut.early ?? "") && tsOut.slow === "slept 100 ms" &&
    tsOut.asked === "hello, Vite" && tsOut.cancelled === "cancelled cancelled";
  report("Vite app in strict TypeScript (built page in Chromium: a call before init() rejects, plain handler result, resultText, cancelSignal)", tsOk, JSON.stringify(tsOut));
  const plainOut = await page("/plain.html");
  report("plain <script type=module> page, no bundler", matches(plainOut), JSON.stringify(plainOut));
  const workerOut = await page("/worker.html");
  report("dedicated Web Worker", matches(workerOut), JSON.stringify(workerOut));
  await browser.close();
  browser = undefined;

  // 6. Manifest V3 extension service worker, loaded unpacked.
  const ext = join(app, "ext");
  cpSync(join(here, "fixtures/ext"), ext, { recursive: true });
  cpSync(join(app, "node_modules/mcp-tasks-wasm/pkg"), join(ext, "lib"), { recursive: true });
  cpSync(join(app, "check.js"), join(ext, "check.js"));
  cpSync(join(here, "../server"), join(ext, "server"), { recursive: true, filter: (f) => !f.endsWith(".test.mjs") });
  const profile = mkdtempSync(join(tmpdir(), "mcp-tasks-ext-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    ignoreDefaultArgs: ["--disable-extensions"],
    args: [...CHROMIUM_ARGS, "--headless=new", `--disable-extensions-except=${ext}`, `--load-extension=${ext}`],
  });
  try {
    const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker", { timeout: 20_000 }));
    const swOut = await sw.evaluate((url) => self.runCheck(url), server.url).catch((e) => ({ error: String(e) }));
    report("Manifest V3 extension service worker (initSync from bytes)", matches(swOut), JSON.stringify(swOut));
    // An extension page ↔ its service worker over a runtime.connect port (portClient).
    const page = await context.newPage();
    await page.goto(sw.url().replace(/[^/]*$/, "port.html"));
    await page.waitForFunction(() => window.__port, null, { timeout: 20_000 });
    const portOut = await page.evaluate(() => window.__port);
    const portOk = portOut.polled === "slept 60 ms" && portOut.listened === "ok" && portOut.getsWhileListening === 1;
    report("extension page ↔ service worker over a runtime.connect port (portClient, listen)", portOk, JSON.stringify(portOut));

    // The journal across a service-worker restart: start a task journaled in chrome.storage.local,
    // stop the worker through the DevTools protocol mid-task, wake it with a message, resume.
    const log = async () => (await fetch(`${server.origin}/_test/log`)).json();
    await fetch(`${server.origin}/_test/reset`, { method: "POST" });
    const started = await sw.evaluate(([url]) => self.startJournaled(url, 2500), [server.url]);
    const wake = await context.newPage();
    await wake.goto(sw.url().replace(/[^/]*$/, "wake.html"));
    const cdp = await context.newCDPSession(wake);
    const stopped = new Promise((resolve) => cdp.on("ServiceWorker.workerVersionUpdated", (e) => {
      if (e.versions.some((v) => v.runningStatus === "stopped")) resolve(true);
    }));
    await cdp.send("ServiceWorker.enable");
    await cdp.send("ServiceWorker.stopAllWorkers");
    const wasStopped = await Promise.race([stopped, new Promise((r) => setTimeout(() => r(false), 5000))]);
    const stored = await wake.evaluate(() => chrome.storage.local.get(null));
    const journaled = Object.keys(stored).filter((k) => k.startsWith("mcp-tasks-wasm:")).length;
    const answer = await wake.evaluate((url) => chrome.runtime.sendMessage({ resume: url }), server.url);
    const outcome = answer?.results?.[0]?.outcome;
    const lastOutcome = (await wake.evaluate(() => chrome.storage.local.get("lastOutcome"))).lastOutcome;
    const left = Object.keys(await wake.evaluate(() => chrome.storage.local.get(null))).filter((k) => k.startsWith("mcp-tasks-wasm:")).length;
    const calls = (await log()).filter((e) => e.method === "tools/call").length;
    const swOk = typeof started.taskId === "string" && wasStopped && journaled === 1 && answer?.results?.length === 1 &&
      answer.results[0].taskId === started.taskId && outcome?.tag === "ok" && outcome.result.content[0].text === "slept 2500 ms" &&
      lastOutcome?.tag === "ok" && left === 0 && calls === 1;
    report("MV3 service worker stopped mid-task (CDP), woken by a message, resumes from extensionStorageJournal",
      swOk, JSON.stringify({ started, wasStopped, journaled, outcome: outcome?.tag, text: outcome?.result?.content?.[0]?.text, lastOutcome: lastOutcome?.tag, left, calls }));
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
} catch (e) {
  report("environment run", false, e?.stack ?? String(e));
} finally {
  await browser?.close();
  await server.close();
}
console.log(failed ? `env: ${failed} failure(s)` : "env: all passed");
process.exit(failed ? 1 : 0);
