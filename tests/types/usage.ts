// Typed usage of the public API, checked with `tsc --noEmit --strict` against the package's own
// declarations (imported by package name through the exports map). It must compile with no `any`.
import {
  awaitTask,
  callAndAwait,
  callTool,
  cancelTask,
  capabilities,
  directClient,
  getTask,
  McpChannelError,
  McpHttpError,
  serverSupports,
  TASKS_EXTENSION,
  updateTask,
  validateElicitResult,
  type AwaitTaskOutcome,
  type CallToolOutcome,
  type InputHandlers,
  type TaskStatus,
  type TasksClient,
} from "mcp-tasks-wasm";

const handlers: InputHandlers = {
  form: async (params, { key, signal }) => {
    const fields = Object.keys(params.requestedSchema.properties);
    if (signal.aborted) return { tag: "error", reason: `gave up on ${key}` };
    return { tag: "ok", response: { action: "accept", content: { [fields[0] ?? "name"]: "Ada" } } };
  },
  url: (params) => ({ tag: "ok", response: { action: params.url.startsWith("https:") ? "accept" : "decline" } }),
};

const client: TasksClient = {
  clientCapabilities: capabilities({ elicitation: { form: {} } }),
  inputHandlers: handlers,
  requestTimeoutMs: 10_000,
  async request(method, params, { signal, timeoutMs }) {
    const res = await fetch("https://example.invalid/mcp", { method: "POST", body: JSON.stringify({ method, params, timeoutMs }), signal });
    return (await res.json()) as object;
  },
};

function describeOutcome(out: AwaitTaskOutcome): string {
  switch (out.tag) {
    case "ok":
      return out.result.isError ? "tool error" : `done: ${JSON.stringify(out.result.content)}`;
    case "cancelled":
      return `cancelled: ${out.status.statusMessage ?? ""}`;
    case "input_required":
      return `needs: ${Object.keys(out.status.inputRequests ?? {}).join(", ")}`;
    case "error": {
      const { code, kind, cause } = out.error;
      if (cause?.type === "timeout") return `timed out (${code}); last status ${cause.status?.status ?? "none"}`;
      if (cause?.type === "task_failed") return `task failed: ${cause.status.taskId}`;
      if (cause?.type === "input_handler") return `handler ${cause.key ?? "(function)"} failed`;
      return `${kind} error ${code}`;
    }
  }
}

export async function main(): Promise<void> {
  const created: CallToolOutcome = await callTool(client, "slow", { ms: 100 }, { timeoutMs: 5_000 });
  if (created.tag === "task") {
    const status: TaskStatus = created.status;
    const out = await awaitTask(client, status, {
      onStatus: (s) => console.log(s.status, s.statusMessage),
      listen: true,
      cancelOnAbort: true,
      signal: AbortSignal.timeout(60_000),
      input: async (s) => ({ tag: "ok", responses: Object.fromEntries(Object.keys(s.inputRequests ?? {}).map((k) => [k, { action: "cancel" as const }])) }),
    });
    console.log(describeOutcome(out));
  } else if (created.tag === "input_required") {
    console.log(created.status.requestState);
  }
  const both = await callAndAwait(client, "ask");
  if (both.tag === "ok") console.log(both.result.structuredContent);
  const got = await getTask(client, "tsk_1");
  if (got.tag === "ok") console.log(got.status.pollIntervalMs);
  const ack = await updateTask(client, "tsk_1", { name: { action: "accept", content: { name: "Ada" } } });
  if (ack.tag === "error") console.log(ack.error.message);
  await cancelTask(client, "tsk_1", { requestTimeoutMs: 1_000 });
  const direct = directClient((method) => ({ method }), { inputHandlers: handlers });
  console.log(TASKS_EXTENSION, serverSupports({ capabilities: {} }), validateElicitResult({ action: "cancel" }).tag, direct.request);
}

/** What a transport failure is, told by its class (the error classes are values: instanceof works). */
export function describeFailure(e: unknown): string {
  if (e instanceof McpHttpError) return `HTTP ${e.status}: ${e.body}${e.retryAfterMs === undefined ? "" : ` (retry after ${e.retryAfterMs} ms)`}`;
  if (e instanceof McpChannelError) return `${e.name}: ${e.message}${e.retryable === false ? " (closed)" : ""}`;
  return String(e);
}
