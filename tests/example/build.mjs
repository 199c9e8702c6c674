// Builds an example app of examples/ (`tasks-app`, plain wasm-bindgen; `leptos-app`, Leptos CSR):
// `cargo build --release --target wasm32-unknown-unknown` (its own workspace; CARGO_TARGET_DIR is
// honoured, else examples/<name>/target), then the wasm-bindgen CLI (`--target web`, the version pinned
// in its Cargo.toml) into examples/<name>/pkg. Both folders are gitignored.
// By hand: `node tests/example/build.mjs [name]` (default tasks-app).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder of the example `name`. */
export const exampleDirOf = (name) => fileURLToPath(new URL(`../../examples/${name}/`, import.meta.url));
/** The plain wasm-bindgen example's folder. */
export const exampleDir = exampleDirOf("tasks-app");

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, stdio: "inherit" });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${r.status ?? r.signal}`);
}

/** Builds the example `name` into its pkg/; returns the seconds it took. Throws when a step fails. */
export function buildExample(name = "tasks-app") {
  const t0 = Date.now();
  const dir = exampleDirOf(name);
  const target = process.env.CARGO_TARGET_DIR || join(dir, "target");
  run("cargo", ["build", "--release", "--target", "wasm32-unknown-unknown", "--target-dir", target], dir);
  const outDir = join(dir, "pkg");
  rmSync(outDir, { recursive: true, force: true }); // no stale snippet folders
  const wasm = join(target, "wasm32-unknown-unknown", "release", `${name.replaceAll("-", "_")}.wasm`);
  run("wasm-bindgen", ["--target", "web", "--no-typescript", "--out-dir", outDir, wasm], dir);
  return (Date.now() - t0) / 1000;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const name = process.argv[2] ?? "tasks-app";
  try {
    const s = buildExample(name);
    console.log(`${name} built in ${s.toFixed(1)} s: ${join(exampleDirOf(name), "pkg")}`);
  } catch (e) {
    console.error(`${name} build failed: ${e.message}`);
    process.exit(1);
  }
}
