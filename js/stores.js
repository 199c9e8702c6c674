// The task journal's stores: where the journal keeps its entries (the `Journal` interface: async
// `get(key)`, `put(key, entry)`, `delete(key)` and `list()`). They only move entries in and out of
// storage; everything the journal decides (what is recorded when, resuming, the single waiter across
// tabs, the answer hash) is Rust (src/shell/journal). The module imports nothing: the wasm module
// imports `indexedDbJournal` from it (the default store, `journal: true`), and wasm-bindgen copies it
// alone under pkg/snippets/.

const PREFIX = "mcp-tasks-wasm:";

/** A callback that does nothing (`promise.then(nothing)` drops a value). */
const nothing = () => {};

/** A store in this realm's memory (lost with it): for tests, and for Node programs that persist elsewhere. */
export function memoryJournal() {
  const m = new Map();
  return {
    get: async (key) => m.get(key),
    put: async (key, entry) => void m.set(key, entry),
    delete: async (key) => void m.delete(key),
    list: async () => [...m.values()],
  };
}

/** A store in IndexedDB (browsers and workers): database `name` (default "mcp-tasks-wasm"), object
 * store "tasks". Entries must be structured-cloneable (statuses and answers as they arrived are). */
export function indexedDbJournal(name = "mcp-tasks-wasm") {
  if (typeof name !== "string" || name === "") throw new TypeError("indexedDbJournal: name must be a non-empty string");
  let db;
  const open = () => (db ??= new Promise((resolve, reject) => {
    const req = globalThis.indexedDB.open(name, 1);
    req.onupgradeneeded = () => req.result.createObjectStore("tasks");
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  }).catch((e) => {
    db = undefined;
    throw e;
  }));
  const run = async (mode, f) => {
    const tx = (await open()).transaction("tasks", mode);
    const req = f(tx.objectStore("tasks"));
    return new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = tx.onabort = () => reject(tx.error ?? req.error);
    });
  };
  return {
    get: (key) => run("readonly", (s) => s.get(key)),
    put: (key, entry) => run("readwrite", (s) => s.put(entry, key)).then(nothing),
    delete: (key) => run("readwrite", (s) => s.delete(key)).then(nothing),
    list: () => run("readonly", (s) => s.getAll()),
  };
}

/** A store in a WebExtension storage area (`chrome.storage.local` or `.session`, `browser.storage.*`):
 * one item per task, named `"mcp-tasks-wasm:" + key`. */
export function extensionStorageJournal(area) {
  if (!area || typeof area.get !== "function" || typeof area.set !== "function" || typeof area.remove !== "function") {
    throw new TypeError("extensionStorageJournal: area must be a storage area (chrome.storage.local, chrome.storage.session, …)");
  }
  return {
    get: async (key) => (await area.get(PREFIX + key))?.[PREFIX + key],
    put: (key, entry) => Promise.resolve(area.set({ [PREFIX + key]: entry })).then(nothing),
    delete: (key) => Promise.resolve(area.remove(PREFIX + key)).then(nothing),
    list: async () => Object.entries((await area.get(null)) ?? {}).filter(([k]) => k.startsWith(PREFIX)).map(([, v]) => v),
  };
}
