// mcp-tasks-wasm — browser / bundler / worker entry (ESM), without the task journal (that is
// `mcp-tasks-wasm/journal`). Call `await init()` once before using the library (it fetches
// mcp_tasks_wasm_bg.wasm next to this file); in a service worker or wherever fetching is not possible,
// use `initSync({module: bytes})`. Both refuse the journal entry's `.wasm` with an Error naming this
// entry's (load.js). Exports: the module's functions as wasm-bindgen generated them, and the JS adapters.
import glueInit, { initSync as glueInitSync } from "./mcp_tasks_wasm.js";
import { loadersOf } from "./load.js";

export * from "./adapters.js";
export * from "./mcp_tasks_wasm.js";
const { init, initSync } = loadersOf("core", glueInit, glueInitSync);
export { init as default, init, initSync };
