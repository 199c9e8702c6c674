// The shipped-size figure: what a working browser app ships — `import init, { httpClient,
// callAndAwait }`, `await init()`, one call — an esbuild bundle of that entry (minified) plus the
// .wasm, gzip -9 (bench/size.mjs), side by side with the same app on the official SDK + ext-tasks.
// `npm run build` prints it; `npm test` runs it with --check, which fails when the figure is over
// CEILING_KB, when `core::fmt` is linked, or when an app that uses only directClient or portClient
// ships the HTTP client. `--breakdown` also prints where the module's code goes (by crate and module,
// read from the function names), and what the MCP 2025-11-25 paths cost.
//
// Why a budget at all: every app that uses the library ships the whole module (a wasm module's exports
// cannot be tree-shaken), so its size is paid on every page load; the figure is the app a user writes
// first, measured the way it ships (minified bundle + wasm, gzip -9).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureSizes } from "../bench/size.mjs";
import { cargoOutput } from "./cargo-output.mjs";
import { BUDGET_KB, CEILING_KB, JOURNAL_BUDGET_KB, JOURNAL_CEILING_KB } from "./budgets.mjs";
import { WasmReader } from "./wasm-reader.mjs";
import { wasmOpt, wasmOptArgs } from "./wasm-opt.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const kb = (b) => (b / 1024).toFixed(1);
const s = await measureSizes(root);
const app = s.apps["ours-http-init"];
const theirs = s.apps["theirs-http"];
const figure = app.total.gzip / 1024;
console.log(
  `shipped (working app: init + httpClient + callAndAwait, JS + .wasm): ${kb(app.total.gzip)} KB gzip ` +
    `(JS ${kb(app.js.gzip)} + wasm ${kb(s.wasm.gzip)}; raw ${kb(app.total.raw)} KB) — budget ${BUDGET_KB} KB: ` +
    (figure <= BUDGET_KB ? "met" : `not met (${(figure - BUDGET_KB).toFixed(1)} KB over)`),
);
const journal = s.apps["ours-journal-init"];
const journalFigure = journal.total.gzip / 1024;
console.log(`the same app on the journal entry (mcp-tasks-wasm/journal): ${kb(journal.total.gzip)} KB gzip (JS ${kb(journal.js.gzip)} + wasm ${kb(s.journalWasm.gzip)}) — budget ${JOURNAL_BUDGET_KB} KB: ${journalFigure <= JOURNAL_BUDGET_KB ? "met" : "not met"}`);
console.log(`the official SDK + ext-tasks app: ${kb(theirs.total.gzip)} KB gzip; ours/theirs ${(app.total.gzip / theirs.total.gzip).toFixed(2)}× (journal entry ${(journal.total.gzip / theirs.total.gzip).toFixed(2)}×)`);
const direct = s.apps["ours-direct"];
const port = s.apps["ours-port"];
const leaks = [...direct.httpInJs, ...direct.httpInWasm, ...port.httpInJs, ...port.httpInWasm];
console.log(`directClient-only app: ${kb(direct.total.gzip)} KB gzip, portClient-only app: ${kb(port.total.gzip)} KB gzip; ` +
  `HTTP client in them: ${leaks.length ? leaks.join(", ") : "no"}`);
// cargo's output still has its function names (the shipped copy does not). `--breakdown` is of the core
// module; `--breakdown=journal` of the journal entry's.
const cargoWasm = { core: cargoOutput("core"), journal: cargoOutput("journal") };
const which = process.argv.find((a) => a.startsWith("--breakdown"));
if (which) breakdown(cargoWasm[which.split("=")[1] ?? "core"] ?? cargoWasm.core);
if (process.argv.includes("--check")) {
  let failed = false;
  if (figure > CEILING_KB) {
    console.log(`FAIL: ${kb(app.total.gzip)} KB gzip is over the ceiling of ${CEILING_KB} KB (budget ${BUDGET_KB})`);
    failed = true;
  }
  if (journalFigure > JOURNAL_CEILING_KB) {
    console.log(`FAIL: the journal entry's app, ${kb(journal.total.gzip)} KB gzip, is over its ceiling of ${JOURNAL_CEILING_KB} KB (budget ${JOURNAL_BUDGET_KB})`);
    failed = true;
  }
  // A `core::fmt` symbol means a format!/to_string/Display crept into library code (≈ 12 KB gzip with
  // its float printing) or the build fell back to stable (panic messages).
  for (const wasm of Object.values(cargoWasm)) {
    if (existsSync(wasm) && readFileSync(wasm).includes("4core3fmt")) {
      console.log(`FAIL: core::fmt is linked into the module (${wasm}): build messages with concat and text::decimal`);
      failed = true;
    }
  }
  if (leaks.length) {
    console.log("FAIL: an app that uses only directClient or portClient ships the HTTP client");
    failed = true;
  }
  process.exit(failed ? 1 : 0);
}

/** The code of each function of a module with a name section: `[name, bytes]` (a body's bytes with
 * its size prefix), in the module's order. */
function functionSizes(bytes) {
  const r = new WasmReader(bytes);
  let imported = 0;
  const bodies = [];
  const names = new Map();
  for (const { id, end } of r.sections()) {
    if (id === 2) {
      for (let n = r.leb(); n > 0; n--) {
        r.name(); // the module's name, then the field's
        r.name();
        const kind = bytes[r.at++];
        if (kind === 0) (r.leb(), imported++);
        else if (kind === 1) (r.at++, bytes[r.at++] & 1 ? (r.leb(), r.leb()) : r.leb());
        else if (kind === 2) (bytes[r.at++] & 1 ? (r.leb(), r.leb()) : r.leb());
        else r.at += 2;
      }
    } else if (id === 10) {
      for (let n = r.leb(); n > 0; n--) {
        const from = r.at;
        const len = r.leb();
        r.at += len;
        bodies.push(r.at - from);
      }
    } else if (id === 0 && r.name() === "name") {
      while (r.at < end) {
        const sub = bytes[r.at++];
        const subEnd = r.leb() + r.at;
        if (sub === 1) {
          for (let n = r.leb(); n > 0; n--) {
            const index = r.leb();
            names.set(index, r.name());
          }
        }
        r.at = subEnd;
      }
    }
  }
  return bodies.map((b, i) => [names.get(i + imported) ?? `function ${i + imported}`, b]);
}

/** Where the module's bytes go, by crate and module: cargo's output through wasm-bindgen and wasm-opt
 * as the build does, keeping the function names; then what the MCP 2025-11-25 paths cost. */
function breakdown(wasm) {
  const dir = mkdtempSync(join(tmpdir(), "mcp-size-"));
  try {
    execFileSync("wasm-bindgen", ["--target", "web", "--out-dir", dir, "--out-name", "mcp_tasks_wasm", "--keep-debug", wasm]);
    const named = join(dir, "named.wasm");
    execFileSync(wasmOpt, [...wasmOptArgs, "--debuginfo", join(dir, "mcp_tasks_wasm_bg.wasm"), "-o", named]);
    const bytes = readFileSync(named);
    const functions = functionSizes(bytes);
    const by = new Map();
    for (const [name, size] of functions) {
      const item = name.replace(/\[[0-9a-f]+\]/g, "").replace(/^<+/, "");
      const path = item.match(/^([a-z_0-9]+)(?:::([a-z_0-9]+))?(?:::([a-z_0-9]+))?/);
      let key = path ? path[1] : item.slice(0, 24);
      if (path && key === "mcp_tasks_wasm") key += `::${path[2] ?? ""}::${path[3] ?? ""}`;
      if (item.includes("future_to_promise")) key = "the async exports' futures";
      by.set(key, (by.get(key) ?? 0) + size);
    }
    const total = functions.reduce((n, [, b]) => n + b, 0);
    console.log(`where the module's code goes (raw bytes of function bodies after wasm-opt, ${kb(total)} KB in all, by crate and module; top ${process.env.TOP ?? 25}):`);
    for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, +(process.env.TOP ?? 25))) console.log(`  ${String(v).padStart(7)}  ${k}`);
    // The functions that exist for MCP 2025-11-25 alone (its protocol reading, the session gate, the
    // server's requests heard and answered, the pieces of the machines only that generation takes);
    // its branches inside shared functions are not counted.
    const corePaths = /proto::core_tasks|engine::session|inputs::hear|inputs::refusal|::on_page|::on_server_request|::on_core_answer|::on_core_result|::core_answers|::send_long|::on_result_stream|Generation|Opening/;
    const core = functions.filter(([name]) => corePaths.test(name));
    const coreBytes = core.reduce((n, [, b]) => n + b, 0);
    const share = coreBytes / total;
    console.log(`the MCP 2025-11-25 paths: ${core.length} functions of their own, ${kb(coreBytes)} KB raw (${(share * 100).toFixed(1)}% of the code, ≈ ${kb(share * s.wasm.gzip)} KB of the module's gzip) — its branches inside shared functions (the machines' handlers, the run, the arguments) come on top, and so do js/generation.js and the session code of the transports`);
    for (const [name, size] of core.sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${String(size).padStart(7)}  ${name.replace(/\[[0-9a-f]+\]/g, "").slice(0, 110)}`);
  } catch (e) {
    console.log(`(no breakdown: ${e?.message ?? e})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
