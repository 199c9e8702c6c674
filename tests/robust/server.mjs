// The servers of the robustness matrix: two small Node http servers on 127.0.0.1 (two ports, so two
// origins: "home" serves the pages and the MCP endpoints, "other" is where a redirect points), each
// answering the hostile shapes the cases need, recording what reached it (GET /hits?key=…), with CORS
// open to any origin (so a browser would follow a redirect to "other" if the client let it: the case
// must see the client refuse, not the browser). The home server also serves the repository's files
// (the built package and the case pages) for Chromium.
//
// POST /mcp/<route>?key=…&… (the request's JSON-RPC id is echoed where an answer needs one):
//   json?bytes=N        a JSON response whose result carries N bytes of padding, written 1 MB at a time
//   sse-foreign?bytes=N an event stream: N bytes of foreign events, then the response
//   bomb                a gzip body of 400 MB of spaces and then the response (≈ 390 KB on the wire)
//   bomb-sse            a gzip event stream of 400 MB of comment lines and then the response
//   endless             an event stream of 1 MB comments until the client goes (bytes written: /hits)
//   redirect?status=S&to=URL   status S with Location URL
//   record              answers {} (and records the request: method, path, headers)
//   answer?kind=K       method-json / method-sse: a response to the id that also carries "method";
//                       bare-json: `{jsonrpc, id}` and nothing else
import http from "node:http";
import { readFile } from "node:fs/promises";
import { createGzip } from "node:zlib";
import path from "node:path";

const MB = 1024 * 1024;
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, GET, OPTIONS",
  "access-control-allow-headers": "content-type, accept, mcp-protocol-version, mcp-method, mcp-name, x-api-key",
  "access-control-expose-headers": "content-type, location",
};
const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8", ".wasm": "application/wasm" };

let bombs;
/** The gzip of `size` bytes of `block` repeated, then `tail` (streamed: no 400 MB buffer). */
async function gzipOf(block, size, tail) {
  const gzip = createGzip({ level: 9 });
  const out = [];
  gzip.on("data", (c) => out.push(c));
  const ended = new Promise((r) => gzip.on("end", r));
  for (let left = size; left > 0; left -= block.length) {
    if (!gzip.write(left >= block.length ? block : block.subarray(0, left))) await new Promise((r) => gzip.once("drain", r));
  }
  gzip.end(tail);
  await ended;
  return Buffer.concat(out);
}

/** The two gzip bombs (built once, ≈ 1.5 s of CPU each): 400 MB of padding before the response to id 1
 * (a case's first request on a fresh client). */
function gzipBombs() {
  const answer = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { bomb: true } });
  const comment = `: ${"x".repeat(1021)}\n`;
  bombs ??= Promise.all([
    gzipOf(Buffer.alloc(MB, 0x20), 400 * MB, Buffer.from(answer)),
    gzipOf(Buffer.from(comment.repeat(1024)), 400 * MB, Buffer.from(`\ndata: ${answer}\n\n`)),
  ]).then(([json, sse]) => ({ json, sse }));
  return bombs;
}

/** Starts the two servers; `{home, other, hits(key), close()}` (origins as strings). */
export async function startServers({ staticDir } = {}) {
  gzipBombs(); // built while the first cases run
  const hits = new Map();
  const record = (key, entry) => {
    if (!hits.has(key)) hits.set(key, []);
    hits.get(key).push(entry);
  };
  const make = (name) =>
    http.createServer(async (req, res) => {
      const url = new URL(req.url, "http://x");
      const key = url.searchParams.get("key") ?? "";
      if (req.method === "OPTIONS") {
        res.writeHead(204, CORS);
        return res.end();
      }
      if (req.method === "GET" && url.pathname === "/hits") {
        res.writeHead(200, { "content-type": "application/json", ...CORS });
        return res.end(JSON.stringify(hits.get(key) ?? []));
      }
      if (req.method === "GET" && staticDir && name === "home") return serveFile(staticDir, url.pathname, res);
      const chunks = [];
      for await (const c of req) chunks.push(c);
      let id = null;
      try {
        id = JSON.parse(Buffer.concat(chunks).toString("utf8")).id ?? null;
      } catch {}
      const route = url.pathname.replace(/^\/mcp\//, "");
      record(key, { server: name, route, method: req.method, headers: req.headers });
      await answer(route, url.searchParams, id, res, (entry) => record(key, entry));
    });
  const home = make("home");
  const other = make("other");
  await Promise.all([home, other].map((s) => new Promise((r) => s.listen(0, "127.0.0.1", r))));
  const origin = (s) => `http://127.0.0.1:${s.address().port}`;
  return {
    home: origin(home),
    other: origin(other),
    hits: (key) => hits.get(key) ?? [],
    close: () => Promise.all([home, other].map((s) => new Promise((r) => (s.closeAllConnections?.(), s.close(r))))),
  };
}

async function serveFile(dir, pathname, res) {
  const file = path.join(dir, path.normalize(decodeURIComponent(pathname)));
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
}

const JSON_TYPE = { "content-type": "application/json", ...CORS };
const SSE_TYPE = { "content-type": "text/event-stream", "cache-control": "no-cache", ...CORS };

/** Resolves once `res` drained or closed (one listener of each, removed after). */
function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** Writes `total` bytes of `unit` (a 1 MB block is reused) as the socket takes them; resolves false
 * when the client went away first. */
async function pour(res, total, fill = "x") {
  const block = Buffer.alloc(MB, fill);
  for (let left = total; left > 0; left -= MB) {
    if (res.destroyed) return false;
    const piece = left >= MB ? block : block.subarray(0, left);
    if (!res.write(piece)) await drained(res);
  }
  return !res.destroyed;
}

async function answer(route, q, id, res, note) {
  const bytes = Number(q.get("bytes") ?? 0);
  switch (route) {
    case "json": {
      res.writeHead(200, JSON_TYPE);
      res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"pad":"`);
      if (await pour(res, bytes)) res.end(`"}}`);
      return;
    }
    case "sse-foreign": {
      res.writeHead(200, SSE_TYPE);
      const event = Buffer.from(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x".repeat(64 * 1024) } })}\n\n`);
      for (let sent = 0; sent < bytes; sent += event.length) {
        if (res.destroyed) return;
        if (!res.write(event)) await drained(res);
      }
      res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id, result: { after: bytes } })}\n\n`);
      return;
    }
    case "bomb":
    case "bomb-sse": {
      const b = await gzipBombs();
      res.writeHead(200, { ...(route === "bomb" ? JSON_TYPE : SSE_TYPE), "content-encoding": "gzip", "content-length": (route === "bomb" ? b.json : b.sse).length });
      res.end(route === "bomb" ? b.json : b.sse);
      return;
    }
    case "endless": {
      res.writeHead(200, SSE_TYPE);
      const block = Buffer.from(`: ${"x".repeat(MB - 3)}\n`);
      let written = 0;
      res.on("close", () => note({ endless: "closed", written }));
      while (!res.destroyed && written < 1024 * MB) {
        written += block.length;
        if (!res.write(block)) await drained(res);
      }
      res.end();
      return;
    }
    case "redirect":
      res.writeHead(Number(q.get("status")), { location: q.get("to"), ...CORS });
      res.end();
      return;
    case "record":
      res.writeHead(200, JSON_TYPE);
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result: {} }));
      return;
    case "answer": {
      const kind = q.get("kind");
      const msg = kind.startsWith("method")
        ? { jsonrpc: "2.0", id, result: { resultType: "complete" }, method: "notifications/message" }
        : { jsonrpc: "2.0", id };
      if (kind.endsWith("json")) {
        res.writeHead(200, JSON_TYPE);
        res.end(JSON.stringify(msg));
      } else {
        // The stream stays open after the message: only the client's reading of it can end the request.
        res.writeHead(200, SSE_TYPE);
        res.write(`data: ${JSON.stringify(msg)}\n\n`);
      }
      return;
    }
    default:
      res.writeHead(404, JSON_TYPE);
      res.end("{}");
  }
}
