// stdioClient (mcp-tasks-wasm/stdio) against the project's test server over stdio: polling and listen
// waits on the message channel, notifications/cancelled on abort, a non-JSON stdout line reported and
// skipped, a server that exits mid-wait (transport outcome with its exit code and last stderr lines),
// close(), and the {stdin, stdout} form.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { lib, rejection } from "./pkg.mjs";

const { stdioClient } = await import(new URL(`../../${process.env.PKG_DIR ?? "pkg"}/stdio.js`, import.meta.url).href);
const { callAndAwait, callTool, awaitTask, liveCounts } = lib;
const server = fileURLToPath(new URL("../server/stdio.mjs", import.meta.url));

function start(extra = []) {
  const logs = [];
  const client = stdioClient(process.execPath, [server, "--poll-ms", "20", ...extra], { onLog: (line, from) => logs.push([from, line]) });
  const got = (method) => logs.filter(([from, l]) => from === "stderr" && l.startsWith(`got ${method} `)).length;
  return { client, logs, got };
}

test("a task over stdio, polling and listening; a non-JSON stdout line is reported and skipped", async () => {
  const { client, logs, got } = start(["--noise"]);
  try {
    const out = await callAndAwait(client, "slow", { ms: 80 });
    assert.equal(out.tag, "ok");
    assert.equal(out.result.content[0].text, "slept 80 ms");
    assert.deepEqual(logs.filter(([from]) => from === "stdout"), [["stdout", "this line is not JSON"]]);
    const created = await callTool(client, "slow", { ms: 150 });
    const before = got("tasks/get");
    const listened = await awaitTask(client, created.status, { listen: true });
    assert.equal(listened.tag, "ok");
    assert.equal(got("tasks/get") - before, 1, "listen over stdio: exactly one tasks/get");
    assert.equal(got("subscriptions/listen"), 1);
  } finally {
    await client.close();
  }
});

test("an abort sends notifications/cancelled for the request id; the channel keeps working", async () => {
  const { client, got } = start();
  try {
    const created = await callTool(client, "forever");
    const ac = new AbortController();
    const waiting = awaitTask(client, created.status, { signal: ac.signal, listen: true });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(got("subscriptions/listen"), 1);
    ac.abort("stop");
    assert.equal(await rejection(waiting), "stop");
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(got("notifications/cancelled"), 1, "closing the stream cancelled the listen on the server");
    // A request given up (its signal aborted before the answer) is cancelled on the server too.
    const gone = new AbortController();
    const asked = client.request("ping", {}, { signal: gone.signal });
    gone.abort();
    assert.equal((await rejection(asked)).name, "McpChannelError");
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(got("notifications/cancelled"), 2);
    assert.equal((await callAndAwait(client, "echo", { text: "still" })).tag, "ok");
  } finally {
    await client.close();
  }
});

test("a server that exits mid-wait: the transport outcome with its exit code and last stderr lines, at once", async () => {
  const { client } = start(["--exit-after-ms", "150"]);
  const created = await callTool(client, "forever");
  const started = performance.now();
  const out = await awaitTask(client, created.status, { timeoutMs: 5000 });
  assert.equal(out.tag, "error");
  assert.equal(out.error.code, -32000);
  assert.equal(out.error.kind, "transport");
  assert.equal(out.error.data.exitCode, 3);
  assert.match(out.error.data.stderr, /about to exit on purpose/);
  assert.ok(performance.now() - started < 1000, "not re-issued: a closed channel is not transient");
  assert.equal((await rejection(client.request("ping", {}))).name, "McpStdioError");
  assert.deepEqual(liveCounts(), { runs: 0, requests: 0, asks: 0, streams: 0, timers: 0, calls: 0, failed: null });
});

test("close() ends stdin and the server exits; the {stdin, stdout} form over a process of our own", async () => {
  const { client } = start();
  assert.equal((await callAndAwait(client, "echo", { text: "a" })).tag, "ok");
  const t0 = performance.now();
  await client.close();
  assert.ok(performance.now() - t0 < 1500, "the server left on stdin EOF");
  assert.equal(typeof client.pid, "number");
  assert.match(client.id, /stdio\.mjs/);

  const proc = spawn(process.execPath, [server], { stdio: ["pipe", "pipe", "pipe"] });
  const own = stdioClient(proc, { id: "my-server" });
  try {
    assert.equal(own.id, "my-server");
    const out = await callAndAwait(own, "echo", { text: "own" });
    assert.equal(out.result.content[0].text, "own");
  } finally {
    await own.close();
    proc.kill();
  }
});

test("bad arguments throw a TypeError", () => {
  assert.throws(() => stdioClient(), TypeError);
  assert.throws(() => stdioClient(""), TypeError);
  assert.throws(() => stdioClient("node", "not an array"), TypeError);
  assert.throws(() => stdioClient("node", [], { stderr: "loud" }), TypeError);
  assert.throws(() => stdioClient("node", [], { onLog: 1 }), TypeError);
});

/** A CLI in a process group of its own (as a terminal runs one): it starts the test server over stdio
 * (`ownProcessGroup` as given), waits on `forever`, and on SIGINT cancels the wait and closes the
 * client; it prints `WORKING` once the task runs, then the outcome's tag. */
function cli(ownProcessGroup) {
  const pkgDir = new URL(`../../${process.env.PKG_DIR ?? "pkg"}/`, import.meta.url).href;
  const script = `
    const { stdioClient } = await import(${JSON.stringify(`${pkgDir}stdio.js`)});
    const { callAndAwait } = await import(${JSON.stringify(`${pkgDir}node.js`)});
    const client = stdioClient(process.execPath, [${JSON.stringify(server)}, "--poll-ms", "20"], { ownProcessGroup: ${ownProcessGroup} });
    const cancel = new AbortController();
    process.once("SIGINT", () => cancel.abort());
    let told = false;
    const onStatus = (s) => { if (!told && s.status === "working") { told = true; console.log("WORKING"); } };
    const out = await callAndAwait(client, "forever", {}, {}, { cancelSignal: cancel.signal, onStatus, timeoutMs: 8000 });
    console.log(out.tag === "error" ? "error " + out.error.kind : out.tag);
    await client.close();
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { detached: true, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  const working = new Promise((resolve) => child.stdout.on("data", (d) => { out += d; if (out.includes("WORKING")) resolve(); }));
  const exited = new Promise((resolve) => child.on("exit", () => resolve(out)));
  return { child, working, exited };
}

test("Ctrl-C: in its own process group the server survives the terminal's SIGINT and acknowledges the cancel; in the app's group it dies with it", async () => {
  for (const [own, want] of [[true, "cancelled"], [false, "error transport"]]) {
    const { child, working, exited } = cli(own);
    await working;
    const t0 = Date.now();
    process.kill(-child.pid, "SIGINT"); // the terminal's Ctrl-C: the whole foreground group
    const out = await exited;
    assert.equal(out.trim().split("\n").at(-1), want, `ownProcessGroup: ${own}: ${out}`);
    assert.ok(Date.now() - t0 < 5000, "no wait to the deadline");
  }
});

test("ownProcessGroup must be a boolean", () => {
  assert.throws(() => stdioClient(process.execPath, [server], { ownProcessGroup: "yes" }), /ownProcessGroup must be a boolean/);
});
