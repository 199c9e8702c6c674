// The trap scenario in a Node process of its own (the trap poisons the module for the process). Node
// gives a library no event for a trap in a timer callback (and the library installs no process-wide
// handler): the test itself catches the uncaught RuntimeError, as an application's handler would.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { trapScenario } from "./scenario.mjs";

const pkg = process.argv[2];
const lib = await import(join(pkg, "mcp_tasks_wasm.js"));
lib.initSync({ module: readFileSync(join(pkg, "mcp_tasks_wasm_bg.wasm")) });
const uncaught = [];
process.on("uncaughtException", (e) => uncaught.push(e));
const result = await trapScenario(lib, { expectAtOnce: false });
if (uncaught.length !== 1 || !(uncaught[0] instanceof WebAssembly.RuntimeError)) {
  result.ok = false;
  result.detail += `; expected one uncaught RuntimeError (the trap), got ${uncaught.map(String).join(", ") || "none"}`;
}
console.log(JSON.stringify(result));
