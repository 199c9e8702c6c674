import assert from "node:assert/strict";

// The package under test: pkg/ as built by `npm run build` (PKG_DIR picks another build output).
const dir = process.env.PKG_DIR ?? "pkg";
export const lib = await import(new URL(`../../${dir}/node.js`, import.meta.url).href);
/** The journal entry (`mcp-tasks-wasm/journal`): the module built with the task journal. */
export const journalLib = await import(new URL(`../../${dir}/journal/node.js`, import.meta.url).href);

/** What `p` rejects with (the test fails when it resolves). */
export async function rejection(p) {
  try {
    const v = await p;
    assert.fail(`expected a rejection, got ${JSON.stringify(v)}`);
  } catch (e) {
    if (e?.code === "ERR_ASSERTION") throw e;
    return e;
  }
}
