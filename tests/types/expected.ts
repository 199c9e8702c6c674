// Issue 30's types, checked with strict, noUncheckedIndexedAccess and exactOptionalPropertyTypes
// (tsconfig.json) against the package's own declarations: content blocks narrow on `type`,
// `resultText`, `input_required` narrows on `source`, handlers may return the plain result, form
// schemas are the spec's flat primitive schema, `cancelSignal`, and options that accept `undefined`.
import {
  awaitTask,
  callAndAwait,
  callTool,
  directClient,
  resultText,
  type CallAndAwaitOutcome,
  type ContentBlock,
  type InputHandlers,
  type PrimitiveSchema,
  type UnknownContentBlock,
} from "mcp-tasks-wasm";

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `${block.mimeType}, ${block.data.length} base64 chars`;
    case "resource_link":
      return block.uri;
    case "resource":
      return "text" in block.resource ? block.resource.text : block.resource.blob;
    default:
      return (block as UnknownContentBlock).type;
  }
}

function describeField(schema: PrimitiveSchema): string {
  switch (schema.type) {
    case "string":
      return "enum" in schema ? schema.enum.join("|") : "oneOf" in schema ? schema.oneOf.map((o) => o.title).join("|") : schema.format ?? "text";
    case "number":
    case "integer":
      return `${schema.minimum ?? "-∞"}..${schema.maximum ?? "∞"}`;
    case "boolean":
      return "yes/no";
    case "array":
      return "enum" in schema.items ? schema.items.enum.join(",") : schema.items.anyOf.map((o) => o.const).join(",");
  }
}

export const handlers: InputHandlers = {
  // The plain ElicitResult, as the official SDK's handlers return it.
  form: (params) => ({ action: "accept", content: Object.fromEntries(Object.entries(params.requestedSchema.properties).map(([k, s]) => [k, describeField(s)])) }),
  url: () => ({ action: "cancel" }),
  roots: async () => ({ roots: [{ uri: "file:///work" }] }),
  sampling: () => ({ tag: "error", reason: "no model here" }),
};

export async function expected(timeoutMs: number | undefined): Promise<string> {
  const client = directClient(() => ({}), { inputHandlers: handlers });
  const button = new AbortController();
  const out: CallAndAwaitOutcome = await callAndAwait(client, "slow", { ms: 10 }, { timeoutMs }, { cancelSignal: button.signal, signal: undefined });
  switch (out.tag) {
    case "ok":
      return resultText(out.result) + (out.result.content ?? []).map(describeBlock).join("");
    case "input_required":
      if (out.source === "task") return `task ${out.status.taskId} needs ${Object.keys(out.status.inputRequests ?? {}).join(",")}`;
      return `the call needs input; state ${out.status.requestState ?? "none"}`;
    case "cancelled":
      return `cancelled ${out.status.taskId}`;
    case "error":
      return out.error.message;
  }
}

export async function narrowing(): Promise<string[]> {
  const client = directClient(() => ({}));
  const called = await callTool(client, "ask", {}, { input: "return" });
  const waited = await awaitTask(client, "t1", { input: "return" });
  const lines: string[] = [];
  if (called.tag === "input_required") lines.push(called.source, called.status.requestState ?? "");
  if (waited.tag === "input_required") lines.push(waited.source, waited.status.taskId);
  const first = waited.tag === "ok" ? waited.result.content?.[0] : undefined;
  if (first?.type === "text") lines.push(first.text);
  lines.push(resultText(undefined));
  return lines;
}
