#!/usr/bin/env node
// node tests/server/cli.mjs [--port 0] [--host 127.0.0.1] [--framing mixed|json|sse] [--poll-ms 100]
//                           [--ttl-ms 60000] [--static <dir>] [--no-listen]
// Prints exactly one line `READY http://127.0.0.1:<port>/mcp` once listening; stops on SIGTERM/SIGINT.
import { parseArgs } from "node:util";
import { startHttpServer } from "./http.mjs";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    host: { type: "string", default: "127.0.0.1" },
    framing: { type: "string", default: "mixed" },
    "poll-ms": { type: "string", default: "100" },
    "ttl-ms": { type: "string", default: "60000" },
    static: { type: "string" },
    "no-listen": { type: "boolean", default: false },
  },
});

const int = (name) => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a non-negative integer`);
    process.exit(2);
  }
  return n;
};

const server = await startHttpServer({
  port: int("port"),
  host: values.host,
  framing: values.framing,
  staticDir: values.static,
  pollIntervalMs: int("poll-ms"),
  ttlMs: int("ttl-ms"),
  listen: !values["no-listen"],
});
console.log(`READY ${server.url}`);

const stop = async () => {
  await server.close();
  process.exit(0);
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
