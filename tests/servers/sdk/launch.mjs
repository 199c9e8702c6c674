// Starts the MCP 2025-11-25 interop server (server.mjs) for tests: over HTTP on 127.0.0.1 with a free
// port (startSdkServer), or describes how to spawn it over stdio (sdkStdioSpec). Every HTTP server
// started here is killed by PID when this process exits, whatever the reason.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** This folder (absolute, with a trailing slash). */
export const SDK_SERVER_DIR = fileURLToPath(new URL("./", import.meta.url));
const SERVER = `${SDK_SERVER_DIR}server.mjs`;
const started = new Set();

function killAll() {
  for (const child of started) {
    try {
      process.kill(child.pid, "SIGKILL");
    } catch {}
  }
  started.clear();
}
process.on("exit", killAll);

/** Installs the server's packages when they are missing or stale (setup.sh caches: a warm run is instant). */
export function prepareSdkServer() {
  const r = spawnSync("bash", [`${SDK_SERVER_DIR}setup.sh`], { stdio: "inherit" });
  if (r.status !== 0) throw new Error(`tests/servers/sdk/setup.sh failed (${r.status})`);
}

function ensureInstalled() {
  if (!existsSync(`${SDK_SERVER_DIR}node_modules/@modelcontextprotocol/sdk/package.json`)) prepareSdkServer();
}

/**
 * The server's flags for `options`: {pollMs = 100, ttlDefault, tasksUnaware, jsonResponse, trace}.
 * pollMs is the tasks' pollInterval; ttlDefault the ttl of a task whose request sent none (without
 * it such a task is never deleted); tasksUnaware a server without the tasks capability (the same
 * tools as plain tools); jsonResponse answers POSTs with JSON instead of SSE; trace logs to stderr.
 */
function flags({ pollMs = 100, ttlDefault, tasksUnaware = false, jsonResponse = false, trace = false } = {}) {
  return [
    "--poll-ms",
    String(pollMs),
    ...(ttlDefault === undefined ? [] : ["--ttl-default", String(ttlDefault)]),
    ...(tasksUnaware ? ["--tasks-unaware"] : []),
    ...(jsonResponse ? ["--json-response"] : []),
    ...(trace ? ["--trace"] : []),
  ];
}

/**
 * Starts the server over Streamable HTTP on 127.0.0.1 with a free port. `options` as for the flags,
 * plus readyTimeoutMs (15 s). Resolves with {url, pid, stop, stderr}: `stop()` ends it (SIGTERM, then
 * SIGKILL after 3 s) and resolves once it has exited; `stderr()` gives the last 64 KB it wrote.
 */
export function startSdkServer(options = {}) {
  ensureInstalled();
  const readyTimeoutMs = options.readyTimeoutMs ?? 15_000;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER, "--port", "0", ...flags(options)], {
      cwd: SDK_SERVER_DIR,
      stdio: ["ignore", "pipe", "pipe"],
    });
    started.add(child);
    let out = "";
    let err = "";
    let ready = false;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`sdk server did not get ready in ${readyTimeoutMs} ms\n${err}`));
    }, readyTimeoutMs);
    child.stderr.on("data", (d) => {
      err = (err + d).slice(-65_536);
    });
    child.stdout.on("data", (d) => {
      if (ready) return;
      out += d;
      const m = /READY (http:\/\/\S+)/.exec(out);
      if (!m) return;
      ready = true;
      clearTimeout(timer);
      resolve({ url: m[1], pid: child.pid, stop: () => stop(child), stderr: () => err });
    });
    child.on("exit", (code, signal) => {
      started.delete(child);
      clearTimeout(timer);
      if (!ready) reject(new Error(`sdk server exited (${code ?? signal}) before it was ready\n${err}`));
    });
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), 3000);
    child.once("exit", () => {
      clearTimeout(kill);
      started.delete(child);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * How to spawn the server over stdio: {command, args, cwd, env} with absolute paths (`options` as
 * for the flags). The caller spawns and owns the process; it exits 0 on stdin EOF or SIGTERM.
 */
export function sdkStdioSpec(options = {}) {
  ensureInstalled();
  return {
    command: process.execPath,
    args: [SERVER, "--stdio", ...flags(options)],
    cwd: SDK_SERVER_DIR,
    env: { ...process.env },
  };
}
