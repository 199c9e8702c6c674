// `npm test`'s "crate" step: the crate as a dependency gets it — from the `.crate` file `cargo package`
// makes, not from the checkout. It checks
// - what the package holds: the sources, the JS its clients are made of, README, LICENSE, CHANGELOG and
//   the guides — no tests, benches, demo, scripts or node_modules — and the manifest's repository and
//   documentation links;
// - that the docs it carries point only to what it contains (every relative link of its Markdown files
//   names a file of the package, and so does every repository path the README and the crate docs name);
// - that an app built against it (`tests/crate/app`, its own workspace, copied next to the unpacked
//   crate) sets its own global allocator and builds — a plain dependency sets none — and that the app's
//   module exports none of the npm package's functions (a plain dependency exports nothing);
// then prints what the crate costs in that app (its module through wasm-bindgen and wasm-opt, gzip -9;
// the crate docs quote it: src/crate-doc.md). By hand: `node tests/crate/run.mjs`.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { wasmOpt } from "../../scripts/wasm-opt.mjs";
import { exportNames } from "../../scripts/wasm-reader.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const target = process.env.CARGO_TARGET_DIR || join(root, "target");
const problems = [];
const fail = (m) => problems.push(m);

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, stdio: ["ignore", "inherit", "inherit"] });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${r.status ?? r.signal}`);
}

/** Every file under `dir`, as paths relative to it. */
function filesOf(dir, at = dir) {
  return readdirSync(at, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesOf(dir, join(at, d.name)) : [relative(dir, join(at, d.name))],
  );
}

const version = readFileSync(join(root, "Cargo.toml"), "utf8").match(/^version = "([^"]+)"/m)?.[1];
const t0 = Date.now();
run("cargo", ["package", "--quiet", "--allow-dirty", "--no-verify"], root);
const crateFile = join(target, "package", `mcp_tasks_wasm-${version}.crate`);
const work = mkdtempSync(join(tmpdir(), "mcp-crate-"));
try {
  execFileSync("tar", ["xzf", crateFile, "-C", work]);
  const unpacked = join(work, `mcp_tasks_wasm-${version}`);
  const files = filesOf(unpacked);
  const packedKb = statSync(crateFile).size / 1024;
  console.log(`packed: ${files.length} files, ${packedKb.toFixed(1)} KB (${crateFile})`);

  // What the package holds.
  for (const need of ["Cargo.toml", "README.md", "LICENSE", "CHANGELOG.md", "src/lib.rs", "src/crate-doc.md", "js/http.js", "docs/generations.md"]) {
    if (!files.includes(need)) fail(`the package lacks ${need}`);
  }
  const stray = files.filter((f) => /^(tests|bench|www|scripts|examples|node_modules|pkg|target|\.ci)\//.test(f) || f.startsWith("src/tests/"));
  if (stray.length) fail(`the package holds what no dependency needs: ${stray.slice(0, 5).join(", ")}${stray.length > 5 ? ", …" : ""}`);
  // The snippets the sources import and the files they include must be there (a missing one fails the
  // build of every app that turns on the feature using it).
  for (const f of files.filter((f) => f.endsWith(".rs"))) {
    const source = readFileSync(join(unpacked, f), "utf8");
    for (const m of source.matchAll(/module = "\/([^"]+)"/g)) {
      if (!files.includes(m[1])) fail(`${f} imports /${m[1]}, which the package lacks`);
    }
    for (const m of source.matchAll(/include_(?:str|bytes)!\("([^"]+)"\)/g)) {
      if (!existsSync(join(unpacked, dirname(f), m[1]))) fail(`${f} includes ${m[1]}, which the package lacks`);
    }
  }
  const manifest = readFileSync(join(unpacked, "Cargo.toml"), "utf8");
  for (const key of ["repository", "documentation"]) {
    if (!new RegExp(`^${key} = "https://`, "m").test(manifest)) fail(`the manifest has no ${key} link`);
  }
  if (/^default = \[.+\]/m.test(manifest)) fail("the manifest turns features on by default");

  // Its docs point only to what it contains.
  for (const f of files.filter((f) => f.endsWith(".md"))) {
    const text = readFileSync(join(unpacked, f), "utf8").replace(/```[\s\S]*?```/g, "");
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const link = m[1].split("#")[0];
      if (link === "" || /^[a-z]+:/.test(link)) continue;
      if (!existsSync(join(unpacked, dirname(f), link))) fail(`${f} links to ${m[1]}, which the package lacks`);
    }
    // On the crate's front pages (crates.io's README, docs.rs's crate docs) a repository path named in
    // backticks (`examples/…`, `tests/…`) is a pointer too; the guides name the tests that hold their
    // rules as references to the repository, and are checked for their links only.
    if (f !== "README.md" && f !== "src/crate-doc.md") continue;
    for (const m of text.matchAll(/`((?:bench|examples|scripts|tests|www)\/[^`\s]*)`/g)) {
      if (!existsSync(join(unpacked, m[1]))) fail(`${f} names ${m[1]}, which the package lacks`);
    }
  }

  // An app against the unpacked crate: its own allocator, nothing of the npm package exported.
  const app = join(work, "app");
  cpSync(join(root, "tests/crate/app"), app, { recursive: true });
  const appManifest = join(app, "Cargo.toml");
  writeFileSync(appManifest, readFileSync(appManifest, "utf8").replace("@CRATE@", unpacked.replaceAll("\\", "/")));
  cpSync(join(root, "Cargo.lock"), join(app, "Cargo.lock")); // the versions the repository tests
  const appTarget = join(target, "crate-app");
  run("cargo", ["build", "--quiet", "--release", "--target", "wasm32-unknown-unknown", "--target-dir", appTarget], app);
  const built = join(appTarget, "wasm32-unknown-unknown/release/crate_app.wasm");
  // As it ships: wasm-bindgen --target web, wasm-opt -Oz.
  const out = join(work, "out");
  run("wasm-bindgen", ["--target", "web", "--no-typescript", "--out-dir", out, built], app);
  const features = ["--enable-reference-types", "--enable-bulk-memory", "--enable-multivalue", "--enable-sign-ext", "--enable-nontrapping-float-to-int", "--enable-mutable-globals"];
  run(wasmOpt, ["-Oz", ...features, join(out, "crate_app_bg.wasm"), "-o", join(out, "opt.wasm")], app);
  const exported = exportNames(readFileSync(join(out, "crate_app_bg.wasm")));
  const npmNames = ["callTool", "awaitTask", "callAndAwait", "getTask", "updateTask", "cancelTask", "listTasks", "liveCounts", "capabilities", "serverSupports", "validateElicitResult"];
  const glue = readFileSync(join(out, "crate_app.js"), "utf8");
  const leaked = npmNames.filter((n) => exported.includes(n) || new RegExp(`^export (async )?function ${n}\\b`, "m").test(glue));
  if (leaked.length) fail(`the app's module exports the npm package's ${leaked.join(", ")}`);
  if (!exported.includes("run")) fail(`the app's own export is missing (exports: ${exported.join(", ")})`);

  // What the crate costs in that app, as it ships (gzip -9).
  const gz = (f) => gzipSync(readFileSync(f), { level: 9 }).length;
  const snippets = filesOf(out).filter((f) => f.endsWith(".js") && f !== "crate_app.js");
  const js = gz(join(out, "crate_app.js")) + snippets.reduce((n, f) => n + gz(join(out, f)), 0);
  console.log(
    `an app on the crate (call_and_await over HttpClient, its own allocator): wasm ${(gz(join(out, "opt.wasm")) / 1024).toFixed(1)} KB gzip, ` +
      `JS ${(js / 1024).toFixed(1)} KB gzip (the glue and ${snippets.length} snippets, each gzipped); exports: ${exported.filter((n) => !n.startsWith("__")).join(", ")}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
for (const p of problems) console.log(`FAIL: ${p}`);
console.log(problems.length ? `crate: ${problems.length} problem(s)` : `crate: ok (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
process.exit(problems.length ? 1 : 0);
