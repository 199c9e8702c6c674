// mcp-tasks-wasm/stdio — Node only (never bundled for browsers): a client over an MCP server's stdio.
// Newline-delimited JSON-RPC over the server's stdin/stdout, on the module's message channel
// (`channelClient`): ids, responses by id, listen streams, `notifications/cancelled` on abort or timeout.
// The first request finds the server's generation (`generation.js`): a 2026-07-28 server answers the
// `server/discover` probe, which carries its `_meta` from the very first line (such a server has no
// `initialize`); a 2025-11-25 server refuses it and is greeted with `initialize` first.
import { spawn } from "node:child_process";
import { channelClient } from "./channel.js";
import { McpStdioError } from "./errors.js";
import { generationOption, session } from "./generation.js";
import { after } from "./values.js";

/** The most a line of stdout may hold before it is dropped (and reported through `onLog`). */
const MAX_LINE = 8 * 1024 * 1024;
/** The most bytes (or characters) of a stream read in one turn of the event loop: a huge chunk is
 * decoded and scanned a slice per turn. */
const SLICE = 256 * 1024;
/** How long a server whose stdout or stdin closed may take to exit before the client takes it for a
 * server that stays alive without its channel (a process's stdout ends just before it exits). */
const EXIT_GRACE_MS = 100;
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
  const { env, cwd, onLog, stderr = "pipe", closeGraceMs = 2000, id, generation, ownProcessGroup = false, ...common } = options;
  const named = generationOption(generation, (what) => new TypeError(`stdioClient: ${what}`));
  if (onLog !== undefined && typeof onLog !== "function") throw new TypeError("stdioClient: options.onLog must be a function");
  if (!["pipe", "inherit", "ignore"].includes(stderr)) throw new TypeError('stdioClient: options.stderr must be "pipe", "inherit" or "ignore"');
  if (!(typeof closeGraceMs === "number" && closeGraceMs >= 0)) throw new TypeError("stdioClient: options.closeGraceMs must be a non-negative number");
  if (typeof ownProcessGroup !== "boolean") throw new TypeError("stdioClient: options.ownProcessGroup must be a boolean");

  if (command !== undefined) {
    // `ownProcessGroup`: the server leads a process group of its own (POSIX; a new console group on
    // Windows), so a terminal's Ctrl-C — a SIGINT to the foreground group — reaches the app alone, which
    // can then cancel its tasks and close() the server itself.
    proc = spawn(command, args, { cwd, env: env ?? process.env, stdio: ["pipe", "pipe", stderr], detached: ownProcessGroup });
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
  // Every request waits for the session (the generation found); the session's own go out at once.
  const { request: raw, listen: rawListen, notify, speak } = client;
  delete client.notify;
  delete client.speak;
  const s = session({ ...client, speak }, named, { request: raw, notify, discovered: () => {}, clientInfo: common.clientInfo });
  client.request = (method, params, opts) => {
    const opening = s.ready(opts);
    return opening ? opening.then(() => raw(method, params, opts)) : raw(method, params, opts);
  };
  client.listen = (params, opts) => {
    const opening = s.ready(opts);
    return opening ? opening.then(() => rawListen(params, opts)) : rawListen(params, opts);
  };
  client.session = (opts) => Promise.resolve(s.ready(opts)).then(() => ({ generation: s.found, capabilities: s.capabilities }));
  Object.defineProperty(client, "generation", { get: () => s.found, enumerable: true, configurable: true });
  const fail = (message, extra) => {
    if (ended) return;
    ended = true;
    closeChannel(new McpStdioError(message, { stderr: tail.join("\n"), retryable: false, ...extra }));
  };

  let closing;
  /** The server's `what` (its stdout or stdin) closed: unless the server exits within EXIT_GRACE_MS
   * (then its exit says why), or the client is closing, the channel is over — what is pending fails
   * at once — and the server is ended as `close()` ends it. */
  const lost = (what) => {
    if (ended || closing) return;
    if (!proc) return fail(`the channel closed: the server's ${what} closed`);
    after(EXIT_GRACE_MS, () => {
      if (ended || closing || proc.exitCode !== null || proc.signalCode !== null) return;
      fail(`the channel closed: the server's ${what} closed while it runs`);
      client.close();
    });
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
  streams.stdin.on?.("error", () => {}); // EPIPE: the stdin's close below reports it
  streams.stdin.on?.("close", () => lost("stdin"));
  streams.stdout.on?.("close", () => lost("stdout"));
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
        timers.forEach((cancel) => cancel());
        resolve();
      });
      timers.push(after(closeGraceMs, () => proc.kill("SIGTERM")));
      timers.push(after(2 * closeGraceMs + 100, () => {
        proc.kill("SIGKILL");
        resolve();
      }));
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

/** Calls `onLine` with each `\n`-terminated line of a readable stream (a trailing `\r` dropped), and
 * `onTooLong` once for each line over MAX_LINE, which is dropped. A line is kept as its pieces and
 * each chunk is decoded (UTF-8) and scanned once, at most SLICE of it per turn of the event loop (the
 * stream paused while a big chunk is worked through): an over-long line costs no more than reading
 * it, in small steps. */
function lines(readable, onLine, onTooLong) {
  /** The pieces of the line being read, and their length; `dropping`: it is over MAX_LINE. */
  let pieces = [];
  let size = 0;
  let dropping = false;
  /** The chunks not yet scanned (bytes, or strings from a stream with an encoding of its own), and
   * how far into the first one the scan got. */
  const queue = [];
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let offset = 0;
  let busy = false;
  let paused = false;
  /** One piece of the stream: every line it ends, then the start of the next one. */
  const scan = (text) => {
    let from = 0;
    for (let at; (at = text.indexOf("\n", from)) >= 0; from = at + 1) {
      const tail = text.slice(from, at);
      if (!dropping && size + tail.length <= MAX_LINE) {
        pieces.push(tail);
        const line = pieces.join("");
        if (line !== "" && line !== "\r") onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
      } else if (!dropping) {
        onTooLong();
      }
      pieces = [];
      size = 0;
      dropping = false;
    }
    if (dropping || from === text.length) return;
    const tail = text.slice(from);
    size += tail.length;
    if (size > MAX_LINE) {
      pieces = [];
      dropping = true;
      onTooLong();
    } else {
      pieces.push(tail);
    }
  };
  /** Scans what came, SLICE per turn: past that it pauses the stream and goes on next turn. */
  const pump = () => {
    busy = true;
    for (let budget = SLICE; queue.length > 0; ) {
      if (budget <= 0) {
        if (!paused) readable.pause?.();
        paused = true;
        return void setImmediate(pump);
      }
      const chunk = queue[0];
      const piece = typeof chunk === "string" ? chunk.slice(offset, offset + budget) : chunk.subarray(offset, offset + budget);
      offset += piece.length;
      budget -= piece.length;
      if (offset >= chunk.length) {
        queue.shift();
        offset = 0;
      }
      scan(typeof piece === "string" ? piece : decoder.decode(piece, { stream: true }));
    }
    busy = false;
    if (paused) readable.resume?.();
    paused = false;
  };
  readable.on("data", (chunk) => {
    queue.push(typeof chunk === "string" || chunk instanceof Uint8Array ? chunk : String(chunk));
    if (!busy) pump();
  });
}
