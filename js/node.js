// mcp-tasks-wasm — Node entry (ESM, Node >= 20). The module is ready on import: no init call.
import { readFileSync } from "node:fs";
import { initSync } from "./mcp_tasks_wasm.js";

initSync({ module: readFileSync(new URL("./mcp_tasks_wasm_bg.wasm", import.meta.url)) });

export { channelClient } from "./channel.js";
export { directClient } from "./direct.js";
export { httpClient } from "./http.js";
export { awaitTask, callAndAwait, callTool, cancelTask, capabilities, getTask, liveCounts, pendingTasks, resumeTasks, serverSupports, updateTask, validateCreateMessageResult, validateElicitResult, validateListRootsResult } from "./mcp_tasks_wasm.js";
export { extensionStorageJournal, indexedDbJournal, memoryJournal } from "./stores.js";
export { portClient } from "./port.js";
export { sdkTransportClient } from "./sdk.js";
export { initSync } from "./mcp_tasks_wasm.js";

/** Already initialised in Node; kept so code shared with the browser can `await init()` anywhere. */
export default async function init() {}
export { init };

/** The tasks extension identifier. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
