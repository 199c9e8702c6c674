#!/usr/bin/env node
// node tests/server/stdio.mjs [--poll-ms 100] [--ttl-ms 60000] [--no-listen] [--exit-after-ms N] [--noise]
// The project's Tasks test server over stdio: newline-delimited JSON-RPC on stdin/stdout (nothing else
// on stdout, unless --noise writes one non-JSON line at start), the same core as over HTTP
// (`subscriptions/listen` included: its notifications are written with their subscriptionId, its end
// as the listen's result). `notifications/cancelled` aborts the named in-flight request. Logs every
// message it receives to stderr as `got <method> <id>`. --exit-after-ms exits with code 3 after N ms.
import { parseArgs } from "node:util";
import { createTasksCore } from "./core.mjs";

const { values } = parseArgs({
  options: {
    "poll-ms": { type: "string", default: "100" },
    "ttl-ms": { type: "string", default: "60000" },
    "no-listen": { type: "boolean", default: false },
    "exit-after-ms": { type: "string" },
    noise: { type: "boolean", default: false },
  },
});
const core = createTasksCore({ pollIntervalMs: Number(values["poll-ms"]), ttlMs: Number(values["ttl-ms"]), listen: !values["no-listen"] });
const inFlight = new Map();
const write = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");

if (values.noise) process.stdout.write("this line is not JSON\n");
if (values["exit-after-ms"]) {
  setTimeout(() => {
    process.stderr.write("about to exit on purpose\n");
    process.exit(3);
  }, Number(values["exit-after-ms"]));
}

async function serve(msg) {
  process.stderr.write(`got ${msg.method} ${msg.id ?? ""}\n`);
  if (msg.method === "notifications/cancelled") {
    inFlight.get(msg.params?.requestId)?.abort();
    return;
  }
  if (msg.id === undefined) return;
  const c = new AbortController();
  inFlight.set(msg.id, c);
  try {
    const result = await core.handle(msg.method, msg.params ?? {}, { signal: c.signal, id: msg.id });
    if (msg.method === "subscriptions/listen") {
      const it = result[Symbol.asyncIterator]();
      for (;;) {
        const step = await it.next();
        if (step.done) {
          if (!c.signal.aborted) write({ jsonrpc: "2.0", id: msg.id, result: step.value ?? { resultType: "complete" } });
          break;
        }
        write(step.value);
      }
    } else if (!c.signal.aborted) {
      write({ jsonrpc: "2.0", id: msg.id, result });
    }
  } catch (e) {
    if (!c.signal.aborted) write({ jsonrpc: "2.0", id: msg.id, error: { code: e.code ?? -32603, message: e.message ?? String(e), data: e.data } });
  } finally {
    inFlight.delete(msg.id);
  }
}

let buf = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buf += chunk;
  let at;
  while ((at = buf.indexOf("\n")) >= 0) {
    const line = buf.slice(0, at);
    buf = buf.slice(at + 1);
    if (line.trim() === "") continue;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      continue;
    }
    serve(msg);
  }
});
process.stdin.on("end", () => {
  core.close();
  process.exit(0);
});
