// mcp-tasks-wasm/journal — Node entry (ESM, Node >= 20): everything `mcp-tasks-wasm` has, on a module
// built with the task journal. The module is ready on import: no init call.
import { readFileSync } from "node:fs";
import { initSync } from "./mcp_tasks_wasm_journal.js";

initSync({ module: readFileSync(new URL("./mcp_tasks_wasm_journal_bg.wasm", import.meta.url)) });

export * from "../adapters.js";
export * from "./mcp_tasks_wasm_journal.js";
export * from "./stores.js";

/** Already initialised in Node; kept so code shared with the browser can `await init()` anywhere. */
export default async function init() {}
export { init };
