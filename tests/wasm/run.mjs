// The wasm-bindgen tests in Node and in headless Chromium: each test binary twice, through
// wasm-bindgen-test-runner (installed with the pinned wasm-bindgen CLI by scripts/setup.sh).
// - src/tests/wasm_driver.rs: the async Rust shell against a scripted client (no server).
// - tests/rust_clients.rs: the Rust API's DirectClient, PortClient, JsClient and journal against a small
//   task server written in Rust (no server process).
// - tests/rust_api.rs: the public Rust API against real HTTP servers. This runner starts them first —
//   the project's test server (tests/server, in this process, 20 ms polls), rmcp 3.11.0 and
//   fastmcp-tasks 4.1.4 (tests/interop/servers.mjs, built when missing or stale) — and hands their URLs
//   to the test build as MCP_TEST_URL, MCP_RMCP_URL and MCP_FASTMCP_URL (read with `option_env!`, so
//   the test crate is recompiled when they change; a test whose URL is missing fails). Every server is
//   stopped at the end, whatever happens (the real ones by PID, also on a signal).
//
// The browser: the runner serves its test page (its interactive mode, NO_HEADLESS) and Chromium loads it
// through playwright-core, as every other browser test here does (tests/browser/chromium.mjs), from a
// small proxy in this process that passes each request on to the runner on a connection of its own
// (closingProxy). The verdict is the harness's own "test result:" line in the page's #output, printed
// here with the page's console.
// Why: the runner's server (rouille on tiny_http 0.12) serves each connection on a task of tiny_http's
// TaskPool for as long as the connection stays open, and the pool can leave a connection's task queued
// with no thread to run it — `spawn` queues the task when it counts a waiting thread, but a thread
// already woken for the previous task still counts as waiting until it runs, so two connections opened
// together (a browser loading a module graph opens several) can leave the second queued until some
// other connection closes, which a browser's keep-alive connection does not do for minutes. The page
// then stops loading half-way through its module graph ("Loading scripts…", no load event). Under
// chromedriver (the runner's headless mode, used here before) about one run in three stalled so (a
// clean-clone CI machine once had seven in a row; wasm-pack issue 783 reports the same page); loaded by
// Playwright on keep-alive connections, 3 fresh runners of 3 stalled, 1 of 8 in another series.
// Measured with a connection per request: no stall in 58 fresh runners (8, then 25 × 2 test binaries).
// Usage: node tests/wasm/run.mjs [wasm_driver] [rust_clients] [rust_api]   (default: all)
import { spawn } from "node:child_process";
import { createServer, request } from "node:http";
import { fileURLToPath } from "node:url";
import { launch } from "../browser/chromium.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const base = { ...process.env, CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER: "wasm-bindgen-test-runner" };
const tests = ["wasm_driver", "rust_clients", "rust_api", "rust_generations"];
const only = process.argv.slice(2);
for (const t of only) if (!tests.includes(t)) throw new Error(`unknown test ${t} (known: ${tests.join(", ")})`);

// Bounds on what is not the library: a page (or a Node run) that has not printed `running N tests`
// within START_BOUND_MS is cut off and run again, at most RETRIES times, saying so (kept from the
// chromedriver days as a guard; a normal start takes about a second); a run is cut off after RUN_BOUND_MS
// whatever it prints (a run that hangs after it started is a failure, not retried).
const START_BOUND_MS = 30_000;
const RUN_BOUND_MS = 120_000;
const RETRIES = 2;
const STARTED = /^running \d+ tests?$/m;
const VERDICT = /^test result: (ok|FAILED)\b/m;

/** Runs cargo asynchronously (the test server lives in this process: its event loop must keep running). */
function cargo(args, env) {
  return new Promise((resolve) => {
    const child = spawn("cargo", args, { cwd: root, stdio: "inherit", env });
    child.on("error", () => resolve(1));
    child.on("exit", (code, signal) => resolve(signal ? 1 : code));
  });
}

/** Starts cargo in a process group of its own (the runner goes down with it), echoing its output;
 * `child.ended` resolves to its exit code, `child.done` says whether it has ended. */
function start(args, env) {
  const child = spawn("cargo", args, { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.out = "";
  child.done = false;
  child.stdout.on("data", (d) => (process.stdout.write(d), (child.out += d)));
  child.stderr.on("data", (d) => process.stderr.write(d));
  child.ended = new Promise((resolve) => {
    child.on("error", () => resolve(1));
    child.on("close", (code) => resolve(code));
  }).then((code) => ((child.done = true), code));
  child.stop = () => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  };
  return child;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read()` (a run's output so far) until it matches `pattern`, `child` (when given) has ended
 * or `ms` pass; whether it matched. */
async function until(read, pattern, ms, child) {
  const deadline = Date.now() + ms;
  while (!pattern.test(await read()) && !child?.done && Date.now() < deadline) await sleep(100);
  return pattern.test(await read());
}

/** One bounded run in Node: "ok", "failed" or "not started". */
async function runInNode(args, env) {
  const child = start(args, env);
  try {
    if (!(await until(() => child.out, STARTED, START_BOUND_MS, child))) return child.done ? "failed" : "not started";
    const code = await Promise.race([child.ended, sleep(RUN_BOUND_MS).then(() => "cut off")]);
    if (code === "cut off") console.log(`--- cut off after ${RUN_BOUND_MS / 1000} s`);
    return code === 0 ? "ok" : "failed";
  } finally {
    child.stop();
  }
}

/** A server on a free loopback port that passes each request on to `target` on a connection of its own,
 *  closed after the answer (the page's own connections, kept alive, end here). Resolves to the server
 *  once it listens. */
function closingProxy(target) {
  const server = createServer((req, res) => {
    const headers = { ...req.headers, host: new URL(target).host, connection: "close" };
    const up = request(new URL(req.url, target), { method: req.method, headers, agent: false }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    up.on("error", (e) => {
      console.log(`[proxy] ${req.url}: ${e.message}`);
      res.destroy();
    });
    req.pipe(up);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** One bounded run in Chromium: the runner serves the page, Playwright's Chromium runs it. */
async function runInChromium(args, env) {
  const runner = start(args, { ...env, WASM_BINDGEN_USE_BROWSER: "1", NO_HEADLESS: "1", WASM_BINDGEN_TEST_ADDRESS: "127.0.0.1:0" });
  let browser;
  let proxy;
  try {
    if (!(await until(() => runner.out, /available at http:/, START_BOUND_MS, runner))) {
      console.log("--- the runner did not serve the test page");
      return "failed";
    }
    const served = /available at (http:\/\/\S+)/.exec(runner.out)[1];
    proxy = await closingProxy(served);
    browser = await launch();
    const page = await browser.newPage();
    page.on("console", (m) => console.log(`[page ${m.type()}] ${m.text()}`));
    page.on("pageerror", (e) => console.log(`[page error] ${e?.stack ?? e}`));
    page.goto(`http://127.0.0.1:${proxy.address().port}/`).catch((e) => console.log(`[page goto] ${e.message}`));
    const output = () => page.locator("#output").textContent({ timeout: 1000 }).catch(() => "");
    const begun = await until(output, STARTED, START_BOUND_MS);
    const ended = begun && (await until(output, VERDICT, RUN_BOUND_MS));
    const text = await output();
    console.log(text);
    if (!begun) return "not started";
    if (!ended) console.log(`--- cut off after ${RUN_BOUND_MS / 1000} s`);
    return VERDICT.exec(text)?.[1] === "ok" ? "ok" : "failed";
  } finally {
    await browser?.close().catch(() => {});
    proxy?.closeAllConnections();
    proxy?.close();
    runner.stop();
  }
}

/** Runs the test binary `test` in Node and in Chromium with `env` added; the number of failed modes. */
async function runModes(test, env = {}) {
  let failed = 0;
  // The shell's driver tests are inside the crate (src/tests/wasm_driver.rs: its internals stay
  // private), the Rust API's are outside it, as users build them.
  const which = test === "wasm_driver" ? ["--lib"] : ["--test", test];
  const args = ["test", "--target", "wasm32-unknown-unknown", "--features", "npm,journal", ...which];
  for (const [name, run] of [["node", runInNode], ["chromium", runInChromium]]) {
    console.log(`--- ${test} in ${name}`);
    const t0 = Date.now();
    const runEnv = { ...base, ...env };
    // Built first, unbounded (a cold build takes minutes); then run within the bounds above.
    let status = (await cargo([...args, "--no-run"], runEnv)) === 0 ? "not started" : "failed";
    for (let attempt = 0; status === "not started"; attempt++) {
      if (attempt > 0) console.log(`--- ${test} in ${name}: no test started within ${START_BOUND_MS / 1000} s${attempt > RETRIES ? "" : `; retry ${attempt} of ${RETRIES}`}`);
      status = attempt > RETRIES ? "failed" : await run(args, runEnv);
    }
    console.log(`--- ${test} in ${name}: ${status === "ok" ? "ok" : "FAILED"} (${((Date.now() - t0) / 1000).toFixed(1)} s incl. build)`);
    if (status !== "ok") failed++;
  }
  return failed;
}

let failed = 0;
for (const test of ["wasm_driver", "rust_clients"]) if (!only.length || only.includes(test)) failed += await runModes(test);

if (!only.length || only.includes("rust_api")) {
  const { prepare, startServers, stopAll } = await import("../interop/servers.mjs");
  const { startHttpServer } = await import("../server/http.mjs");
  let testServer;
  let real = [];
  try {
    prepare();
    testServer = await startHttpServer({ pollIntervalMs: 20 });
    real = await startServers();
    const url = (name) => real.find((s) => s.name === name)?.url ?? "";
    const env = { MCP_TEST_URL: testServer.url, MCP_RMCP_URL: url("rmcp"), MCP_FASTMCP_URL: url("fastmcp") };
    for (const [k, v] of Object.entries(env)) console.log(`${k}=${v}`);
    failed += await runModes("rust_api", env);
  } catch (e) {
    failed++;
    console.log(`FAIL rust_api setup: ${e?.stack ?? e}`);
  } finally {
    await testServer?.close();
    await Promise.all(real.map((s) => s.stop()));
    stopAll();
  }
}
if (!only.length || only.includes("rust_generations")) {
  // The Rust API on an MCP 2025-11-25 server (@modelcontextprotocol/sdk 1.32.2, tests/servers/sdk).
  const { startSdkServer } = await import("../servers/sdk/launch.mjs");
  let sdk;
  try {
    sdk = await startSdkServer({ pollMs: 100 });
    console.log(`MCP_SDK_URL=${sdk.url}`);
    failed += await runModes("rust_generations", { MCP_SDK_URL: sdk.url });
  } catch (e) {
    failed++;
    console.log(`FAIL rust_generations setup: ${e?.stack ?? e}`);
  } finally {
    await sdk?.stop();
  }
}
process.exit(failed ? 1 : 0);
