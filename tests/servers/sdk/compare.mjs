// Side-by-side comparison on the MCP 2025-11-25 interop server (server.mjs): each scenario of issue 40
// run by each client "driver", with what the app gets (result / error / no outcome until the bound)
// and the time it took, printed as a markdown table.
//
// Usage: node tests/servers/sdk/compare.mjs [--only id,id] [--driver name,name] [--bound-ms 20000] [--json]
//
// Structure, so that another client can be added: `scenarios` (the list) and `drivers`
// ({name: async (scenario, server) => ({outcome, ms, note})}) are exported; `runComparison()` runs
// them against servers it starts itself and `markdownTable()` prints the rows. A driver must settle
// by `scenario.boundMs` on its own (it reports "no outcome" then); the harness gives up on it 5 s later.
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createTaskSessionFromClient } from "@modelcontextprotocol/ext-tasks/client";
import { sdkStdioSpec, startSdkServer } from "./launch.mjs";

/** The bound of each scenario unless it names its own. */
export const DEFAULT_BOUND_MS = 20_000;
/** The tasks' pollInterval on the servers compare.mjs starts. */
export const POLL_MS = 100;

/**
 * The scenarios. server: "http" (tasks), "http-unaware" (--tasks-unaware) or "stdio" (tasks, over
 * stdio). input: how the app answers the tool's input request — "accept" ({name: "Ada"}), "decline",
 * or "return" (the app gets the request back and answers it later). cancelAfterMs: the app cancels
 * the task then. deadlineMs: the app's own time limit on the wait. expect: what a client doing the
 * right thing gives (issue 40), for the table.
 */
export const scenarios = [
  { id: "complete", title: "complete", server: "http", tool: "slow", args: { ms: 500 }, expect: 'ok "slept 500 ms" (~0.5 s)' },
  { id: "input-answered", title: "input answered", server: "http", tool: "ask", input: "accept", expect: 'ok "ask: accept {"name":"Ada"}"' },
  { id: "input-declined", title: "input declined", server: "http", tool: "ask", input: "decline", expect: 'ok "ask: decline null"' },
  { id: "input-returned", title: "input returned, then answered", server: "http", tool: "ask", input: "return", expect: 'input_required (the request listed), then ok "ask: accept {"name":"Ada"}"' },
  { id: "fail-result", title: "fail with result", server: "http", tool: "fail_result", expect: "error task_failed carrying the stored result (isError)" },
  { id: "fail-status", title: "fail by status", server: "http", tool: "fail_status", expect: 'error task_failed "fail_status: deliberate failure"' },
  { id: "cancel", title: "cancel", server: "http", tool: "forever", cancelAfterMs: 500, expect: "cancelled (~0.5 s)" },
  { id: "timeout", title: "timeout", server: "http", tool: "slow", args: { ms: 10_000 }, deadlineMs: 1500, expect: "timeout at the 1.5 s deadline" },
  { id: "plain", title: "plain tool", server: "http", tool: "echo", args: { text: "hi" }, expect: 'ok "hi"' },
  { id: "unaware", title: "Tasks-unaware server", server: "http-unaware", tool: "slow", args: { ms: 500 }, expect: 'ok "slept 500 ms"' },
  { id: "unaware-input", title: "input on a Tasks-unaware server", server: "http-unaware", tool: "ask", input: "accept", expect: 'ok "ask: accept {"name":"Ada"}"' },
  { id: "stdio", title: "stdio", server: "stdio", tool: "slow", args: { ms: 500 }, expect: 'ok "slept 500 ms"' },
  { id: "tool-error", title: "tool error (isError, completed)", server: "http", tool: "tool_error", expect: "ok with isError: true" },
  { id: "required", title: "required task tool", server: "http", tool: "required_task", expect: 'ok "required_task: done"' },
];

const ANSWERS = { accept: { action: "accept", content: { name: "Ada" } }, decline: { action: "decline" }, return: { action: "accept", content: { name: "Ada" } } };
/** How long the app takes to answer a returned input request (ext-tasks has no return-and-update for 2025-11-25 tasks). */
const RETURN_DELAY_MS = 1000;

const firstText = (result) => (result?.content ?? []).find((c) => c.type === "text")?.text;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Wraps a client transport to count the JSON-RPC messages each way (by method; responses as "response"). */
function countMessages(transport) {
  const sent = {};
  const received = {};
  const taskParams = [];
  const key = (m) => m?.method ?? (m?.error ? "error" : "response");
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent[key(message)] = (sent[key(message)] ?? 0) + 1;
    if (message?.method === "tools/call") taskParams.push(message.params?.task);
    return send(message, options);
  };
  return {
    sent,
    received,
    taskParams,
    // After connect: the Protocol owns onmessage; wrap what it installed.
    watchIncoming() {
      const onmessage = transport.onmessage;
      transport.onmessage = (message, extra) => {
        if (message?.method) received[message.method] = (received[message.method] ?? 0) + 1;
        onmessage?.(message, extra);
      };
    },
  };
}

function describeOutcome(outcome) {
  if (outcome.status === "completed") {
    const t = firstText(outcome.result);
    return `ok ${JSON.stringify(t ?? outcome.result)}${outcome.result?.isError ? " (isError)" : ""}`;
  }
  if (outcome.status === "cancelled") return "cancelled";
  const e = outcome.error;
  const kept = e?.data?.result ? " (stored result kept in data.result)" : " (stored result dropped)";
  return `failed: ${e?.name ?? "Error"} ${JSON.stringify(e?.message)}${e?.code === undefined ? "" : ` code ${e.code}`}${kept}`;
}

/**
 * The official client: @modelcontextprotocol/client 2.4.0 + @modelcontextprotocol/ext-tasks 0.2.2.
 * How it reaches a 2025-11-25 server: the Client's default `versionNegotiation` is "legacy" (a plain
 * `initialize`, then the session); createTaskSessionFromClient reads `capabilities.tasks` of the
 * initialize result and picks its "v1" (2025-11-25) task protocol: tools/call with `task: {}` (a ttl
 * only when the app passes task.retentionMs), tasks/get at the task's pollInterval, tasks/result once
 * `completed`; its input handler (onInputRequest) answers server→client requests that reach the
 * Client by any stream (the session's GET stream or a response stream).
 */
async function extTasksDriver(scenario, server) {
  const boundMs = scenario.boundMs ?? DEFAULT_BOUND_MS;
  const client = new Client(
    { name: "compare-ext-tasks", version: "0" },
    { capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} } },
  );
  const transport =
    server.kind === "stdio"
      ? new StdioClientTransport({ ...server.stdio, stderr: "ignore" })
      : new StreamableHTTPClientTransport(new URL(server.url));
  const counts = countMessages(transport);
  const inputCalls = [];
  const notes = [];
  const t0 = Date.now();
  let connectMs;
  let session;
  let execution;
  let timer;
  try {
    await client.connect(transport);
    counts.watchIncoming();
    connectMs = Date.now() - t0;
    session = createTaskSessionFromClient(client, {
      endpointId: `compare-${scenario.id}`,
      onInputRequest: async (request, context) => {
        inputCalls.push({ kind: request.kind, scope: context.scope });
        if (scenario.input === "return") await sleep(RETURN_DELAY_MS);
        return ANSWERS[scenario.input ?? "decline"];
      },
      onError: (e) => notes.push(`onError: ${e.message}`),
    });
    const start = Date.now();
    const bound = new Promise((resolve) => {
      timer = setTimeout(() => resolve("bound"), boundMs);
    });
    const run = (async () => {
      const signal = scenario.deadlineMs ? AbortSignal.timeout(scenario.deadlineMs) : undefined;
      // "prefer": ext-tasks calls an `optional` tool as a task only when asked to (default "allow" = plain).
      execution = await session.callTool(scenario.tool, scenario.args ?? {}, { task: { preference: "prefer" }, ...(signal ? { signal } : {}) });
      if (scenario.cancelAfterMs !== undefined) {
        setTimeout(() => execution.cancel().catch((e) => notes.push(`cancel threw: ${e.message}`)), scenario.cancelAfterMs);
      }
      const { outcome } = await execution.settle();
      return describeOutcome(outcome);
    })().catch((e) => `threw ${e?.name ?? "Error"}: ${JSON.stringify(e?.message)}`);
    const got = await Promise.race([run, bound]);
    const ms = Date.now() - start;
    const outcome = got === "bound" ? `no outcome (still waiting at the ${boundMs / 1000} s bound)` : got;
    if (execution?.kind) {
      const task = counts.taskParams[0];
      notes.push(execution.kind === "task" ? `called as a task (task: ${JSON.stringify(task)})` : "called plain");
    }
    if (scenario.input === "return") notes.push(`no return-then-update for 2025-11-25 tasks in ext-tasks: emulated by a handler that answers after ${RETURN_DELAY_MS} ms`);
    const sent = Object.entries(counts.sent)
      .filter(([m]) => m.startsWith("tasks/") || m === "tools/call")
      .map(([m, n]) => `${m} ×${n}`);
    notes.push(`sent ${sent.join(", ") || "nothing"}`);
    const asked = Object.entries(counts.received).filter(([m]) => !m.startsWith("notifications/"));
    if (scenario.input || asked.length) {
      notes.push(`server→client requests received ${asked.map(([m, n]) => `${m} ×${n}`).join(", ") || "none"}; input handler called ${inputCalls.length}×`);
    }
    if (counts.received["notifications/tasks/status"]) notes.push(`notifications/tasks/status ×${counts.received["notifications/tasks/status"]}`);
    notes.push(`connect ${connectMs} ms`);
    return { outcome, ms, note: notes.join("; ") };
  } catch (e) {
    return { outcome: `threw ${e?.name ?? "Error"}: ${JSON.stringify(e?.message)}`, ms: Date.now() - t0, note: notes.join("; ") };
  } finally {
    clearTimeout(timer);
    await Promise.race([(async () => {
      await session?.close().catch(() => {});
      await client.close().catch(() => {});
    })(), sleep(3000)]);
  }
}

/** How this package's outcome reads in the table. */
function describeOurs(out) {
  if (out.tag === "ok") return `ok ${JSON.stringify(firstText(out.result) ?? out.result)}${out.result?.isError ? " (isError)" : ""}`;
  if (out.tag === "cancelled") return "cancelled";
  if (out.tag === "input_required") return `input_required (${Object.keys(out.status?.inputRequests ?? {}).length} request listed)`;
  const e = out.error;
  const kept = e?.data?.result ? " (stored result in data.result)" : "";
  return `error ${e?.cause?.type ?? e?.kind} ${JSON.stringify(e?.message)} code ${e?.code}${kept}`;
}

/**
 * This package (the built pkg/): `callAndAwait` on an `httpClient` / `stdioClient` that finds the
 * server's generation by itself; input through its `inputHandlers` (or `input: "return"`, then
 * `updateTask` and `awaitTask`); the deadline as `timeoutMs`; a cancel through `cancelSignal`.
 */
async function oursDriver(scenario, server) {
  const pkg = new URL("../../../pkg/", import.meta.url);
  const lib = await import(new URL("node.js", pkg).href);
  const { stdioClient } = await import(new URL("stdio.js", pkg).href);
  const boundMs = scenario.boundMs ?? DEFAULT_BOUND_MS;
  const inputCalls = [];
  const form = async () => {
    inputCalls.push("form");
    return ANSWERS[scenario.input ?? "decline"];
  };
  const options = { inputHandlers: { form } };
  const client =
    server.kind === "stdio"
      ? stdioClient(server.stdio.command, server.stdio.args, { ...options, cwd: server.stdio.cwd, env: server.stdio.env, stderr: "ignore" })
      : lib.httpClient(server.url, options);
  const sent = {};
  const request = client.request.bind(client);
  client.request = (method, params, opts) => {
    sent[method] = (sent[method] ?? 0) + 1;
    return request(method, params, opts);
  };
  const respond = client.respond.bind(client);
  client.respond = (...args) => {
    sent.response = (sent.response ?? 0) + 1;
    return respond(...args);
  };
  const start = Date.now();
  const notes = [];
  try {
    const cancel = new AbortController();
    if (scenario.cancelAfterMs !== undefined) setTimeout(() => cancel.abort(), scenario.cancelAfterMs);
    const wait = { timeoutMs: scenario.deadlineMs ?? boundMs, cancelSignal: cancel.signal, ...(scenario.input === "return" ? { input: "return" } : {}) };
    let out = await lib.callAndAwait(client, scenario.tool, scenario.args ?? {}, {}, wait);
    let outcome = describeOurs(out);
    if (scenario.input === "return" && out.tag === "input_required") {
      const [key] = Object.keys(out.status.inputRequests);
      const ack = await lib.updateTask(client, out.status.taskId, { [key]: ANSWERS.accept });
      out = ack.tag === "ok" ? await lib.awaitTask(client, out.status.taskId, { timeoutMs: boundMs }) : ack;
      outcome += `, then ${describeOurs(out)}`;
    }
    notes.push(`generation ${client.generation}`);
    notes.push(`sent ${Object.entries(sent).map(([m, n]) => `${m} ×${n}`).join(", ")}`);
    if (scenario.input) notes.push(`input handler called ${inputCalls.length}×`);
    return { outcome, ms: Date.now() - start, note: notes.join("; ") };
  } finally {
    await client.close();
  }
}

/** Client drivers by name: async (scenario, server) => ({outcome, ms, note}). */
export const drivers = {
  "mcp-tasks-wasm": oursDriver,
  "ext-tasks": extTasksDriver,
};

/**
 * Starts the three servers (HTTP with tasks, HTTP --tasks-unaware, and a stdio spec), runs each
 * driver over each scenario in turn, stops the servers. Resolves with
 * [{scenario, results: {driverName: {outcome, ms, note}}}].
 */
export async function runComparison({ driverNames = Object.keys(drivers), only, boundMs, log = () => {} } = {}) {
  const chosen = scenarios.filter((s) => !only || only.includes(s.id)).map((s) => (boundMs ? { ...s, boundMs } : s));
  const [tasksServer, unawareServer] = await Promise.all([
    startSdkServer({ pollMs: POLL_MS }),
    startSdkServer({ pollMs: POLL_MS, tasksUnaware: true }),
  ]);
  const servers = {
    http: { kind: "http", url: tasksServer.url },
    "http-unaware": { kind: "http-unaware", url: unawareServer.url },
    stdio: { kind: "stdio", stdio: sdkStdioSpec({ pollMs: POLL_MS }) },
  };
  const rows = chosen.map((scenario) => ({ scenario, results: {} }));
  try {
    for (const name of driverNames) {
      const driver = drivers[name];
      if (!driver) throw new Error(`no driver ${name} (have: ${Object.keys(drivers).join(", ")})`);
      for (const row of rows) {
        const bound = (row.scenario.boundMs ?? DEFAULT_BOUND_MS) + 5000;
        const result = await Promise.race([
          driver(row.scenario, servers[row.scenario.server]).catch((e) => ({ outcome: `driver threw: ${e?.message}`, ms: NaN, note: "" })),
          sleep(bound).then(() => ({ outcome: `driver did not return within ${bound / 1000} s`, ms: bound, note: "" })),
        ]);
        row.results[name] = result;
        log(`${name} ${row.scenario.id}: ${result.outcome} (${result.ms} ms)`);
      }
    }
  } finally {
    await Promise.all([tasksServer.stop(), unawareServer.stop()]);
  }
  return rows;
}

const cell = (s) => String(s ?? "").replaceAll("|", "\\|").replaceAll("\n", " ");
const seconds = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : "—");

/** The rows as a markdown table: scenario, what a correct client gives, then per driver outcome / time / note. */
export function markdownTable(rows, driverNames = Object.keys(rows[0]?.results ?? {})) {
  const head = ["scenario", "server, tool", "a correct client gives", ...driverNames.flatMap((d) => [`${d}: outcome`, "time", "wire"])];
  const lines = [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`];
  for (const { scenario, results } of rows) {
    const where = `${scenario.server}, \`${scenario.tool}${scenario.args ? " " + JSON.stringify(scenario.args) : ""}\``;
    const cells = [scenario.title, where, scenario.expect];
    for (const d of driverNames) {
      const r = results[d] ?? {};
      cells.push(r.outcome, seconds(r.ms), r.note);
    }
    lines.push(`| ${cells.map(cell).join(" | ")} |`);
  }
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: { only: { type: "string" }, driver: { type: "string" }, "bound-ms": { type: "string" }, json: { type: "boolean", default: false } },
  });
  const t0 = Date.now();
  const rows = await runComparison({
    driverNames: values.driver ? values.driver.split(",") : undefined,
    only: values.only ? values.only.split(",") : undefined,
    boundMs: values["bound-ms"] ? Number(values["bound-ms"]) : undefined,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  console.log(values.json ? JSON.stringify(rows, null, 2) : markdownTable(rows));
  process.stderr.write(`compare: ${rows.length} scenarios in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  process.exit(0);
}
