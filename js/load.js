// Loading an entry's module: `init()` and `initSync()` as wasm-bindgen generated them, checked against
// the other entry's `.wasm`. The two modules are one crate built with and without the task journal;
// given the wrong one, the glue fails with a LinkError naming a hashed import, or — the core module
// under the journal glue — loads, and every call fails later, obscurely. Here both fail at once with an
// Error naming the file the entry needs (`loadersOf`).

/** Each entry's `.wasm`, as the package exports it. */
const WASM = { core: "mcp-tasks-wasm/mcp_tasks_wasm_bg.wasm", journal: "mcp-tasks-wasm/journal/mcp_tasks_wasm_journal_bg.wasm" };

/**
 * `{init, initSync}` of `entry` ("core" or "journal") over the glue's own. A module given as bytes or a
 * `WebAssembly.Module` is checked before it is instantiated (the right one can still be loaded after);
 * one fetched from a URL, once instantiated (its exports: the journal build alone has `pendingTasks`).
 * The glue's LinkError (the journal's module under the core glue) becomes the same Error.
 */
export function loadersOf(entry, glueInit, glueInitSync) {
  const wrong = (names, cause) => {
    if (cause === undefined && names.includes("pendingTasks") === (entry === "journal")) return;
    throw new Error(`mcp-tasks-wasm: this entry loads ${WASM[entry]}, not the other entry's .wasm`, { cause });
  };
  /** The init argument with its bytes compiled and checked (`key`: `module_or_path` or `module`). */
  const checked = (arg, key) => {
    const value = arg?.constructor === Object ? arg[key] : arg;
    const module = value instanceof WebAssembly.Module ? value : ArrayBuffer.isView(value) || value instanceof ArrayBuffer ? new WebAssembly.Module(value) : undefined;
    if (!module) return arg;
    wrong(WebAssembly.Module.exports(module).map((e) => e.name));
    return { [key]: module };
  };
  /** The glue's instance, checked. */
  const loaded = (exports) => (wrong(Object.keys(exports)), exports);
  return {
    init: (arg) =>
      Promise.resolve()
        .then(() => glueInit(arg === undefined ? arg : checked(arg, "module_or_path")))
        .then(loaded, (e) => {
          if (e instanceof WebAssembly.LinkError) wrong([], e);
          throw e;
        }),
    initSync: (arg) => {
      try {
        return loaded(glueInitSync(checked(arg, "module")));
      } catch (e) {
        if (e instanceof WebAssembly.LinkError) wrong([], e);
        throw e;
      }
    },
  };
}
