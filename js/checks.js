// The synchronous helpers of the API, each one call into the module (src/wasm/exports.rs, `helper`).
// None throws: a value that cannot be read reads as absent.
import { helper } from "./mcp_tasks_wasm.js";

/** `base` deep-merged with `{extensions: {"io.modelcontextprotocol/tasks": {}}}`, to use as a
 * client's `clientCapabilities`. `base` is not modified. */
export const capabilities = (base) => helper(0, base);

/** `true` when a `server/discover` result (or a `capabilities` object) advertises the tasks extension. */
export const serverSupports = (discoverResultOrCapabilities) => helper(1, discoverResultOrCapabilities);

/** Checks an `ElicitResult` (what a `form` or `url` handler answers): `{tag: "ok"}` or `{tag: "error", message}`. */
export const validateElicitResult = (value) => helper(2, value);

/** Checks a `CreateMessageResult` (what a `sampling` handler answers). */
export const validateCreateMessageResult = (value) => helper(3, value);

/** Checks a `ListRootsResult` (what a `roots` handler answers). */
export const validateListRootsResult = (value) => helper(4, value);
