// The options and errors of the robustness guarantees, checked under the strict flags of
// tsconfig.json against the package's own declarations: `maxAnswerBytes`, the refused redirect's
// `location`, and the McpProtocolError every transport rejects with for a message that is neither a
// response nor a request.
import { httpClient, type HttpClientOptions, type McpHttpError, type McpProtocolError } from "mcp-tasks-wasm";

const options: HttpClientOptions = { maxAnswerBytes: 128 * 1024 * 1024, requestTimeoutMs: 10_000 };
export const client = httpClient("https://example.invalid/mcp", options);
export const unbounded = httpClient("https://example.invalid/mcp", { maxAnswerBytes: Infinity, fetch: (url, init) => fetch(url, init) });
// @ts-expect-error: maxAnswerBytes is a number of bytes.
export const wrong = httpClient("https://example.invalid/mcp", { maxAnswerBytes: "64MB" });

/** What a failed request says, by the transport error it rejected with. */
export function explain(e: McpHttpError | McpProtocolError): string {
  if (e.name === "McpProtocolError") return `protocol: ${JSON.stringify(e.response)} (retryable: ${e.retryable})`;
  if (e.location !== undefined) return `redirect refused${e.location ? ` to ${e.location}` : ""} (HTTP ${e.status})`;
  if (e.maxAnswerBytes !== undefined) return `answer over ${e.maxAnswerBytes} bytes`;
  return `${e.status} ${e.body}`;
}
