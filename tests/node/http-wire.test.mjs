// The HTTP client's wire rules, unit by unit: the event-stream parser (fed split at every position,
// inside fields, between CR and LF, inside multi-byte characters), the Mcp-Name header value (plain,
// or the base64 sentinel) and which params field it names — then the same rules end to end through
// httpClient with a recording fetch.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lib, rejection } from "./pkg.mjs";

const dir = process.env.PKG_DIR ?? "pkg";
const wire = await import(new URL(`../../${dir}/http.js`, import.meta.url).href);
const { sseParser, headerValue, nameField, MAX_EVENT_CHARS } = wire;
// These tests are of the 2026-07-28 wire: the client is told its generation (no server/discover probe
// first); finding the generation out is tested in tests/node/generation.test.mjs.
const httpClient = (url, o) => lib.httpClient(url, o === undefined ? { generation: "2026-07-28" } : isPlain(o) ? { generation: "2026-07-28", ...o } : o);
function isPlain(o) {
  return typeof o === "object" && o !== null && !Array.isArray(o);
}

/** The events of `text` fed in `pieces` (then finished when `finish`). */
function parse(pieces, finish = false) {
  const out = [];
  const p = sseParser((type, data) => out.push({ type, data }));
  for (const piece of pieces) p.push(piece);
  if (finish) p.finish();
  return out;
}

/** Feeds `text` whole, split at every position, and char by char (through a streaming TextDecoder
 * over its UTF-8 bytes, split at every byte): the events never change. */
function allSplits(text) {
  const whole = parse([text]);
  for (let cut = 0; cut <= text.length; cut++) {
    assert.deepEqual(parse([text.slice(0, cut), text.slice(cut)]), whole, `split at ${cut}`);
  }
  assert.deepEqual(parse([...text]), whole, "char by char");
  const bytes = new TextEncoder().encode(text);
  for (let cut = 0; cut <= bytes.length; cut++) {
    const d = new TextDecoder();
    const pieces = [d.decode(bytes.subarray(0, cut), { stream: true }), d.decode(bytes.subarray(cut), { stream: true }), d.decode()];
    assert.deepEqual(parse(pieces), whole, `byte split at ${cut}`);
  }
  return whole;
}
const data = (events) => events.map((e) => e.data);

test("sse: one event per blank line", () => {
  const ev = allSplits('data: {"a":1}\n\ndata: two\n\n');
  assert.deepEqual(data(ev), ['{"a":1}', "two"]);
  assert.ok(ev.every((e) => e.type === ""));
});

test("sse: CRLF, CR and LF line ends, mixed", () => {
  for (const input of ["data: x\r\n\r\ndata: y\r\n\r\n", "data: x\r\rdata: y\r\r", "data: x\n\ndata: y\n\n", "data: x\r\n\ndata: y\n\r\n"]) {
    assert.deepEqual(data(allSplits(input)), ["x", "y"], JSON.stringify(input));
  }
});

test("sse: a CR ending one piece and an LF starting the next are one line end", () => {
  const out = [];
  const p = sseParser((type, d) => out.push(d));
  p.push("data: a\r");
  p.push("\n");
  assert.deepEqual(out, []);
  p.push("\r\n");
  assert.deepEqual(out, ["a"]);
  p.push("data: b\r\r");
  assert.deepEqual(out, ["a", "b"], "CR CR is a blank line");
});

test("sse: comments are skipped; multi-line data joined with LF; one space stripped", () => {
  assert.deepEqual(data(allSplits(": keep-alive\n\n:\ndata: x\n: inside\n\n")), ["x"]);
  assert.deepEqual(data(allSplits("data: a\ndata:b\ndata\ndata:  c\n\n")), ["a\nb\n\n c"]);
  assert.deepEqual(data(allSplits("data:x\n\ndata: x\n\ndata:  x\n\n")), ["x", "x", " x"]);
});

test("sse: event types, reset after each dispatch and by a blank line without data", () => {
  const ev = allSplits("event: ping\nid: 7\ndata: p\n\ndata: m\n\nevent: message\ndata: n\n\n");
  assert.deepEqual(ev, [{ type: "ping", data: "p" }, { type: "", data: "m" }, { type: "message", data: "n" }]);
  const quiet = allSplits("\n\n\nevent: x\n\nretry: 10\nfoo: bar\n\ndata\n\n");
  assert.deepEqual(quiet, [{ type: "", data: "" }]);
});

test("sse: multi-byte characters split anywhere; a BOM stripped from the stream start only", () => {
  assert.deepEqual(data(allSplits('data: {"t":"héllo ✓ 😀"}\n\n')), ['{"t":"héllo ✓ 😀"}']);
  // TextDecoder drops the BOM at the start of the stream; a later U+FEFF makes the field unknown.
  const bytes = new TextEncoder().encode("\uFEFFdata: a\n\n\uFEFFdata: b\n\ndata: c\n\n");
  const d = new TextDecoder();
  assert.deepEqual(data(parse([d.decode(bytes)])), ["a", "c"]);
});

test("sse: finish dispatches a last event that lacks its blank line", () => {
  assert.deepEqual(data(parse(["data: a\n\ndata: b"], true)), ["a", "b"]);
  assert.deepEqual(data(parse(["data: c\n"], true)), ["c"]);
  assert.deepEqual(parse([": only a comment\n"], true), []);
});

test("sse: an event past the cap stops the parser; many small events never do", () => {
  const p = sseParser(() => assert.fail("nothing is dispatched"));
  assert.equal(p.push("data: "), true);
  assert.equal(p.push("x".repeat(MAX_EVENT_CHARS - 100)), true);
  assert.equal(p.push("y".repeat(200)), false);
  assert.equal(p.push("\n\ndata: {}\n\n"), false, "nothing more is parsed");
  let n = 0;
  const q = sseParser(() => n++);
  const piece = `data: ${"z".repeat(1000)}\n\n`;
  for (let i = 0; i < 20000; i++) assert.equal(q.push(piece), true);
  assert.equal(n, 20000);
  // The cap counts data lines too, not only the line being read.
  const r = sseParser(() => assert.fail("nothing is dispatched"));
  const line = `data: ${"d".repeat(1 << 20)}\n`;
  let ok = true;
  for (let i = 0; i < 10 && ok; i++) ok = r.push(line);
  assert.equal(ok, false);
});

test("Mcp-Name: which params field, for which method", () => {
  assert.equal(nameField("tools/call"), "name");
  assert.equal(nameField("prompts/get"), "name");
  assert.equal(nameField("resources/read"), "uri");
  for (const m of ["tasks/get", "tasks/update", "tasks/cancel"]) assert.equal(nameField(m), "taskId");
  for (const m of ["subscriptions/listen", "server/discover", "tasks/list", "ping", "tools/list", "constructor", "__proto__"]) {
    assert.equal(nameField(m), undefined, m);
  }
});

test("Mcp-Name: plain values pass through; others travel as the base64 sentinel (RFC 4648)", () => {
  for (const v of ["slow", "tsk_0123abcd", "file:///a b/c?x=1", "a\tb", "~!@#$%^&*()", "=?base64?", "x?=", "x"]) {
    assert.equal(headerValue(v), v, v);
  }
  const cases = {
    "tâche-1": "=?base64?dMOiY2hlLTE=?=",
    " lead": "=?base64?IGxlYWQ=?=",
    "trail ": "=?base64?dHJhaWwg?=",
    "\ttab": "=?base64?CXRhYg==?=",
    "a\nb": "=?base64?YQpi?=",
    "a\rb": "=?base64?YQ1i?=",
    "nul\0": "=?base64?bnVsAA==?=",
    "del\x7f": "=?base64?ZGVsfw==?=",
    "": "=?base64??=",
    "😀": "=?base64?8J+YgA==?=",
    "héllo ✓": "=?base64?aMOpbGxvIOKckw==?=",
    // sentinel-shaped values are encoded; the markers are case-sensitive
    "=?base64?Zm9v?=": "=?base64?PT9iYXNlNjQ/Wm05dj89?=",
    "=?base64??=": "=?base64?PT9iYXNlNjQ/Pz0=?=",
    "=?BASE64?Zm9v?=": "=?BASE64?Zm9v?=",
  };
  for (const [v, want] of Object.entries(cases)) assert.equal(headerValue(v), want, JSON.stringify(v));
  // RFC 4648 vectors through the sentinel (a leading space forces encoding; strip its "IA" share by
  // comparing against Buffer's own base64 of the same bytes).
  for (const s of ["f", "fo", "foo", "foob", "fooba", "foobar"]) {
    assert.equal(headerValue(` ${s}`), `=?base64?${Buffer.from(` ${s}`).toString("base64")}?=`);
  }
  const long = "é".repeat(100_000); // longer than one String.fromCharCode batch
  assert.equal(headerValue(long), `=?base64?${Buffer.from(long).toString("base64")}?=`);
});

/** A fetch that records each POST and answers it with `answer(message, init)` (default: `{}` result). */
function recording(answer) {
  const calls = [];
  const f = async (url, init) => {
    const message = JSON.parse(init.body);
    calls.push({ url, init, message, headers: Object.fromEntries(init.headers.entries()) });
    return answer ? answer(message, init) : Response.json({ jsonrpc: "2.0", id: message.id, result: {} });
  };
  return { f, calls };
}

test("through the client: the routing headers of each method, the caller's never replacing them", async () => {
  const rec = recording();
  const client = httpClient("http://x.invalid/mcp", {
    fetch: rec.f,
    headers: { "mcp-method": "evil", "Mcp-Name": "evil", "MCP-Protocol-Version": "1999", "X-App": "1" },
  });
  await client.request("tools/call", { name: "tâche", arguments: {} });
  await client.request("tasks/get", { taskId: "tsk 1" });
  await client.request("ping", {});
  await client.request("tasks/cancel", { taskId: 42 });
  const [a, b, c, d] = rec.calls.map((x) => x.headers);
  assert.equal(a["mcp-method"], "tools/call");
  assert.equal(a["mcp-name"], "=?base64?dMOiY2hl?=");
  assert.equal(a["mcp-protocol-version"], "2026-07-28");
  assert.equal(a["content-type"], "application/json");
  assert.equal(a.accept, "application/json, text/event-stream");
  assert.equal(a["x-app"], "1");
  assert.equal(b["mcp-name"], "tsk 1");
  assert.equal("mcp-name" in c, false, "no Mcp-Name for ping, the caller's deleted");
  assert.equal("mcp-name" in d, false, "a taskId that is not a string gives no Mcp-Name");
  assert.equal(rec.calls[0].init.method, "POST");
});

test("through the client: a response to the server's request is POSTed without Mcp-Method or Mcp-Name", async () => {
  const rec = recording(() => new Response(null, { status: 202 }));
  const client = httpClient("http://x.invalid/mcp", { fetch: rec.f, headers: { "Mcp-Method": "evil" } });
  await client.respond(7, { roots: [] });
  const [sent] = rec.calls;
  assert.deepEqual(sent.message, { jsonrpc: "2.0", id: 7, result: { roots: [] } });
  assert.equal("mcp-method" in sent.headers, false, `no method to route by: ${JSON.stringify(sent.headers)}`);
  assert.equal("mcp-name" in sent.headers, false);
  assert.equal(sent.headers["mcp-protocol-version"], "2026-07-28");
});

test("through the client: event streams split at every byte give the same response and notifications", async () => {
  const text = ': hi\r\n\r\nevent: other\ndata: {"jsonrpc":"2.0","id":1,"result":{"wrong":1}}\n\n' +
    'data: {"jsonrpc":"2.0",\ndata: "method":"notifications/message","params":{"t":"é😀"}}\r\r' +
    'data: {"jsonrpc":"2.0","id":1,"result":{"ok":"✓"}}\n\n';
  const bytes = new TextEncoder().encode(text);
  for (let cut = 0; cut <= bytes.length; cut += 7) {
    const client = httpClient("http://x.invalid/mcp", {
      fetch: async () => new Response(new ReadableStream({
        start(c) {
          c.enqueue(bytes.slice(0, cut));
          c.enqueue(bytes.slice(cut));
          c.close();
        },
      }), { headers: { "content-type": "Text/Event-Stream; charset=utf-8" } }),
    });
    assert.deepEqual(await client.request("ping", {}), { ok: "✓" }, `cut at ${cut}`);
  }
});

test("through the client: a listen's notifications are its own whatever the server tagged", async () => {
  const note = (params) => `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/tasks", params })}\n\n`;
  const client = httpClient("http://x.invalid/mcp", {
    fetch: async (u, init) => {
      const id = JSON.parse(init.body).id;
      const body = note({ taskId: "other" }) + note({ taskId: "t", _meta: { "io.modelcontextprotocol/subscriptionId": "someone-else" } }) +
        `data: ${JSON.stringify({ jsonrpc: "2.0", id, result: {} })}\n\n`;
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  });
  const it = await client.listen({ notifications: { taskIds: ["t"] } });
  const got = [];
  for await (const n of it) got.push(n.params.taskId);
  assert.deepEqual(got, ["other", "t"]);
});

test("through the client: a listen refused before its stream opens rejects listen() itself", async () => {
  const refused = httpClient("http://x.invalid/mcp", { fetch: async () => new Response("nope", { status: 403 }) });
  const e = await rejection(refused.listen({ notifications: { taskIds: ["t"] } }));
  assert.equal(e.name, "McpHttpError");
  assert.equal(e.status, 403);
  const ac = new AbortController();
  const hanging = httpClient("http://x.invalid/mcp", { fetch: (u, init) => new Promise((_, reject) => init.signal.addEventListener("abort", () => reject(init.signal.reason))) });
  const opening = hanging.listen({ notifications: { taskIds: ["t"] } }, { signal: ac.signal });
  setTimeout(() => ac.abort(), 20);
  const aborted = await rejection(opening);
  assert.match(aborted.message, /aborted/);
});
