// mcp-tasks-wasm — browser / bundler / worker entry (ESM).
// Call `await init()` once before using the library (it fetches the .wasm next to this file);
// in a service worker or wherever fetching is not possible, use `initSync({module: bytes})`.
export { channelClient } from "./channel.js";
export { directClient } from "./direct.js";
export { httpClient } from "./http.js";
export { awaitTask, callAndAwait, callTool, cancelTask, capabilities, getTask, liveCounts, pendingTasks, resumeTasks, serverSupports, updateTask, validateCreateMessageResult, validateElicitResult, validateListRootsResult } from "./mcp_tasks_wasm.js";
export { extensionStorageJournal, indexedDbJournal, memoryJournal } from "./stores.js";
export { portClient } from "./port.js";
export { sdkTransportClient } from "./sdk.js";
export { default, default as init, initSync } from "./mcp_tasks_wasm.js";

/** The tasks extension identifier. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
