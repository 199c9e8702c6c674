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
  /** The Error of this entry given the other entry's module (`cause`: the glue's LinkError, if any). */
  const refused = (cause) => new Error(`mcp-tasks-wasm: this entry loads ${WASM[entry]}, not the other entry's .wasm`, { cause });
  /** Throws `refused()` unless a module's export `names` are this entry's. */
  const check = (names) => {
    if (names.includes("pendingTasks") !== (entry === "journal")) throw refused();
  };
  /** Rethrows what the glue threw, its LinkError as `refused`. */
  const rethrow = (e) => {
    throw e instanceof WebAssembly.LinkError ? refused(e) : e;
  };
  /** The init argument with its bytes compiled and checked (`key`: `module_or_path` or `module`). */
  const checked = (arg, key) => {
    const value = arg?.constructor === Object ? arg[key] : arg;
    const module = value instanceof WebAssembly.Module ? value : ArrayBuffer.isView(value) || value instanceof ArrayBuffer ? new WebAssembly.Module(value) : undefined;
    if (!module) return arg;
    check(WebAssembly.Module.exports(module).map((e) => e.name));
    return { [key]: module };
  };
  /** The glue's instance, checked. */
  const loaded = (exports) => (check(Object.keys(exports)), exports);
  return {
    init: (arg) =>
      Promise.resolve()
        .then(() => glueInit(arg === undefined ? arg : checked(arg, "module_or_path")))
        .then(loaded, rethrow),
    initSync: (arg) => {
      let exports;
      try {
        exports = glueInitSync(checked(arg, "module"));
      } catch (e) {
        rethrow(e);
      }
      return loaded(exports);
    },
  };
}
