// mcp-tasks-wasm — browser / bundler / worker entry (ESM), without the task journal (that is
// `mcp-tasks-wasm/journal`). Call `await init()` once before using the library (it fetches the .wasm
// next to this file); in a service worker or wherever fetching is not possible, use
// `initSync({module: bytes})`. Exports: the module's functions as wasm-bindgen generated them, and the
// JS adapters.
export * from "./adapters.js";
export * from "./mcp_tasks_wasm.js";
export { default, default as init } from "./mcp_tasks_wasm.js";
