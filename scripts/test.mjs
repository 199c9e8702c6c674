// `npm test`: installs what is missing (scripts/setup.sh), builds the package, then runs every test:
// native engine tests (scenarios and property tests), the async shell's wasm-bindgen tests (Node and
// headless Chromium) and a 45 s fuzz run of each target, lints, the test server's own tests, the Node tests of the built package, the
// type check, headless Chromium, the fault matrix, the hostile-values matrix and the robustness matrix
// (bounded answers, redirects, malformed messages, long timers, sparse arrays, stdio, a starved module;
// Node and Chromium), a trap in a test build (Node and Chromium), the interop matrix against
// the real servers, the Rust API's docs and its example app in Chromium. Prints a summary, and under it
// the lines that tell why each failed step failed (a CI log keeps its head and its tail).
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const only = process.argv.slice(2);
const nodeTests = (dir) => readdirSync(new URL(`../${dir}/`, import.meta.url)).filter((f) => f.endsWith(".test.mjs")).sort().map((f) => `${dir}/${f}`);

const steps = [
  ["setup", "bash", ["scripts/setup.sh"]],
  ["build", "node", ["scripts/build.mjs"]],
  ["size budget", "node", ["scripts/size.mjs", "--check"]],
  ["rust tests", "cargo", ["test", "--quiet"]],
  ["rust wasm", "node", ["tests/wasm/run.mjs"]],
  ["fuzz 2×45 s", "bash", ["tests/fuzz/short.sh", "45"]],
  ["rust fmt", "cargo", ["fmt", "--check"]],
  ["module cycles", "node", ["scripts/cycles.mjs"]],
  ["clippy native", "cargo", ["clippy", "--quiet", "--all-targets", "--", "-D", "warnings"]],
  ["clippy wasm", "cargo", ["clippy", "--quiet", "--lib", "--tests", "--target", "wasm32-unknown-unknown", "--features", "npm,journal", "--", "-D", "warnings"]],
  ["clippy core", "cargo", ["clippy", "--quiet", "--lib", "--target", "wasm32-unknown-unknown", "--features", "npm", "--", "-D", "warnings"]],
  ["clippy rust api", "cargo", ["clippy", "--quiet", "--lib", "--target", "wasm32-unknown-unknown", "--", "-D", "warnings"]],
  ["clippy rust api journal", "cargo", ["clippy", "--quiet", "--lib", "--target", "wasm32-unknown-unknown", "--features", "journal", "--", "-D", "warnings"]],
  ["rust docs", "node", ["scripts/docs.mjs"]],
  ["crate", "node", ["tests/crate/run.mjs"]],
  ["doc links", "node", ["scripts/links.mjs"]],
  ["test server", "node", ["--test", ...nodeTests("tests/server")]],
  ["node", "node", ["--test", ...nodeTests("tests/node")]],
  ["types", "node", ["node_modules/typescript/bin/tsc", "-p", "tests/types"]],
  ["browser", "node", ["tests/browser/run.mjs", "--http", "--ports", "--journal"]],
  ["faults", "node", ["tests/faults/run.mjs"]],
  ["hostile", "node", ["tests/hostile/run.mjs"]],
  ["robust", "node", ["tests/robust/run.mjs"]],
  ["trap", "node", ["tests/trap/run.mjs"]],
  ["interop", "node", ["tests/interop/run.mjs"]],
  ["environments", "node", ["tests/env/run.mjs"]],
  ["demo", "node", ["tests/demo/run.mjs"]],
  ["example", "node", ["tests/example/run.mjs"]],
  ["leptos", "node", ["tests/example/leptos.mjs"]],
];

/** Runs a step with its output passed through; its exit status and the end of its output. */
function runStep(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ["inherit", "pipe", "pipe"] });
    let kept = "";
    const keep = (stream, to) =>
      stream.on("data", (d) => {
        to.write(d);
        kept = (kept + d).slice(-200_000);
      });
    keep(child.stdout, process.stdout);
    keep(child.stderr, process.stderr);
    child.on("error", (e) => resolve({ status: 1, kept: `${e}` }));
    child.on("close", (status) => resolve({ status, kept }));
  });
}

/** The lines of a failed step's output that say why: its failure lines (the last 12), else its last 5 lines. */
function why(kept) {
  const lines = kept.split("\n").map((l) => l.trimEnd()).filter(Boolean);
  const telling = lines.filter((l) => /\bFAIL|\bnot ok\b|^error|panicked|FAILED|Error:/.test(l));
  return (telling.length ? telling.slice(-12) : lines.slice(-5)).map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l));
}

const results = [];
for (const [name, cmd, args] of steps) {
  if (only.length && !only.includes(name) && !["setup", "build"].includes(name)) continue;
  console.log(`\n=== ${name}: ${cmd} ${args.join(" ")}`);
  const t0 = Date.now();
  const r = await runStep(cmd, args);
  const ok = r.status === 0;
  results.push({ name, ok, s: ((Date.now() - t0) / 1000).toFixed(1), why: ok ? [] : why(r.kept) });
  if (!ok && ["setup", "build"].includes(name)) break;
}

console.log("\n=== summary");
for (const r of results) console.log(`${r.ok ? "pass" : "FAIL"}  ${r.name.padEnd(14)} ${r.s} s`);
const failed = results.filter((r) => !r.ok);
for (const r of failed) console.log(`\n--- why ${r.name} failed:\n${r.why.map((l) => `  ${l}`).join("\n")}`);
console.log(failed.length ? `${failed.length} step(s) failed` : "all steps passed");
process.exit(failed.length ? 1 : 0);
