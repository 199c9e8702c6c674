// One case of the hostile-values matrix in a Node process of its own (a case may poison the module
// for the rest of its process): `node tests/hostile/case.mjs <caseName>`. Imports the built package's
// journal entry (pkg/journal/node.js: every function, the journal's too, on the same code as the core
// entry; env PKG_DIR picks another build output), runs the case (tests/hostile/cases.mjs) and
// prints its result as one JSON line `{ok, ms, detail}` on stdout. Progress goes to stderr as
// `progress: …` lines (the runner quotes the last one when it has to kill a case).
// Uncaught exceptions and unhandled rejections fail the case (they are recorded, not fatal).
const name = process.argv[2];
const uncaught = [];
process.on("uncaughtException", (e) => uncaught.push(`uncaughtException: ${e?.name === "RuntimeError" ? "WebAssembly.RuntimeError " : ""}${e?.stack ?? e}`));
process.on("unhandledRejection", (e) => uncaught.push(`unhandledRejection: ${e?.stack ?? e}`));
const progress = (message) => process.stderr.write(`progress: ${message}\n`);

let result;
try {
  const dir = process.env.PKG_DIR ?? "pkg";
  progress(`importing ${dir}/journal/node.js`);
  const lib = await import(new URL(`../../${dir}/journal/node.js`, import.meta.url).href);
  const { runCase } = await import("./cases.mjs");
  result = await runCase(lib, name, { uncaught, progress });
} catch (e) {
  result = { ok: false, ms: 0, detail: `case setup: ${e?.stack ?? e}` };
}
process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
