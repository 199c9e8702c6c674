// The wasm-bindgen tests in Node and in headless Chromium: each test binary twice, through
// wasm-bindgen-test-runner (installed with the pinned wasm-bindgen CLI by scripts/setup.sh), the browser
// through Debian's chromedriver.
// - tests/wasm_driver.rs: the async Rust shell against a scripted client (no server).
// - tests/rust_clients.rs: the Rust API's DirectClient, PortClient, JsClient and journal against a small
//   task server written in Rust (no server process).
// - tests/rust_api.rs: the public Rust API against real HTTP servers. This runner starts them first —
//   the project's test server (tests/server, in this process, 20 ms polls), rmcp 3.11.0 and
//   fastmcp-tasks 4.1.4 (tests/interop/servers.mjs, built when missing or stale) — and hands their URLs
//   to the test build as MCP_TEST_URL, MCP_RMCP_URL and MCP_FASTMCP_URL (read with `option_env!`, so
//   the test crate is recompiled when they change; a test whose URL is missing fails). Every server is
//   stopped at the end, whatever happens (the real ones by PID, also on a signal).
// Usage: node tests/wasm/run.mjs [wasm_driver] [rust_clients] [rust_api]   (default: all)
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const base = { ...process.env, CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER: "wasm-bindgen-test-runner" };
const modes = [
  ["node", {}],
  ["chromium", {
    WASM_BINDGEN_USE_BROWSER: "1",
    CHROMEDRIVER: "/usr/bin/chromedriver",
    WASM_BINDGEN_TEST_WEBDRIVER_JSON: fileURLToPath(new URL("webdriver.json", import.meta.url)),
  }],
];
const tests = ["wasm_driver", "rust_clients", "rust_api"];
const only = process.argv.slice(2);
for (const t of only) if (!tests.includes(t)) throw new Error(`unknown test ${t} (known: ${tests.join(", ")})`);

/** Runs cargo asynchronously (the test server lives in this process: its event loop must keep running). */
function cargo(args, env) {
  return new Promise((resolve) => {
    const child = spawn("cargo", args, { cwd: root, stdio: "inherit", env });
    child.on("error", () => resolve(1));
    child.on("exit", (code, signal) => resolve(signal ? 1 : code));
  });
}

// A browser run whose page never finishes loading. Often (here about one browser run in three, on a
// cold CI machine one in two) Chromium under chromedriver stops loading the runner's page half-way
// through its module graph: run.js, the glue and some snippets have arrived, the rest are never
// requested or never answered (the runner's server still answers new connections at once), the page
// stays at "Loading scripts…", no load event comes, and chromedriver's Navigate waits out its 300 s
// page-load timeout — the runner's own test timeout starts only after the load. The same pages served
// by the project's server to Playwright's Chromium (tests/hostile, hundreds of loads a run) never stall.
// Tried without effect: anti-throttling flags, `--headless=new`, `pageLoadStrategy: "none"` (the page
// stays stalled until the runner's timeout), a DevTools client attaching to the page. Nothing of this
// library runs then (the harness has not printed `running N tests`). Such an attempt is cut off after
// START_BOUND_MS (a normal run prints that line within seconds) and run again, at most RETRIES times,
// saying so; every attempt is cut off after RUN_BOUND_MS whatever it prints (a run that hangs after it
// started is a failure, not retried).
const START_BOUND_MS = 20_000;
const RUN_BOUND_MS = 240_000;
const RETRIES = 6;
const STARTED = /^running \d+ tests?$/m;

/** One bounded run of a built test binary: "ok", "failed" or "not started" (cut off before it began). */
function boundedRun(args, env) {
  return new Promise((resolve) => {
    // A process group of its own: the runner, chromedriver and the browser go down with it.
    const child = spawn("cargo", args, { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let cut = null;
    child.stdout.on("data", (d) => (process.stdout.write(d), (out += d)));
    child.stderr.on("data", (d) => process.stderr.write(d));
    const kill = (why) => {
      if (cut) return;
      cut = why;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    };
    const startTimer = setTimeout(() => STARTED.test(out) || kill("not started"), START_BOUND_MS);
    const runTimer = setTimeout(() => kill("cut off"), RUN_BOUND_MS);
    const done = (code) => {
      clearTimeout(startTimer);
      clearTimeout(runTimer);
      if (cut === "not started") return resolve("not started");
      if (cut) console.log(`--- cut off after ${RUN_BOUND_MS / 1000} s`);
      resolve(!cut && code === 0 ? "ok" : "failed");
    };
    child.on("error", () => done(1));
    child.on("close", (code) => done(code));
  });
}

/** Runs the test binary `test` in both modes with `env` added; the number of failed modes. */
async function runModes(test, env = {}) {
  let failed = 0;
  const args = ["test", "--target", "wasm32-unknown-unknown", "--features", "journal", "--test", test];
  for (const [name, modeEnv] of modes) {
    console.log(`--- ${test} in ${name}`);
    const t0 = Date.now();
    const runEnv = { ...base, ...env, ...modeEnv };
    // Built first, unbounded (a cold build takes minutes); then run within the bounds above.
    let status = (await cargo([...args, "--no-run"], runEnv)) === 0 ? "not started" : "failed";
    for (let attempt = 0; status === "not started"; attempt++) {
      if (attempt > 0) console.log(`--- ${test} in ${name}: no test started within ${START_BOUND_MS / 1000} s (in Chromium: the page never finished loading)${attempt > RETRIES ? "" : `; retry ${attempt} of ${RETRIES}`}`);
      status = attempt > RETRIES ? "failed" : await boundedRun(args, runEnv);
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
    // The browser run's whole-suite bound (wasm-bindgen-test-runner's default is 20 s; the suite takes ~8 s).
    failed += await runModes("rust_api", { ...env, WASM_BINDGEN_TEST_TIMEOUT: process.env.WASM_BINDGEN_TEST_TIMEOUT ?? "60" });
  } catch (e) {
    failed++;
    console.log(`FAIL rust_api setup: ${e?.stack ?? e}`);
  } finally {
    await testServer?.close();
    await Promise.all(real.map((s) => s.stop()));
    stopAll();
  }
}
process.exit(failed ? 1 : 0);
