// Where scripts/build.mjs keeps cargo's output of each build of the module ("core", "journal") with
// its function names, for scripts/size.mjs (its `core::fmt` check and `--breakdown`).
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** target/wasm32-unknown-unknown/release/mcp_tasks_wasm.<name>.wasm (CARGO_TARGET_DIR respected). */
export const cargoOutput = (name) =>
  join(process.env.CARGO_TARGET_DIR || join(root, "target"), `wasm32-unknown-unknown/release/mcp_tasks_wasm.${name}.wasm`);
