// Builds the npm package into pkg/: the release wasm (cargo), its ESM glue and declarations
// (wasm-bindgen --target web), a size pass with npm binaryen's wasm-opt, and the entry files from js/.
// Skips the work when pkg/ is newer than every input. Prints the shipped size at the end.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
// PKG_OUT and CARGO_TARGET_DIR let a second checkout or session build without touching pkg/ and target/.
const pkg = process.env.PKG_OUT ? join(root, process.env.PKG_OUT) : join(root, "pkg");
const target = process.env.CARGO_TARGET_DIR || join(root, "target");
const wasmOut = join(pkg, "mcp_tasks_wasm_bg.wasm");
const glue = join(pkg, "mcp_tasks_wasm.js");
const entries = ["index.js", "node.js", "channel.js", "direct.js", "values.js", "errors.js", "http.js", "port.js", "sdk.js", "stdio.js", "stdio.d.ts"];
const declarations = ["index.d.ts", "node.d.ts"];
// The journal's stores (js/stores.js) are a wasm-bindgen snippet: the module imports the default
// store from it, so wasm-bindgen copies it under pkg/snippets/<crate>-<hash>/js/ and the glue imports
// it from there. pkg/stores.js re-exports that very module for the entries (one copy in a bundle).
const storesEntry = "stores.js";

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
const inputs = ["src", "js", "Cargo.toml", "Cargo.lock", "scripts/build.mjs"].map((p) => join(root, p));
const fresh = existsSync(wasmOut) && [...entries, ...declarations, storesEntry].every((e) => existsSync(join(pkg, e))) &&
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
  buildWasm(nightly);
  mkdirSync(pkg, { recursive: true });
  rmSync(join(pkg, "snippets"), { recursive: true, force: true }); // no stale snippet directories
  run("wasm-bindgen", [
    "--target", "web", "--out-dir", pkg, "--out-name", "mcp_tasks_wasm",
    "--remove-name-section", "--remove-producers-section",
    join(target, "wasm32-unknown-unknown/release/mcp_tasks_wasm.wasm"),
  ]);
  // npm binaryen's wasm-opt, never one from PATH (Debian's v108 silently breaks wasm-bindgen output).
  const wasmOpt = join(root, "node_modules/.bin/wasm-opt");
  const features = ["--enable-reference-types", "--enable-bulk-memory", "--enable-multivalue", "--enable-sign-ext",
    "--enable-nontrapping-float-to-int", "--enable-mutable-globals"];
  // A size pass on the module alone: the glue ships as wasm-bindgen generated it (an app's bundler
  // minifies it). `--converge` repeats -Oz until it gains nothing more (−0.2 KB gzip, a few seconds).
  // `--low-memory-unused` lets it fold `load(p + c)` into `load offset=c (p)` for small constants
  // (−0.35 KB gzip): the two differ only when `p + c` wraps past 4 GiB into the first KiB, which no
  // address this module computes does (Rust's objects never straddle the end of the address space,
  // and its stack-first layout puts data and heap at 1 MiB and above).
  run(wasmOpt, ["-Oz", "--converge", "--low-memory-unused", "--strip-target-features", ...features, wasmOut, "-o", wasmOut]);
  for (const e of entries) copyFileSync(join(root, "js", e), join(pkg, e));
  writeStoresEntry();
  writeEntryDeclarations();
  writeFileSync(toolchainMark, mark);
} else {
  console.log("pkg/ is up to date");
}

/** pkg/stores.js: `export *` from the snippet wasm-bindgen emitted for js/stores.js (its directory
 * name carries a hash of the crate, read from what was emitted). */
function writeStoresEntry() {
  const dirs = readdirSync(join(pkg, "snippets")).filter((d) => existsSync(join(pkg, "snippets", d, "js", storesEntry)));
  if (dirs.length !== 1) throw new Error(`expected one snippet directory with js/${storesEntry}, found ${dirs.length}`);
  writeFileSync(join(pkg, storesEntry), `// The task journal's stores (the module the wasm glue imports the default store from).
export * from "./snippets/${dirs[0]}/js/${storesEntry}";
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
 * changes. `scripts/setup.sh` installs nightly and its `rust-src`; without them (or with `--demo`)
 * the build uses stable, and the size budget in `npm test` reports the bigger module.
 */
function buildWasm(nightly) {
  const args = ["build", "--release", "--lib", "--target", "wasm32-unknown-unknown"];
  if (!nightly) return run("cargo", args);
  run("cargo", [`+${NIGHTLY}`, ...args, "-Z", "build-std=std,panic_abort"],
    { ...process.env, RUSTFLAGS: "-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none" });
}

/**
 * The entries' declarations, generated from the glue's: every API function and type by name (so the
 * raw wasm-bindgen internals — InitOutput and its `any`s — stay out of the public API), plus init,
 * initSync and TASKS_EXTENSION.
 */
function writeEntryDeclarations() {
  const glueTypes = readFileSync(join(pkg, "mcp_tasks_wasm.d.ts"), "utf8");
  const internal = new Set(["initSync", "InitInput", "InitOutput", "SyncInitInput"]);
  const names = (re) => [...glueTypes.matchAll(re)].map((m) => m[1]).filter((n) => !internal.has(n));
  const functions = names(/^export function (\w+)/gm);
  const types = names(/^export (?:interface|type) (\w+)/gm);
  const list = (xs) => xs.map((x) => `  ${x},`).join("\n");
  const text = `// mcp-tasks-wasm — entry declarations (generated by scripts/build.mjs from the wasm-bindgen output).
import type { ChannelClient, ChannelClientOptions, DirectClientOptions, DirectHandler, HttpClient, HttpClientOptions, HttpRequestOptions, JsonRpcNotification, SdkTransport, SdkTransportClientOptions, TasksClient, Journal } from "./mcp_tasks_wasm.js";
export {
${list(functions)}
} from "./mcp_tasks_wasm.js";
export type {
${list(types)}
} from "./mcp_tasks_wasm.js";

/** What \`init\` accepts: where to load the .wasm from (default: next to this file), or its bytes. */
export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

/**
 * Loads and instantiates the wasm module. Browsers: call it once before anything else (it fetches
 * mcp_tasks_wasm_bg.wasm next to this file); calling it again is a no-op. Node: already done on import.
 */
declare function init(moduleOrPath?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<void>;
export default init;
export { init };

/** Instantiates the module synchronously from its bytes (e.g. in an extension service worker). */
export declare function initSync(module: { module: BufferSource | WebAssembly.Module } | BufferSource | WebAssembly.Module): void;

/** The tasks extension identifier. */
export declare const TASKS_EXTENSION: "io.modelcontextprotocol/tasks";

/** Builds a Streamable HTTP client (MCP 2026-07-28) for the endpoint \`url\` over \`fetch\` (the global
 * one, or \`options.fetch\`), on the same message channel as the other transports: every request a POST
 * with the protocol headers (\`Mcp-Name\` base64-sentinel encoded when not plain ASCII) and the 2026-07-28
 * \`_meta\`; JSON or event-stream answers; an {@link McpHttpError} when no JSON-RPC answer came. A JS
 * module of its own: an app that does not import it does not ship it. Throws a \`TypeError\` for bad
 * arguments. */
export declare function httpClient(url: string | URL, options?: HttpClientOptions): HttpClient;
/** Builds a client over a message pair: \`send(message)\` carries one JSON-RPC message to the server; the
 * client's \`receive(message)\` takes each one that arrives and \`close(error?)\` ends the channel. Options:
 * \`clientInfo\`, \`clientCapabilities\`, \`inputHandlers\`, \`requestTimeoutMs\`, \`idPrefix\` (ids go out as
 * strings \`"<idPrefix><n>"\`). A JS module of its own (\`channel.js\`), under every message transport.
 * Throws a \`TypeError\` for bad arguments, prefixed with \`name\` (default "channelClient"). */
export declare function channelClient(send: (message: object) => void, options?: ChannelClientOptions, name?: string): ChannelClient;
/** An in-process client: \`request\` calls \`handler(method, params, {signal, timeoutMs?})\` (sync or async; a
 * thrown \`{code, message, data?}\` is that JSON-RPC error), \`listen\` calls
 * \`handler("subscriptions/listen", params, {signal})\` for an async iterable; params get the protocol
 * version in \`_meta\` when they lack it. \`clientCapabilities\` and \`inputHandlers\` are copied onto the
 * client. A JS module of its own (\`direct.js\`). Throws a \`TypeError\` when \`handler\` is not a function. */
export declare function directClient(handler: DirectHandler, options?: DirectClientOptions): TasksClient;
/** A journal store in this realm's memory (lost with it). */
export declare function memoryJournal(): Journal;
/** A journal store in IndexedDB (browsers, workers): database \`name\` (default "mcp-tasks-wasm"). */
export declare function indexedDbJournal(name?: string): Journal;
/** A journal store in a WebExtension storage area (\`chrome.storage.local\`/\`session\`, \`browser.storage.*\`). */
export declare function extensionStorageJournal(area: { get(keys: string | null): Promise<Record<string, unknown>>; set(items: Record<string, unknown>): Promise<void>; remove(key: string): Promise<void> }): Journal;
/** Options of \`portClient\`. */
export interface PortClientOptions extends ChannelClientOptions {
  /** The origin messages must come from (required for a window; then also the \`targetOrigin\`). */
  origin?: string;
  /** Set as the client's \`id\` (the server, for the task journal). */
  id?: string;
}
/** The parts of a port the client uses (a MessagePort, a Worker, a window, a WebExtension runtime.Port). */
export type MessagePortLike =
  | { postMessage(message: unknown): void; addEventListener(type: "message", listener: (e: MessageEvent) => void): void; removeEventListener(type: "message", listener: (e: MessageEvent) => void): void; start?(): void }
  | { postMessage(message: unknown, targetOrigin: string): void; window: unknown }
  | { postMessage(message: unknown): void; onMessage: { addListener(f: (m: unknown) => void): void; removeListener?(f: (m: unknown) => void): void }; onDisconnect?: { addListener(f: () => void): void; removeListener?(f: () => void): void } };
/** A client over a transport of the official TypeScript SDK (\`send\`, optional \`start\`, \`onmessage\`,
 * \`onerror\`, \`onclose\`), on the message channel: raw JSON-RPC through \`transport.send(message,
 * {requestSignal, onRequestStreamEnd})\`, responses matched by (string) id, listen supported, existing
 * handlers chained. Throws a \`TypeError\` for bad arguments. */
export declare function sdkTransportClient(transport: SdkTransport, options?: SdkTransportClientOptions): TasksClient & {
  request(method: string, params?: Record<string, unknown>, options?: HttpRequestOptions): Promise<Record<string, unknown>>;
  listen(params: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<AsyncIterableIterator<JsonRpcNotification>>;
};
/** A client over a port: JSON-RPC objects posted as they are (structured clone). A WebExtension
 * port's disconnect closes the channel (pending requests fail as a transport error). Throws a
 * \`TypeError\` for bad arguments. */
export declare function portClient(port: MessagePortLike, options?: PortClientOptions): ChannelClient & { close(): void };
`;
  for (const d of declarations) writeFileSync(join(pkg, d), text);
}

const size = (f) => {
  const b = readFileSync(f);
  return { raw: b.length, gzip: gzipSync(b, { level: 9 }).length };
};
const w = size(wasmOut);
const g = size(glue);
const kb = (n) => (n / 1024).toFixed(1) + " KB";
console.log(`pkg: wasm ${kb(w.raw)} raw / ${kb(w.gzip)} gzip; glue ${kb(g.raw)} raw / ${kb(g.gzip)} gzip`);
// The figure the budget is about: an app's bundle (scripts/size.mjs; `npm test` checks it).
run("node", [join(root, "scripts/size.mjs")]);
