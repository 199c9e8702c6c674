// Builds the npm package into pkg/: the release wasm (cargo), its ESM glue and declarations
// (wasm-bindgen --target web), a size pass with npm binaryen's wasm-opt, and the entry files from js/.
// Skips the work when pkg/ is newer than every input. Prints the shipped size at the end.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
// PKG_OUT and CARGO_TARGET_DIR let a second checkout or session build without touching pkg/ and target/.
const pkg = process.env.PKG_OUT ? join(root, process.env.PKG_OUT) : join(root, "pkg");
const target = process.env.CARGO_TARGET_DIR || join(root, "target");
const wasmOut = join(pkg, "mcp_tasks_wasm_bg.wasm");
const glue = join(pkg, "mcp_tasks_wasm.js");
const entries = ["index.js", "index.d.ts", "node.js", "node.d.ts"];

function run(cmd, args) {
  execFileSync(cmd, args, { cwd: root, stdio: "inherit" });
}

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((f) => newest(join(path, f))));
}

function lockedBindgenVersion() {
  const lock = readFileSync(join(root, "Cargo.lock"), "utf8");
  const m = lock.match(/name = "wasm-bindgen"\nversion = "([^"]+)"/);
  if (!m) throw new Error("wasm-bindgen is not in Cargo.lock");
  return m[1];
}

const inputs = ["src", "js", "Cargo.toml", "Cargo.lock", "scripts/build.mjs"].map((p) => join(root, p));
const fresh = existsSync(wasmOut) && entries.every((e) => existsSync(join(pkg, e))) &&
  statSync(wasmOut).mtimeMs > Math.max(...inputs.map(newest));

if (!fresh || process.argv.includes("--force")) {
  const want = lockedBindgenVersion();
  const have = execFileSync("wasm-bindgen", ["--version"], { encoding: "utf8" }).trim().split(" ")[1];
  if (have !== want) {
    throw new Error(`wasm-bindgen CLI ${have} does not match the crate's ${want}: cargo install wasm-bindgen-cli --version ${want}`);
  }
  run("cargo", ["build", "--release", "--lib", "--target", "wasm32-unknown-unknown"]);
  mkdirSync(pkg, { recursive: true });
  run("wasm-bindgen", [
    "--target", "web", "--out-dir", pkg, "--out-name", "mcp_tasks_wasm",
    "--remove-name-section", "--remove-producers-section",
    join(target, "wasm32-unknown-unknown/release/mcp_tasks_wasm.wasm"),
  ]);
  // npm binaryen's wasm-opt, never one from PATH (Debian's v108 silently breaks wasm-bindgen output).
  const wasmOpt = join(root, "node_modules/.bin/wasm-opt");
  run(wasmOpt, [
    "-Oz", "--enable-reference-types", "--enable-bulk-memory", "--enable-multivalue", "--enable-sign-ext",
    "--enable-nontrapping-float-to-int", "--enable-mutable-globals", wasmOut, "-o", wasmOut,
  ]);
  for (const e of entries) copyFileSync(join(root, "js", e), join(pkg, e));
} else {
  console.log("pkg/ is up to date");
}

const size = (f) => {
  const b = readFileSync(f);
  return { raw: b.length, gzip: gzipSync(b, { level: 9 }).length };
};
const w = size(wasmOut);
const g = size(glue);
const kb = (n) => (n / 1024).toFixed(1) + " KB";
console.log(`shipped size: wasm ${kb(w.raw)} raw / ${kb(w.gzip)} gzip; glue ${kb(g.raw)} raw / ${kb(g.gzip)} gzip; ` +
  `total ${kb(w.raw + g.raw)} raw / ${kb(w.gzip + g.gzip)} gzip (budget 40 KB gzip)`);
