// mcp-tasks-wasm/journal — browser / bundler / worker entry (ESM): everything `mcp-tasks-wasm` has,
// on a module built with the task journal (the `journal` option, pendingTasks, resumeTasks, the
// stores). An app uses one entry or the other. Call `await init()` once first (it fetches
// mcp_tasks_wasm_journal_bg.wasm next to this file), or `initSync({module: bytes})`; both refuse the
// core entry's `.wasm` with an Error naming this entry's (load.js).
import glueInit, { initSync as glueInitSync } from "./mcp_tasks_wasm_journal.js";
import { loadersOf } from "../load.js";

export * from "../adapters.js";
export * from "./mcp_tasks_wasm_journal.js";
export * from "./stores.js";
const { init, initSync } = loadersOf("journal", glueInit, glueInitSync);
export { init as default, init, initSync };
