// The transports' error classes as a user meets them: exported values of both entries (instanceof
// works), one base — McpChannelError, the channel's own failures on any transport — and a subclass per
// transport for its own failures (McpHttpError, McpStdioError, McpPortError), each with its name, the
// HTTP fields `status` and `body` on an McpHttpError only, and no numeric `code` (never a JSON-RPC error).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { journalLib, lib, rejection } from "./pkg.mjs";

const { McpChannelError, McpHttpError, McpStdioError, McpPortError } = lib;

test("the classes are exported by both entries, the same class objects, in one hierarchy", () => {
  for (const C of [McpChannelError, McpHttpError, McpStdioError, McpPortError]) assert.equal(typeof C, "function");
  assert.equal(journalLib.McpChannelError, McpChannelError);
  assert.equal(journalLib.McpHttpError, McpHttpError);
  for (const C of [McpHttpError, McpStdioError, McpPortError]) {
    const e = new C("x");
    assert.ok(e instanceof McpChannelError && e instanceof Error);
    assert.equal(e.name, C.name);
    assert.equal(e.code, undefined);
    // HTTP fields on an HTTP error only (a stdio or port error carries none).
    assert.deepEqual([e.status, e.body], C === McpHttpError ? [0, ""] : [undefined, undefined]);
  }
  assert.equal(new McpHttpError("x", { status: 503 }).status, 503);
  assert.ok(!(new McpChannelError("x") instanceof McpHttpError));
});

test("a channel's own failure (a timeout on a bare channel) is an McpChannelError, not an HTTP one", async () => {
  const client = lib.channelClient(() => {});
  const e = await rejection(client.request("ping", {}, { timeoutMs: 5 }));
  assert.ok(e instanceof McpChannelError, String(e));
  assert.ok(!(e instanceof McpHttpError));
  assert.equal(e.name, "McpChannelError");
  assert.match(e.message, /timed out after 5 ms/);
});

test("an HTTP client's failures, its timeouts too, are McpHttpErrors (and McpChannelErrors)", async () => {
  const server = createServer((req, res) => {
    req.resume();
    if (req.url === "/slow") return; // never answers
    res.writeHead(500, { "content-type": "text/plain" }).end("boom");
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const status = await rejection(lib.httpClient(`${base}/mcp`).request("ping", {}));
    assert.ok(status instanceof McpHttpError && status instanceof McpChannelError, String(status));
    assert.equal(status.status, 500);
    assert.equal(status.body, "boom");
    const timeout = await rejection(lib.httpClient(`${base}/slow`).request("ping", {}, { timeoutMs: 20 }));
    assert.ok(timeout instanceof McpHttpError, String(timeout));
    assert.match(timeout.message, /timed out after 20 ms/);
  } finally {
    server.closeAllConnections?.();
    await new Promise((r) => server.close(r));
  }
});

test("a port that disconnects fails what is pending with an McpPortError", async () => {
  let disconnect;
  const port = {
    postMessage() {},
    onMessage: { addListener() {}, removeListener() {} },
    onDisconnect: { addListener(f) { disconnect = f; }, removeListener() {} },
  };
  const client = lib.portClient(port);
  const pending = client.request("ping", {});
  disconnect();
  const e = await rejection(pending);
  assert.ok(e instanceof McpPortError && e instanceof McpChannelError, String(e));
  assert.equal(e.retryable, false);
});

test("a stdio server that exits fails what is pending with an McpStdioError", async () => {
  const { stdioClient } = await import(new URL(`../../${process.env.PKG_DIR ?? "pkg"}/stdio.js`, import.meta.url).href);
  const node = process.execPath;
  const client = stdioClient(node, ["-e", "process.stdin.once('data', () => process.exit(3))"]);
  try {
    const e = await rejection(client.request("ping", {}, { timeoutMs: 5000 }));
    assert.ok(e instanceof McpStdioError && e instanceof McpChannelError, String(e));
    assert.equal(e.exitCode, 3);
  } finally {
    await client.close();
  }
});
