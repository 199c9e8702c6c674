// mcp-tasks-wasm/journal — the journal entries' declarations (pkg/journal/index.d.ts and node.d.ts are
// copies of this file): everything `mcp-tasks-wasm` declares (../index.js), then what the module built
// with the task journal adds — its own callTool, awaitTask and callAndAwait (whose options take
// `journal`), pendingTasks, resumeTasks, the journal's types and stores — and its own init and initSync.
import type { Journal } from "./mcp_tasks_wasm_journal.js";
export * from "../index.js";
export { callTool, awaitTask, callAndAwait, pendingTasks, resumeTasks } from "./mcp_tasks_wasm_journal.js";
export type { CallToolOptions, AwaitTaskOptions, JournalEntry, Journal, JournalOptions } from "./mcp_tasks_wasm_journal.js";
export { default, init, initSync } from "../index.js";
/** A journal store in this realm's memory (lost with it). */
export declare function memoryJournal(): Journal;
/** A journal store in IndexedDB (browsers, workers): database `name` (default "mcp-tasks-wasm"). */
export declare function indexedDbJournal(name?: string): Journal;
/** A journal store in a WebExtension storage area (`chrome.storage.local`/`session`, `browser.storage.*`). */
export declare function extensionStorageJournal(area: { get(keys: string | null): Promise<Record<string, unknown>>; set(items: Record<string, unknown>): Promise<void>; remove(key: string): Promise<void> }): Journal;
