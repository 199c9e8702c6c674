// The newcomer's first minute: from a fresh clone of this repository (its committed HEAD) to the demo
// URL (`npm start` printing it, the page answering 200) and to a green `npm test`. Writes
// bench/.out/newcomer.json, which `npm run bench` puts into bench/RESULTS.md.
//
//   node bench/newcomer.mjs            both (npm test takes minutes: it builds and runs everything)
//   node bench/newcomer.mjs --start    only npm start
//
// The clone is fresh (no node_modules, no target/, no pkg/, no server venvs); the machine is not: what
// scripts/setup.sh installs machine-wide (the wasm target, wasm-bindgen-cli, cargo-fuzz, Chromium) and
// the cargo and npm download caches are whatever this machine already has. The figures say which.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const onlyStart = process.argv.includes("--start");
const dir = mkdtempSync(path.join(os.tmpdir(), "mcp-tasks-wasm-newcomer-"));
const clone = path.join(dir, "clone");
const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
execFileSync("git", ["clone", "-q", root, clone]);

const has = (cmd, args) => {
  try {
    execFileSync(cmd, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};
const warm = {
  wasmBindgenCli: has("wasm-bindgen", ["--version"]),
  cargoFuzz: has("cargo", ["fuzz", "--version"]),
  chromium: existsSync("/usr/bin/chromium"),
  cargoRegistry: existsSync(path.join(os.homedir(), ".cargo/registry/cache")),
  npmCache: existsSync(path.join(os.homedir(), ".npm/_cacache")),
};

/** Runs `npm start` in the clone until it prints the demo URL and the page answers; then stops it. */
async function timeStart() {
  const t0 = performance.now();
  const child = spawn("npm", ["start"], { cwd: clone, env: { ...process.env, PORT: "0" }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const url = await new Promise((resolve, reject) => {
    const onData = (b) => {
      out += b;
      const m = /demo: (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (b) => (out += b));
    child.on("exit", (code) => reject(new Error(`npm start exited (${code}) before printing the URL:\n${out.slice(-2000)}`)));
  });
  const seconds = (performance.now() - t0) / 1000;
  const status = (await fetch(url)).status;
  process.kill(-child.pid, "SIGTERM");
  const chromiumInstalled = /setup: installing chromium/.test(out);
  return { seconds, url, status, installedChromium: chromiumInstalled, setupSteps: out.match(/^setup: .*$/gm) ?? [] };
}

/** Runs `npm test` in the clone; its duration and result. */
function timeTest() {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn("npm", ["test"], { cwd: clone, stdio: ["ignore", "pipe", "pipe"] });
    let tail = "";
    const keep = (b) => (tail = (tail + b).slice(-4000));
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("exit", (code) => {
      const summary = tail.slice(tail.lastIndexOf("=== summary"));
      resolve({ seconds: (performance.now() - t0) / 1000, ok: code === 0, summary: summary.trim() });
    });
  });
}

const result = { date: new Date().toISOString(), commit, cores: os.cpus().length, warm };
try {
  result.start = await timeStart();
  console.log(`fresh clone → demo URL: ${result.start.seconds.toFixed(1)} s (${result.start.url} → HTTP ${result.start.status})`);
  if (!onlyStart) {
    result.test = await timeTest();
    console.log(`fresh clone (after npm start) → npm test ${result.test.ok ? "green" : "FAILED"}: ${result.test.seconds.toFixed(1)} s`);
    if (!result.test.ok) console.log(result.test.summary);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
mkdirSync(path.join(root, "bench/.out"), { recursive: true });
writeFileSync(path.join(root, "bench/.out/newcomer.json"), JSON.stringify(result, null, 1));
console.log("wrote bench/.out/newcomer.json");
process.exit(result.test && !result.test.ok ? 1 : 0);
