// The Rust API's documentation, checked the way docs.rs builds it (wasm32): `cargo doc --no-deps`
// warning-free under `-D warnings` (missing docs are denied by the crate itself), with and without
// the default feature, and every doc example (and the README's Rust block) compiled for wasm32 with
// the pinned nightly's `--no-run` (nothing can run them there: a doctest is a plain `main`; those that
// need a server or a page are `no_run`, the others — TaskState, ErrorKind, TASKS_EXTENSION, which exist
// on every target — also run natively in `cargo test`). Then rustdoc's own coverage count: every
// public item documented, and an example on every item rustdoc expects one on.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const env = { ...process.env, RUSTDOCFLAGS: "-D warnings" };
const target = ["--target", "wasm32-unknown-unknown"];
const nightly = readFileSync(new URL("nightly-toolchain", import.meta.url), "utf8").trim();
const runs = [
  [["doc", "--no-deps", ...target, "--no-default-features", "--features", "journal"], env],
  [["doc", "--no-deps", ...target], env],
  [[`+${nightly}`, "test", "--doc", ...target, "--no-default-features", "--features", "journal"], { ...env, RUSTDOCFLAGS: "-D warnings -Z unstable-options --no-run" }],
];
let failed = 0;
for (const [args, runEnv] of runs) {
  console.log(`--- cargo ${args.join(" ")}`);
  const r = spawnSync("cargo", args, { cwd: root, stdio: "inherit", env: runEnv });
  if (r.status !== 0) failed++;
}
console.log(`--- cargo +${nightly} rustdoc --show-coverage`);
const cov = spawnSync("cargo", [`+${nightly}`, "rustdoc", "--lib", ...target, "--no-default-features", "--features", "journal", "--",
  "-Z", "unstable-options", "--show-coverage"], { cwd: root, encoding: "utf8", env });
const total = /\|\s*Total\s*\|\s*(\d+)\s*\|\s*([\d.]+)%\s*\|\s*(\d+)\s*\|\s*([\d.]+)%/.exec(cov.stdout ?? "");
if (!total) {
  console.log(`FAIL: no coverage table (${cov.status}): ${(cov.stderr ?? "").slice(-400)}`);
  failed++;
} else {
  const [, docs, docPct, examples, examplePct] = total;
  console.log(`doc coverage: ${docs} public items documented (${docPct}%), ${examples} with an example (${examplePct}%)`);
  if (docPct !== "100.0" || examplePct !== "100.0") failed++;
}
process.exit(failed ? 1 : 0);
