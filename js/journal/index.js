// mcp-tasks-wasm/journal — browser / bundler / worker entry (ESM): everything `mcp-tasks-wasm` has,
// on a module built with the task journal (the `journal` option, pendingTasks, resumeTasks, the
// stores). An app uses one entry or the other. Call `await init()` once first (it fetches the .wasm
// next to this file), or `initSync({module: bytes})`.
export * from "../adapters.js";
export * from "./mcp_tasks_wasm.js";
export * from "./stores.js";
export { default, default as init } from "./mcp_tasks_wasm.js";
