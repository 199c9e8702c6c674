// Builds the npm package into pkg/: the module twice — without the task journal (pkg/, the
// `mcp-tasks-wasm` entry) and with it (cargo feature `journal`: pkg/journal/, `mcp-tasks-wasm/journal`) —
// each as the release wasm (cargo), its ESM glue and declarations (wasm-bindgen --target web) and a size
// pass with npm binaryen's wasm-opt; then the entry files from js/. Skips the work when pkg/ is newer
// than every input. Prints the shipped size at the end.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { cargoOutput } from "./cargo-output.mjs";
import { wasmOpt, wasmOptArgs } from "./wasm-opt.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
// PKG_OUT and CARGO_TARGET_DIR let a second checkout or session build without touching pkg/ and target/.
const pkg = process.env.PKG_OUT ? join(root, process.env.PKG_OUT) : join(root, "pkg");
const target = process.env.CARGO_TARGET_DIR || join(root, "target");
const wasmOut = join(pkg, "mcp_tasks_wasm_bg.wasm");
/** The two builds of the module: the core one (pkg/) and the one with the task journal (pkg/journal/). */
const variants = [
  { name: "core", dir: pkg, features: ["npm"], out: "mcp_tasks_wasm" },
  { name: "journal", dir: join(pkg, "journal"), features: ["npm", "journal"], out: "mcp_tasks_wasm_journal" },
];

const entries = ["index.js", "node.js", "load.js", "adapters.js", "channel.js", "direct.js", "values.js", "errors.js", "generation.js", "http.js", "port.js", "result.js", "sdk.js", "stdio.js"];
const journalEntries = ["journal/index.js", "journal/node.js"];
const declarations = ["index.d.ts", "node.d.ts"];
// Each entry's declarations, from js/types/ (every declaration of the package lives there; the exports'
// and the transports' are emitted into the generated .d.ts by the crate): entry.d.ts for pkg/,
// journal-entry.d.ts for pkg/journal/, stdio.d.ts for mcp-tasks-wasm/stdio.
const declared = [
  ...declarations.map((d) => ["types/entry.d.ts", d]),
  ...declarations.map((d) => ["types/journal-entry.d.ts", `journal/${d}`]),
  ["types/stdio.d.ts", "stdio.d.ts"],
];
// The journal's stores (js/stores.js) are a wasm-bindgen snippet of the journal build: the module
// imports the default store from it, so wasm-bindgen copies it under pkg/journal/snippets/<crate>-<hash>/js/
// and the glue imports it from there. pkg/journal/stores.js re-exports that very module for the
// journal entries (one copy in a bundle).
const storesEntry = "journal/stores.js";

function run(cmd, args, env = process.env) {
  execFileSync(cmd, args, { cwd: root, stdio: "inherit", env });
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

// `--demo` (what `npm start` runs): any up-to-date pkg/ will do, else a quick stable build (rebuilding
// std for the size build takes a fresh clone about a minute more; the demo does not need the smallest
// module). Without it, pkg/ is fresh only if it was built the size way (nightly) when nightly is here.
const demo = process.argv.includes("--demo");
/** The dated nightly the shipped module is built with (scripts/nightly-toolchain; setup.sh installs it). */
const NIGHTLY = readFileSync(join(root, "scripts/nightly-toolchain"), "utf8").trim();
const nightly = !demo && hasNightly();
const toolchainMark = join(target, "pkg-toolchain");
const mark = `${nightly ? NIGHTLY : "stable"} ${pkg}`;
const builtWith = existsSync(toolchainMark) ? readFileSync(toolchainMark, "utf8") : "";
const inputs = ["src", "js", "Cargo.toml", "Cargo.lock", "scripts/build.mjs", "scripts/wasm-opt.mjs"].map((p) => join(root, p));
const fresh = existsSync(wasmOut) && [...entries, ...journalEntries, ...declared.map(([, d]) => d), storesEntry].every((e) => existsSync(join(pkg, e))) &&
  statSync(wasmOut).mtimeMs > Math.max(...inputs.map(newest)) &&
  (demo || builtWith === mark);

if (!fresh || process.argv.includes("--force")) {
  const want = lockedBindgenVersion();
  const have = execFileSync("wasm-bindgen", ["--version"], { encoding: "utf8" }).trim().split(" ")[1];
  if (have !== want) {
    throw new Error(`wasm-bindgen CLI ${have} does not match the crate's ${want}: cargo install wasm-bindgen-cli --version ${want}`);
  }
  if (!nightly && !demo) {
    console.warn(`build: no ${NIGHTLY} toolchain with rust-src (bash scripts/setup.sh installs them): building with stable, a bigger module`);
  }
  for (const variant of variants) {
    buildWasm(nightly, variant.features);
    copyFileSync(join(target, "wasm32-unknown-unknown/release/mcp_tasks_wasm.wasm"), cargoOutput(variant.name));
    mkdirSync(variant.dir, { recursive: true });
    rmSync(join(variant.dir, "snippets"), { recursive: true, force: true }); // no stale snippet directories
    run("wasm-bindgen", [
      "--target", "web", "--out-dir", variant.dir, "--out-name", variant.out,
      "--remove-name-section", "--remove-producers-section",
      // TextEncoder's encodeInto is in every browser and Node the package supports: no fallback for it.
      "--encode-into", "always",
      join(target, "wasm32-unknown-unknown/release/mcp_tasks_wasm.wasm"),
    ]);
    shrink(join(variant.dir, `${variant.out}_bg.wasm`));
    pruneSnippets(variant.dir, variant.out);
    guardBeforeInit(join(variant.dir, `${variant.out}.js`));
  }
  for (const e of [...entries, ...journalEntries]) copyFileSync(join(root, "js", e), join(pkg, e));
  writeStoresEntry();
  for (const [from, to] of declared) copyFileSync(join(root, "js", from), join(pkg, to));
  writeFileSync(toolchainMark, mark);
} else {
  console.log("pkg/ is up to date");
}

/** The size pass on a module alone (scripts/wasm-opt.mjs says what each argument gains). The glue
 * ships as wasm-bindgen generated it (an app's bundler minifies it). */
function shrink(wasm) {
  run(wasmOpt, [...wasmOptArgs, "--strip-target-features", wasm, "-o", wasm]);
}

/** Drops the snippet files the glue does not import. wasm-bindgen copies every JS file the crate declares
 * imports from — also the transports the Rust API's clients are made of (src/api/adapters.rs), which a
 * Rust app's own build uses; the npm package ships those once, as pkg/http.js etc. Only files are
 * removed: the glue stays as generated. */
function pruneSnippets(dir, out) {
  const glue = join(dir, `${out}.js`);
  const imported = new Set([...readFileSync(glue, "utf8").matchAll(/from ['"]\.\/(snippets\/[^'"]+)['"]/g)].map((m) => m[1]));
  const walk = (rel) => {
    for (const d of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = `${rel}/${d.name}`;
      if (d.isDirectory()) walk(path);
      else if (!imported.has(path)) rmSync(join(dir, path));
    }
  };
  walk("snippets");
}

/**
 * Makes a call made before the module is loaded a clear mistake instead of a `TypeError` about
 * `undefined`: each function wasm-bindgen generated starts with a check that the module is
 * instantiated — an async one (`@returns {Promise<…>}`) then returns a promise rejected with an `Error`
 * saying to `await init()` first (nothing throws synchronously), a plain one throws that `Error`. The
 * functions stay the generated ones, as the entries export them (one line added to each, checked here
 * for every export: a wasm-bindgen that generates them differently fails the build).
 */
function guardBeforeInit(glue) {
  const text = readFileSync(glue, "utf8");
  const exported = [...text.matchAll(/^export function (\w+)\(/gm)].length;
  let guarded = 0;
  const out = text.replace(/(@returns \{([^}]*)\}\n \*\/\n)?export function (\w+)\(([^)]*)\) \{\n/g, (whole, _doc, returns, name) => {
    guarded += 1;
    const fail = `notLoaded("${name}")`;
    const check = returns?.startsWith("Promise") ? `return Promise.reject(${fail})` : `throw ${fail}`;
    return `${whole}    if (wasm === undefined) ${check};\n`;
  });
  if (exported === 0 || guarded !== exported || !/^let wasmModule, wasmInstance, wasm;$/m.test(text)) {
    throw new Error(`${glue}: expected to guard ${exported} generated exports, guarded ${guarded}: has wasm-bindgen's glue changed?`);
  }
  writeFileSync(glue, `${out}
/** The mistake of calling \`name\` before the module is loaded (added by scripts/build.mjs). */
function notLoaded(name) {
    return new Error(\`mcp-tasks-wasm: \${name}() called before init(): \\\`await init()\\\` (or initSync) first\`);
}
`);
}

/** pkg/journal/stores.js: `export *` from the snippet wasm-bindgen emitted for js/stores.js in the
 * journal build (its directory name carries a hash of the crate, read from what was emitted). */
function writeStoresEntry() {
  const snippets = join(pkg, "journal/snippets");
  const dirs = readdirSync(snippets).filter((d) => existsSync(join(snippets, d, "js/stores.js")));
  if (dirs.length !== 1) throw new Error(`expected one snippet directory with js/stores.js, found ${dirs.length}`);
  writeFileSync(join(pkg, storesEntry), `// The task journal's stores (the module the wasm glue imports the default store from).
export * from "./snippets/${dirs[0]}/js/stores.js";
`);
}

/** Whether the pinned nightly toolchain and its standard-library sources are installed. */
function hasNightly() {
  try {
    const sysroot = execFileSync("rustc", [`+${NIGHTLY}`, "--print", "sysroot"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return existsSync(join(sysroot, "lib/rustlib/src/rust/library/std"));
  } catch {
    return false;
  }
}

/**
 * Builds the release wasm with the pinned nightly toolchain (scripts/nightly-toolchain), rebuilding the standard library for it
 * (`-Z build-std`) with `-C panic=immediate-abort`: a panic becomes a bare trap, so neither the
 * panic machinery nor the `core::fmt` code it pulls in ships (−3.7 KB gzip, measured), and with
 * `-Z location-detail=none`, so no source paths and line numbers do (−0.8 KB gzip). The library
 * never panics by design (clippy denies unwrap/expect/panic/indexing), so nothing a user can see
 * changes. `-Z cross-crate-inline-threshold=always` makes every function of every crate (std, alloc,
 * js-sys, serde, wasm-bindgen, this one) available for inlining where it is called, as `#[inline]`
 * would: the small wrappers and iterator adapters that otherwise stay out-of-line copies (alloc's
 * collecting, growing and dropping code per element type above all) are inlined and simplified at
 * each caller — −3.3 KB gzip of the core module, −3.6 KB of the journal's (measured; rustc's MIR
 * inliner on top, `-Z inline-mir=yes`, gives back 1.5 KB of it, and LLVM's inline threshold lowered
 * to 0 or 10, 0.3 KB).
 * `scripts/setup.sh` installs nightly and its `rust-src`; without them (or with `--demo`)
 * the build uses stable, and the size budget in `npm test` reports the bigger module.
 */
function buildWasm(nightly, features) {
  const args = ["build", "--release", "--lib", "--target", "wasm32-unknown-unknown", ...(features.length ? ["--features", features.join(",")] : [])];
  if (!nightly) return run("cargo", args);
  run("cargo", [`+${NIGHTLY}`, ...args, "-Z", "build-std=std,panic_abort"],
    { ...process.env, RUSTFLAGS: "-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Zcross-crate-inline-threshold=always" });
}

const size = (f) => {
  const b = readFileSync(f);
  return { raw: b.length, gzip: gzipSync(b, { level: 9 }).length };
};
const w = size(wasmOut);
const g = size(join(pkg, "mcp_tasks_wasm.js"));
const kb = (n) => (n / 1024).toFixed(1) + " KB";
console.log(`pkg: wasm ${kb(w.raw)} raw / ${kb(w.gzip)} gzip; glue ${kb(g.raw)} raw / ${kb(g.gzip)} gzip`);
// The figure the budget is about: an app's bundle (scripts/size.mjs; `npm test` checks it).
run("node", [join(root, "scripts/size.mjs")]);
