// mcp-tasks-wasm — entry declarations. The API and its types live in the generated
// mcp_tasks_wasm.d.ts (written by hand in src/wasm/types.d.ts and on each export).
export * from "./mcp_tasks_wasm.js";
export { default, default as init, initSync } from "./mcp_tasks_wasm.js";

/** The tasks extension identifier. */
export declare const TASKS_EXTENSION: "io.modelcontextprotocol/tasks";
