// A call made before the module is loaded (the browser entry before `await init()`) is a clear
// mistake, never a synchronous TypeError about `undefined`: an async function returns a promise rejected
// with an Error that says to call `init()`; a plain one throws that Error. Then `initSync` loads it and
// the same functions work — after refusing the other entry's `.wasm` with an Error naming the right one.
// (This file imports only the browser entries, so nothing loaded them before.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const dir = process.env.PKG_DIR ?? "pkg";
const entries = [["core", `../../${dir}/index.js`, `../../${dir}/mcp_tasks_wasm_bg.wasm`], ["journal", `../../${dir}/journal/index.js`, `../../${dir}/journal/mcp_tasks_wasm_journal_bg.wasm`]];

for (const [name, entry, wasm] of entries) {
  test(`${name} entry: before init every async function rejects (never throws), plain ones throw a clear Error`, async () => {
    const lib = await import(new URL(entry, import.meta.url).href);
    const client = lib.directClient(() => ({}));
    const message = /^mcp-tasks-wasm: (\w+)\(\) called before init\(\): `await init\(\)` \(or initSync\) first$/;
    for (const [fn, args] of [["callTool", [client, "x"]], ["awaitTask", [client, "t1"]], ["callAndAwait", [client, "x"]], ["getTask", [client, "t1"]], ["updateTask", [client, "t1", {}]], ["cancelTask", [client, "t1"]]]) {
      let p;
      assert.doesNotThrow(() => { p = lib[fn](...args); }, `${fn} threw synchronously`);
      await assert.rejects(p, (e) => e instanceof Error && message.test(e.message) && e.message.includes(`${fn}()`), fn);
    }
    for (const fn of ["capabilities", "serverSupports", "validateElicitResult", "liveCounts"]) {
      assert.throws(() => lib[fn]({}), (e) => e instanceof Error && message.test(e.message) && e.message.includes(`${fn}()`), fn);
    }
    if (name === "journal") await assert.rejects(lib.pendingTasks(lib.memoryJournal()), (e) => message.test(e.message));
    // The other entry's .wasm: refused before it runs, with an Error naming this entry's file (as bytes,
    // as a compiled module, sync and async); the module is still not loaded, and the right file loads.
    const wrong = readFileSync(new URL(entries.find(([n]) => n !== name)[2], import.meta.url));
    const right = name === "core" ? "mcp-tasks-wasm/mcp_tasks_wasm_bg.wasm" : "mcp-tasks-wasm/journal/mcp_tasks_wasm_journal_bg.wasm";
    const names = (e) => e instanceof Error && e.message.includes(`this entry loads ${right}`);
    assert.throws(() => lib.initSync({ module: wrong }), names);
    assert.throws(() => lib.initSync(wrong), names, "the bare (deprecated) argument too");
    await assert.rejects(lib.init({ module_or_path: wrong }), names);
    await assert.rejects(lib.default({ module_or_path: new WebAssembly.Module(wrong) }), names);
    assert.throws(() => lib.liveCounts(), (e) => message.test(e.message), "still not loaded");
    lib.initSync({ module: readFileSync(new URL(wasm, import.meta.url)) });
    assert.deepEqual(lib.capabilities({}), { extensions: { "io.modelcontextprotocol/tasks": {} } });
    const out = await lib.callTool(lib.directClient(() => ({ content: [{ type: "text", text: "hi" }] })), "echo");
    assert.equal(out.tag, "ok");
    assert.equal(lib.resultText(out.result), "hi");
  });
}
