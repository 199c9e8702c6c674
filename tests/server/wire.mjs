// Raw wire helpers for tests: hand-built 2026-07-28 requests over fetch, an SSE parser, a listen
// stream reader. They bypass the library on purpose (they test the server, or check wire facts).
export const EXT = "io.modelcontextprotocol/tasks";
export const V = "io.modelcontextprotocol/protocolVersion";
export const C = "io.modelcontextprotocol/clientCapabilities";
export const SUB = "io.modelcontextprotocol/subscriptionId";
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const caps = (ext = true) => ({ elicitation: { form: {}, url: {} }, sampling: {}, roots: {}, ...(ext ? { extensions: { [EXT]: {} } } : {}) });
export const meta = (ext = true) => ({ [V]: "2026-07-28", [C]: caps(ext), "io.modelcontextprotocol/clientInfo": { name: "test", version: "0" } });
export const encode = (s) => `=?base64?${Buffer.from(s, "utf8").toString("base64")}?=`;

let nextId = 1;

export function headersFor(method, params) {
  const h = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  if (method === "tools/call") h["mcp-name"] = params.name;
  if (["tasks/get", "tasks/update", "tasks/cancel"].includes(method)) h["mcp-name"] = params.taskId;
  return h;
}

export function parseSse(text) {
  return text.split(/\r?\n\r?\n/).map((block) => block.split(/\r?\n/)
    .filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, "")).join("\n"))
    .filter(Boolean).map((d) => JSON.parse(d));
}

/** POSTs one request; returns status, content type, all messages, and the response for our id. */
export async function rpc(url, method, params = {}, { ext = true, headers = {}, withMeta = true, id = nextId++, body } = {}) {
  const p = withMeta ? { ...params, _meta: meta(ext) } : params;
  const hs = Object.fromEntries(Object.entries({ ...headersFor(method, p), ...headers }).filter(([, v]) => v !== undefined));
  const res = await fetch(url, { method: "POST", headers: hs, body: body ?? JSON.stringify({ jsonrpc: "2.0", id, method, params: p }) });
  const raw = await res.text();
  const ct = res.headers.get("content-type") ?? "";
  const messages = ct.startsWith("text/event-stream") ? parseSse(raw) : raw ? [JSON.parse(raw)] : [];
  const response = messages.find((m) => m.id === id || m.id === null);
  return { status: res.status, ct, raw, res, messages, response, result: response?.result, error: response?.error };
}

/** Opens subscriptions/listen and reads its SSE stream message by message. */
export async function listen(url, taskIds, { ext = true, id = `listen-${nextId++}` } = {}) {
  const params = { notifications: { taskIds }, _meta: meta(ext) };
  const ac = new AbortController();
  const res = await fetch(url, { method: "POST", signal: ac.signal, headers: headersFor("subscriptions/listen", params),
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params }) });
  if (!res.headers.get("content-type").startsWith("text/event-stream")) return { id, status: res.status, error: (await res.json()).error };
  const queue = [];
  let ended = false;
  let wake = () => {};
  (async () => {
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let buf = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
        let i;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          queue.push(...parseSse(buf.slice(0, i + 2)));
          buf = buf.slice(i + 2);
          wake();
        }
      }
    } catch { /* aborted */ }
    ended = true;
    wake();
  })();
  /** The next message, null at the end of the stream, "timeout" when nothing came within ms. */
  async function next(ms = 2000) {
    const deadline = Date.now() + ms;
    while (!queue.length && !ended && Date.now() < deadline) {
      await new Promise((r) => {
        const timer = setTimeout(r, deadline - Date.now());
        wake = () => { clearTimeout(timer); r(); };
      });
    }
    return queue.length ? queue.shift() : ended ? null : "timeout";
  }
  async function rest(ms = 3000) {
    const out = [];
    for (let m = await next(ms); m !== null; m = await next(ms)) {
      if (m === "timeout") throw new Error("listen stream did not end");
      out.push(m);
    }
    return out;
  }
  return { id, status: res.status, res, next, rest, close: () => ac.abort() };
}

export async function waitFor(url, taskId, pred, timeout = 3000) {
  const end = Date.now() + timeout;
  for (;;) {
    const r = await rpc(url, "tasks/get", { taskId });
    if (r.result && pred(r.result)) return r.result;
    if (Date.now() > end) throw new Error(`timeout waiting on ${taskId}: ${JSON.stringify(r.response)}`);
    await sleep(10);
  }
}
export const terminal = (t) => ["completed", "failed", "cancelled"].includes(t.status);
export const resultText = (t) => t.result.content[0].text;
