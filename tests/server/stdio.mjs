#!/usr/bin/env node
// node tests/server/stdio.mjs [--poll-ms 100] [--ttl-ms 60000] [--no-listen] [--exit-after-ms N] [--noise]
// The project's Tasks test server over stdio: newline-delimited JSON-RPC on stdin/stdout (nothing else
// on stdout, unless --noise writes one non-JSON line at start), the same core as over HTTP
// (`subscriptions/listen` included: its notifications are written with their subscriptionId, its end
// as the listen's result). `notifications/cancelled` aborts the named in-flight request. Logs every
// message it receives to stderr as `got <method> <id>`. --exit-after-ms exits with code 3 after N ms.
import { parseArgs } from "node:util";
import { createTasksCore } from "./core.mjs";
import { serveMessages } from "./messages.mjs";

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
const write = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");
const receive = serveMessages(core, write, (line) => process.stderr.write(line + "\n"));

if (values.noise) process.stdout.write("this line is not JSON\n");
if (values["exit-after-ms"]) {
  setTimeout(() => {
    process.stderr.write("about to exit on purpose\n");
    process.exit(3);
  }, Number(values["exit-after-ms"]));
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
    receive(msg);
  }
});
process.stdin.on("end", () => {
  core.close();
  process.exit(0);
});
