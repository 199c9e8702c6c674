// mcp-tasks-wasm/stdio — Node only (never bundled for browsers): a client over an MCP server's stdio.
// Newline-delimited JSON-RPC over the server's stdin/stdout, on the module's message channel
// (`channelClient`): ids, responses by id, listen streams, `notifications/cancelled` on abort or timeout.
// Protocol 2026-07-28 has no `initialize`: every request carries its `_meta` from the very first line.
import { spawn } from "node:child_process";
import { channelClient } from "./channel.js";
import { McpStdioError } from "./errors.js";

/** The most a line of stdout may hold before it is dropped (and reported through `onLog`). */
const MAX_LINE = 8 * 1024 * 1024;
/** How many stderr lines a failure keeps. */
const STDERR_LINES = 20;

/**
 * `stdioClient(command, args?, options?)` spawns the server; `stdioClient({stdin, stdout, stderr?},
 * options?)` runs over an existing process or stream pair. See the README and stdio.d.ts.
 */
export function stdioClient(commandOrStreams, args, options) {
  let streams, command, proc;
  if (typeof commandOrStreams === "string" && commandOrStreams !== "") {
    command = commandOrStreams;
    if (args !== undefined && !(Array.isArray(args) && args.every((a) => typeof a === "string"))) {
      throw new TypeError("stdioClient: args must be an array of strings");
    }
    args = args ?? [];
  } else if (commandOrStreams && typeof commandOrStreams === "object" && commandOrStreams.stdin && commandOrStreams.stdout) {
    streams = commandOrStreams;
    options = args;
  } else {
    throw new TypeError("stdioClient: give a command string, or {stdin, stdout}");
  }
  options = options ?? {};
  if (typeof options !== "object") throw new TypeError("stdioClient: options must be an object");
  const { env, cwd, onLog, stderr = "pipe", closeGraceMs = 2000, id, ...common } = options;
  if (onLog !== undefined && typeof onLog !== "function") throw new TypeError("stdioClient: options.onLog must be a function");
  if (!["pipe", "inherit", "ignore"].includes(stderr)) throw new TypeError('stdioClient: options.stderr must be "pipe", "inherit" or "ignore"');
  if (!(typeof closeGraceMs === "number" && closeGraceMs >= 0)) throw new TypeError("stdioClient: options.closeGraceMs must be a non-negative number");

  if (command !== undefined) {
    proc = spawn(command, args, { cwd, env: env ?? process.env, stdio: ["pipe", "pipe", stderr] });
    streams = proc;
  }
  const tail = [];
  const log = (line, from) => {
    if (from === "stderr") {
      tail.push(line);
      if (tail.length > STDERR_LINES) tail.shift();
    }
    try {
      onLog?.(line, from);
    } catch {}
  };
  let ended = false;
  // A message for a server whose stdin is gone is dropped: what waits for it fails when the channel
  // closes (the process's "close" event, with its exit code and last stderr lines).
  const client = channelClient((message) => {
    if (ended || streams.stdin.destroyed || streams.stdin.writableEnded) return;
    streams.stdin.write(JSON.stringify(message) + "\n");
  }, common, "stdioClient");
  const closeChannel = client.close;
  const fail = (message, extra) => {
    if (ended) return;
    ended = true;
    closeChannel(new McpStdioError(message, { stderr: tail.join("\n"), retryable: false, ...extra }));
  };

  lines(streams.stdout, (line) => {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      return log(line, "stdout");
    }
    if (msg === null || typeof msg !== "object") return log(line, "stdout");
    client.receive(msg);
  }, () => log("(a stdout line longer than 8 MB was dropped)", "stdout"));
  if (streams.stderr) lines(streams.stderr, (line) => log(line, "stderr"), () => {});
  streams.stdin.on?.("error", () => {}); // EPIPE after the server exits: reported by the exit below
  if (proc) {
    proc.on("error", (e) => fail(`stdioClient: ${command} could not run: ${e.message}`, { cause: e }));
    // After the exit, wait for its stdout and stderr to end, so the last stderr lines are in.
    proc.on("exit", (code, signal) => {
      const how = signal ? `by ${signal}` : `with code ${code}`;
      Promise.all([proc.stdout, proc.stderr].map(drained)).then(() =>
        fail(`the server exited ${how}`, { exitCode: code, signal: signal ?? undefined }),
      );
    });
  } else {
    streams.stdout.on?.("end", () => fail("the server's stdout ended"));
  }

  let closing;
  client.id = command !== undefined ? [command, ...args].join(" ") : (id ?? "stdio"); // the server, for the task journal
  /** Ends stdin, then SIGTERM after `closeGraceMs`, then SIGKILL after as long again; resolves when done. */
  client.close = () => {
    closing ??= new Promise((resolve) => {
      try {
        streams.stdin.end();
      } catch {}
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) {
        fail("the client closed");
        return resolve();
      }
      const timers = [];
      proc.once("exit", () => {
        timers.forEach(clearTimeout);
        resolve();
      });
      timers.push(setTimeout(() => proc.kill("SIGTERM"), closeGraceMs));
      timers.push(setTimeout(() => {
        proc.kill("SIGKILL");
        resolve();
      }, 2 * closeGraceMs + 100));
    });
    return closing;
  };
  if (proc) client.pid = proc.pid;
  return client;
}

/** Resolves once a readable stream (if any) has ended or closed. */
function drained(r) {
  if (!r || r.readableEnded || r.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    r.once("end", resolve);
    r.once("close", resolve);
  });
}

/** Calls `onLine` with each `\n`-terminated line of a readable stream (a trailing `\r` dropped). */
function lines(readable, onLine, onTooLong) {
  let buf = "";
  let dropping = false;
  readable.setEncoding?.("utf8");
  readable.on("data", (chunk) => {
    buf += typeof chunk === "string" ? chunk : String(chunk);
    let at;
    while ((at = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, at).replace(/\r$/, "");
      buf = buf.slice(at + 1);
      if (dropping) {
        dropping = false;
        continue;
      }
      if (line !== "") onLine(line);
    }
    if (buf.length > MAX_LINE) {
      buf = "";
      dropping = true;
      onTooLong();
    }
  });
}
