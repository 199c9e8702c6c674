// Builds (cached) and starts the two real Tasks servers on 127.0.0.1 with free ports, and stops them
// by PID afterwards, whatever happens (normal end, failure, signal).
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const POLL_MS = "100";
const started = new Set();

function stopAll() {
  for (const child of started) {
    try {
      process.kill(child.pid, "SIGKILL");
    } catch {}
  }
  started.clear();
}
process.on("exit", stopAll);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => { stopAll(); process.exit(130); });

function sh(cmd, args, cwd = root) {
  const r = spawnSync(cmd, args, { cwd, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status})`);
}

/** Builds the rmcp launcher and the fastmcp venv when missing or stale (cargo and setup.sh cache). */
export function prepare() {
  sh("cargo", ["build", "--release", "--locked", "--quiet", "--manifest-path", "tests/servers/rmcp/Cargo.toml", "--target-dir", "tests/servers/rmcp/target"]);
  sh("bash", ["tests/servers/fastmcp/setup.sh"]);
}

function start(name, cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    started.add(child);
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`${name} did not get ready in 30 s\n${err}`)), 30_000);
    child.stderr.on("data", (d) => { err = (err + d).slice(-4000); });
    child.stdout.on("data", (d) => {
      out += d;
      const m = /READY (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ name, url: m[1], pid: child.pid, stop: () => stop(child) });
      }
    });
    child.on("exit", (code) => {
      started.delete(child);
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before it was ready\n${err}`));
    });
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), 3000);
    child.once("exit", () => { clearTimeout(kill); started.delete(child); resolve(); });
    child.kill("SIGTERM");
  });
}

/** Starts both servers; resolves with [{name, url, pid, stop}]. */
export async function startServers() {
  const rmcpBin = `${root}tests/servers/rmcp/target/release/rmcp-tasks-server`;
  const python = `${root}tests/servers/fastmcp/.venv/bin/python`;
  if (!existsSync(rmcpBin) || !existsSync(python)) prepare();
  return Promise.all([
    start("rmcp", rmcpBin, ["--port", "0", "--poll-ms", POLL_MS]),
    start("fastmcp", python, ["tests/servers/fastmcp/server.py", "--port", "0", "--poll-ms", POLL_MS]),
  ]);
}

export { stopAll };
