// One case of the robustness matrix (tests/robust/cases.mjs) in a Node process of its own:
// `node tests/robust/case.mjs <case>` with env ROBUST_HOME and ROBUST_OTHER (the servers' origins,
// tests/robust/server.mjs) and PKG_DIR (default pkg). Imports the built package's Node entry and its
// stdio entry, runs the case and prints its result as one JSON line `{ok, ms, detail}` on stdout;
// progress goes to stderr as `progress: …` lines. An uncaught exception or unhandled rejection fails
// the case.
const name = process.argv[2];
const uncaught = [];
process.on("uncaughtException", (e) => uncaught.push(`uncaughtException: ${e?.stack ?? e}`));
process.on("unhandledRejection", (e) => uncaught.push(`unhandledRejection: ${e?.stack ?? e}`));
const progress = (message) => process.stderr.write(`progress: ${message}\n`);

let result;
try {
  const dir = process.env.PKG_DIR ?? "pkg";
  const lib = await import(new URL(`../../${dir}/node.js`, import.meta.url).href);
  const stdio = await import(new URL(`../../${dir}/stdio.js`, import.meta.url).href);
  const { runCase } = await import("./cases.mjs");
  const home = process.env.ROBUST_HOME;
  const key = `${name}-node-${process.pid}`;
  const hits = async (k) => (await fetch(`${home}/hits?key=${encodeURIComponent(k)}`)).json();
  result = await runCase(name, { lib, stdio, env: "node", home, other: process.env.ROBUST_OTHER, key, hits, progress });
  if (uncaught.length) result = { ok: false, ms: result.ms, detail: `${result.detail}; ${uncaught.slice(0, 2).join(" | ")}` };
} catch (e) {
  result = { ok: false, ms: 0, detail: `case setup: ${e?.stack ?? e}` };
}
process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
