#!/usr/bin/env node
// Interop test server: a real MCP 2025-11-25 server with core tasks, built from
// @modelcontextprotocol/sdk 1.32.2's own machinery (McpServer, registerToolTask, InMemoryTaskStore,
// InMemoryTaskMessageQueue). See README.md for the flags, the tools and the observed wire.
//
// Usage: node server.mjs (--port <N> | --stdio) [--poll-ms 100] [--ttl-default <ms>] [--tasks-unaware]
//                        [--json-response] [--trace]
// --port prints exactly one line `READY http://127.0.0.1:<port>/mcp` on stdout once listening;
// --stdio writes nothing but JSON-RPC lines on stdout. Exits 0 on SIGTERM/SIGINT and, with --stdio,
// on stdin EOF.
import { parseArgs } from "node:util";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { serveHttp } from "./http.mjs";
import { registerTools } from "./tools.mjs";

const { values: flags } = parseArgs({
  options: {
    port: { type: "string" },
    stdio: { type: "boolean", default: false },
    "poll-ms": { type: "string", default: "100" },
    "ttl-default": { type: "string" },
    "tasks-unaware": { type: "boolean", default: false },
    "json-response": { type: "boolean", default: false },
    trace: { type: "boolean", default: false },
  },
});

function intFlag(name, value) {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) {
    process.stderr.write(`server.mjs: --${name} needs a non-negative integer, got ${JSON.stringify(value)}\n`);
    process.exit(2);
  }
  return n;
}

if (flags.stdio === (flags.port !== undefined)) {
  process.stderr.write("usage: node server.mjs (--port <N> | --stdio) [--poll-ms N] [--ttl-default MS] [--tasks-unaware] [--json-response] [--trace]\n");
  process.exit(2);
}

const tasks = !flags["tasks-unaware"];
const opts = {
  tasks,
  pollMs: Math.max(1, intFlag("poll-ms", flags["poll-ms"])),
  ttlDefault: flags["ttl-default"] === undefined ? undefined : intFlag("ttl-default", flags["ttl-default"]),
  trace: flags.trace,
  // One store and one queue for the whole process (as in the SDK's examples); the store keeps each
  // task to the session that created it.
  taskStore: tasks ? new InMemoryTaskStore() : undefined,
  taskMessageQueue: tasks ? new InMemoryTaskMessageQueue() : undefined,
};

function buildServer() {
  const server = new McpServer(
    { name: tasks ? "mcp-tasks-wasm-sdk-interop" : "mcp-tasks-wasm-sdk-interop-unaware", version: "1.32.2" },
    tasks
      ? {
          capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
          taskStore: opts.taskStore,
          taskMessageQueue: opts.taskMessageQueue,
        }
      : {},
  );
  registerTools(server, opts);
  return server;
}

const trace = (line) => {
  if (opts.trace) process.stderr.write(`[sdk-server] ${line}\n`);
};

let stopping = false;
let stopServing = async () => {};
async function stop() {
  if (stopping) return;
  stopping = true;
  // A second chance is not needed: in-memory state only. Exit even if a close hangs.
  setTimeout(() => process.exit(0), 1000).unref();
  try {
    await stopServing();
  } catch {}
  opts.taskStore?.cleanup();
  process.exit(0);
}
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, stop);

if (flags.stdio) {
  const server = buildServer();
  await server.connect(new StdioServerTransport());
  stopServing = () => server.close();
  process.stdin.on("end", stop);
  process.stdin.on("close", stop);
} else {
  const http = await serveHttp({
    port: intFlag("port", flags.port),
    buildServer,
    jsonResponse: flags["json-response"],
    onTrace: trace,
  });
  stopServing = http.close;
  process.stdout.write(`READY http://127.0.0.1:${http.port}/mcp\n`);
}
