// Builds the example app examples/tasks-app: `cargo build --release --target wasm32-unknown-unknown`
// (its own workspace; CARGO_TARGET_DIR is honoured, else examples/tasks-app/target), then the
// wasm-bindgen CLI (`--target web`, the version pinned in its Cargo.toml) into examples/tasks-app/pkg.
// Both folders are gitignored. By hand: `node tests/example/build.mjs`.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const exampleDir = fileURLToPath(new URL("../../examples/tasks-app/", import.meta.url));
export const outDir = join(exampleDir, "pkg");

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: exampleDir, stdio: "inherit" });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${r.status ?? r.signal}`);
}

/** Builds the example into `outDir`; returns the seconds it took. Throws when a step fails. */
export function buildExample() {
  const t0 = Date.now();
  const target = process.env.CARGO_TARGET_DIR || join(exampleDir, "target");
  run("cargo", ["build", "--release", "--target", "wasm32-unknown-unknown", "--target-dir", target]);
  rmSync(outDir, { recursive: true, force: true }); // no stale snippet folders
  const wasm = join(target, "wasm32-unknown-unknown", "release", "tasks_app.wasm");
  run("wasm-bindgen", ["--target", "web", "--no-typescript", "--out-dir", outDir, wasm]);
  return (Date.now() - t0) / 1000;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const s = buildExample();
    console.log(`tasks-app built in ${s.toFixed(1)} s: ${outDir}`);
  } catch (e) {
    console.error(`tasks-app build failed: ${e.message}`);
    process.exit(1);
  }
}
