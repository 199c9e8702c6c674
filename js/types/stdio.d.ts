// mcp-tasks-wasm/stdio — Node only.
import type { ChannelClient, ChannelClientOptions } from "./mcp_tasks_wasm.js";

/** Options of `stdioClient`. */
export interface StdioClientOptions extends ChannelClientOptions {
  /** The server's environment (default: this process's). */
  env?: Record<string, string | undefined>;
  /** The server's working directory. */
  cwd?: string;
  /** The server's stderr: captured (default; each line to `onLog`, the last 20 kept for a failure's
   * `stderr`), passed through, or dropped. */
  stderr?: "pipe" | "inherit" | "ignore";
  /** Each stderr line (when captured) and each stdout line that is not a JSON object (skipped). */
  onLog?: (line: string, from: "stdout" | "stderr") => void;
  /** `close()` waits this long after ending stdin before SIGTERM, and as long again before SIGKILL (default 2000). */
  closeGraceMs?: number;
  /** With the `{stdin, stdout}` form: the client's `id` (default "stdio"). */
  id?: string;
  /** Start the server in a process group of its own (default false: the app's): a terminal's Ctrl-C
   * (SIGINT to the foreground group) then reaches the app only, and the server stays up to answer the
   * `tasks/cancel` the app sends before `close()` (see docs/transports.md, "Ctrl-C"). The app must
   * `close()` it: a server in its own group outlives an app that exits without. */
  ownProcessGroup?: boolean;
}

/** A client over a server's stdio. A server that exits fails what is pending with an `McpStdioError`
 * (`exitCode`, `signal`, the last `stderr` lines; `retryable: false`): awaitTask's transport outcome
 * carries them in `error.data`. A server that closes its stdout or its stdin and keeps running (not
 * gone 100 ms later) fails what is pending with an `McpStdioError` "the channel closed: …" (later
 * requests too), and is then ended as `close()` ends it. A stdout line over 8 MB is dropped (reported
 * once through `onLog`), read in slices: the event loop is never held for it. */
export interface StdioClient extends ChannelClient {
  /** The server: the command line for a spawned server. */
  id: string;
  /** The spawned server's process id. */
  pid?: number;
  /** Ends stdin, then SIGTERM after `closeGraceMs`, then SIGKILL; resolves once the server is gone. */
  close(): Promise<void>;
}

/** Spawns `command args` and talks newline-delimited JSON-RPC over its stdin/stdout. Throws a
 * `TypeError` for bad arguments. */
export declare function stdioClient(command: string, args?: string[], options?: StdioClientOptions): StdioClient;
/** Talks newline-delimited JSON-RPC over an existing process's (or any) stream pair. */
export declare function stdioClient(
  streams: { stdin: NodeJS.WritableStream; stdout: NodeJS.ReadableStream; stderr?: NodeJS.ReadableStream | null },
  options?: StdioClientOptions,
): StdioClient;
