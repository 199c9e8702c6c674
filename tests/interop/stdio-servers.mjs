// The two real Tasks servers (rmcp 3.11.0, fastmcp-tasks 4.1.4) in stdio mode: how to spawn them.
// stdioServers() ensures the builds exist exactly as servers.mjs prepare() does (cargo build and
// tests/servers/fastmcp/setup.sh, both cached: a warm run takes well under a second) and returns the
// spawn specs; it starts nothing. Each server reads newline-delimited JSON-RPC on stdin and writes
// only JSON-RPC on stdout (logs on stderr); see tests/servers/README.md for the stdio facts.
import { fileURLToPath } from "node:url";
import { prepare } from "./servers.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/**
 * @param {{pollMs?: number, prepare?: boolean}} [options] pollMs → the servers' pollIntervalMs
 *   (default 100, as over HTTP); prepare: false skips the (cached) build step.
 * @returns {{name: "rmcp" | "fastmcp", command: string, args: string[], cwd: string, env: object}[]}
 *   absolute paths; spawn with stdio ["pipe", "pipe", "pipe"] and `env: {...process.env, ...env}`.
 */
export function stdioServers({ pollMs = 100, prepare: doPrepare = true } = {}) {
  if (doPrepare) prepare();
  const poll = String(pollMs);
  return [
    {
      name: "rmcp",
      command: `${root}/tests/servers/rmcp/target/release/rmcp-tasks-server`,
      args: ["--stdio", "--poll-ms", poll],
      cwd: root,
      env: {},
    },
    {
      name: "fastmcp",
      command: `${root}/tests/servers/fastmcp/.venv/bin/python`,
      args: [`${root}/tests/servers/fastmcp/server.py`, "--stdio", "--poll-ms", poll],
      cwd: root,
      // Unbuffered so a stray write to stderr shows up at once; stdout is flushed per message anyway.
      env: { PYTHONUNBUFFERED: "1" },
    },
  ];
}
