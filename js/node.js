// mcp-tasks-wasm — Node entry (ESM, Node >= 20), without the task journal (that is
// `mcp-tasks-wasm/journal`). The module is ready on import: no init call.
import { readFileSync } from "node:fs";
import { initSync } from "./mcp_tasks_wasm.js";

initSync({ module: readFileSync(new URL("./mcp_tasks_wasm_bg.wasm", import.meta.url)) });

export * from "./adapters.js";
export * from "./mcp_tasks_wasm.js";

/** Already initialised in Node; kept so code shared with the browser can `await init()` anywhere. */
export default async function init() {}
export { init };
