// 6. Shipped size: what a browser app ships. Each app is a two-line entry bundled by esbuild (bundle,
// minify, ESM, platform "browser", tree shaking), measured raw and gzip -9 (and brotli), plus for ours
// the .wasm the glue fetches (not part of the JS bundle). Also builds the page's ext-tasks bundle.
import { build } from "esbuild";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const APPS = {
  "ours-http": `import { httpClient, callAndAwait } from "mcp-tasks-wasm";
export const run = (url) => callAndAwait(httpClient(url), "slow", { ms: 300 });
`,
  // The same app as a page that works: the browser entry needs `await init()` before the first call,
  // and the two-line app above never calls it, so its bundle leaves out the glue's instantiation code.
  "ours-http-init": `import init, { httpClient, callAndAwait } from "mcp-tasks-wasm";
export const run = async (url) => { await init(); return callAndAwait(httpClient(url), "slow", { ms: 300 }); };
`,
  // The same working app on the journal entry (the module built with the task journal).
  "ours-journal-init": `import init, { httpClient, callAndAwait } from "mcp-tasks-wasm/journal";
export const run = async (url) => { await init(); return callAndAwait(httpClient(url), "slow", { ms: 300 }); };
`,
  "ours-direct": `import { directClient, callAndAwait } from "mcp-tasks-wasm";
export const run = (handler) => callAndAwait(directClient(handler), "slow", { ms: 300 });
`,
  "ours-port": `import { portClient, callAndAwait } from "mcp-tasks-wasm";
export const run = (port) => callAndAwait(portClient(port), "slow", { ms: 300 });
`,
  // The same app on the official SDK client + ext-tasks. (Against a 2026-07-28 server the session also
  // needs the host's own `rawDispatch` and `v2RequestFraming`, which would add host code: not counted.)
  "theirs-http": `import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"; import { createTaskSessionFromClient } from "@modelcontextprotocol/ext-tasks/client";
export const run = async (url) => { const c = new Client({ name: "app", version: "1.0.0" }); await c.connect(new StreamableHTTPClientTransport(new URL(url))); return (await (await createTaskSessionFromClient(c, { endpointId: url }).callTool("slow", { ms: 300 })).settle()).outcome; };
`,
};

const gz = (b) => zlib.gzipSync(b, { level: 9 }).length;
const br = (b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

async function bundle(root, entryFile, outfile) {
  const r = await build({
    entryPoints: [entryFile], outfile, bundle: true, minify: true, format: "esm", platform: "browser",
    target: "es2022", write: false, logLevel: "silent", absWorkingDir: root,
    alias: { "mcp-tasks-wasm/journal": path.join(root, "pkg/journal/index.js"), "mcp-tasks-wasm": path.join(root, "pkg/index.js") },
  });
  const js = r.outputFiles.find((f) => f.path.endsWith(".js")).contents;
  writeFileSync(outfile, js);
  return Buffer.from(js);
}

/** Bundles @modelcontextprotocol/ext-tasks/client for the bench page (bench/.out/ext-tasks-client.js). */
export async function buildPageBundle(root) {
  const dir = path.join(root, "bench/.out");
  mkdirSync(dir, { recursive: true });
  const entry = path.join(dir, "ext-tasks-entry.mjs");
  writeFileSync(entry, `export * from "@modelcontextprotocol/ext-tasks/client";\n`);
  await build({
    entryPoints: [entry], outfile: path.join(dir, "ext-tasks-client.js"), bundle: true, minify: true,
    format: "esm", platform: "browser", target: "es2022", logLevel: "silent", absWorkingDir: root,
  });
}

export async function measureSizes(root) {
  const dir = path.join(root, "bench/.out/size");
  mkdirSync(dir, { recursive: true });
  const sized = (file) => {
    const b = readFileSync(path.join(root, file));
    return { bytes: b, raw: b.length, gzip: gz(b), brotli: br(b) };
  };
  const core = sized("pkg/mcp_tasks_wasm_bg.wasm");
  const withJournal = sized("pkg/journal/mcp_tasks_wasm_journal_bg.wasm");
  const out = { wasm: { raw: core.raw, gzip: core.gzip, brotli: core.brotli }, journalWasm: { raw: withJournal.raw, gzip: withJournal.gzip, brotli: withJournal.brotli }, apps: {} };
  for (const [name, code] of Object.entries(APPS)) {
    const entry = path.join(dir, `${name}.entry.mjs`);
    writeFileSync(entry, code);
    const js = await bundle(root, entry, path.join(dir, `${name}.js`));
    const text = js.toString("utf8");
    const app = { js: { raw: js.length, gzip: gz(js), brotli: br(js) } };
    if (name.startsWith("ours")) {
      const w = name.includes("journal") ? withJournal : core;
      const wasmText = w.bytes.toString("latin1");
      app.total = { raw: js.length + w.raw, gzip: app.js.gzip + w.gzip, brotli: app.js.brotli + w.brotli };
      // HTTP client markers: in the JS bundle (js/http.js's strings) and in the wasm (none since the HTTP client left it).
      app.httpInJs = ["retry-after", "text/event-stream", "Mcp-Method"].filter((m) => text.includes(m));
      app.httpInWasm = ["text/event-stream", "Mcp-Method", "MCP-Protocol-Version"].filter((m) => wasmText.includes(m));
    } else {
      app.total = app.js;
    }
    out.apps[name] = app;
  }
  return out;
}
