// Builds the test-only module with a trap on demand (cargo feature `trap-test`, which the npm package
// never enables) into target/trap-pkg/: a debug build (quick; the trap is the same) and its glue, with
// the snippets the glue imports. Skips the work when the glue is newer than every input.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const target = process.env.CARGO_TARGET_DIR || join(root, "target");
/** Under the repository's own target/ (the test page loads it from there), whatever CARGO_TARGET_DIR is. */
export const trapPkg = join(root, "target", "trap-pkg");
const glue = join(trapPkg, "mcp_tasks_wasm.js");

const newest = (p) => {
  const s = statSync(p);
  return s.isDirectory() ? Math.max(s.mtimeMs, ...readdirSync(p).map((f) => newest(join(p, f)))) : s.mtimeMs;
};

export function buildTrapPkg() {
  const inputs = ["src", "js", "Cargo.toml", "Cargo.lock", "tests/trap/build.mjs"].map((p) => join(root, p));
  if (existsSync(glue) && statSync(glue).mtimeMs > Math.max(...inputs.map(newest))) return trapPkg;
  const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: "inherit" });
  run("cargo", ["build", "--quiet", "--lib", "--target", "wasm32-unknown-unknown", "--features", "trap-test"]);
  run("wasm-bindgen", ["--target", "web", "--out-dir", trapPkg, "--out-name", "mcp_tasks_wasm",
    join(target, "wasm32-unknown-unknown/debug/mcp_tasks_wasm.wasm")]);
  return trapPkg;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(buildTrapPkg());
