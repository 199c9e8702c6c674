// Streamable HTTP (2026-07-28) front of the test server: POST /mcp, strict header checks like rmcp,
// JSON or SSE framing, long-lived SSE for subscriptions/listen, CORS, test endpoints, static files.
import http from "node:http";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { createTasksCore } from "./core.mjs";
import { META_VERSION, decodeHeaderValue, isObject, rpcError } from "./util.mjs";

const ALLOW_HEADERS = "content-type, accept, mcp-protocol-version, mcp-method, mcp-name, authorization";
const EXPOSE_HEADERS = "content-type, mcp-protocol-version, mcp-method, mcp-name, www-authenticate";
const MAX_BODY = 4 * 1024 * 1024;
const NAMED = { "tools/call": "name", "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId" };
const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8", ".wasm": "application/wasm", ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml",
  ".map": "application/json; charset=utf-8", ".txt": "text/plain; charset=utf-8", ".ico": "image/x-icon",
  ".ts": "application/typescript; charset=utf-8",
};

/** HTTP status of a JSON-RPC error reply (see README.md). */
export function statusFor(err) {
  if (err.httpStatus) return err.httpStatus;
  if ([-32700, -32600, -32020, -32021, -32022].includes(err.code)) return 400;
  return err.code === -32601 ? 404 : 200;
}

const mediaTypes = (header) =>
  new Set(String(header ?? "").split(",").map((s) => s.split(";")[0].trim().toLowerCase()).filter(Boolean));

function sendJson(res, status, body, headers = {}) {
  if (res.destroyed || res.headersSent) return;
  const data = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data), ...headers });
  res.end(data);
}

const SSE_HEADERS = { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", Connection: "keep-alive" };
const sseEvent = (msg) => `data: ${JSON.stringify(msg)}\n\n`;

/** The -32020 HeaderMismatch checks of the 2026-07-28 transport (undefined = all fine). */
function checkHeaders(headers, method, params) {
  const bad = (message, header) => rpcError(-32020, message, { header }, 400);
  const version = headers["mcp-protocol-version"];
  if (version === undefined) return bad("missing MCP-Protocol-Version header", "MCP-Protocol-Version");
  if (headers["mcp-method"] === undefined) return bad("missing Mcp-Method header", "Mcp-Method");
  if (headers["mcp-method"] !== method) return bad(`Mcp-Method header does not match method '${method}'`, "Mcp-Method");
  const field = NAMED[method];
  if (field) {
    const raw = headers["mcp-name"];
    if (raw === undefined) return bad(`missing Mcp-Name header (params.${field})`, "Mcp-Name");
    const value = decodeHeaderValue(raw);
    if (value === undefined) return bad("malformed base64 sentinel in Mcp-Name", "Mcp-Name");
    if (value !== params?.[field]) return bad(`Mcp-Name header does not match params.${field}`, "Mcp-Name");
  }
  const metaVersion = isObject(params?._meta) ? params._meta[META_VERSION] : undefined;
  if (typeof metaVersion === "string" && metaVersion !== version) {
    return bad("MCP-Protocol-Version header does not match _meta protocolVersion", "MCP-Protocol-Version");
  }
  return undefined;
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (c) => {
      size += c.length;
      if (size > MAX_BODY) { reject(new Error("too large")); req.destroy(); } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/**
 * @param {{port?: number, host?: string, framing?: "json"|"sse"|"mixed", staticDir?: string, core?: object,
 *          pollIntervalMs?: number, ttlMs?: number, listen?: boolean}} [options]
 */
export async function startHttpServer({ port = 0, host = "127.0.0.1", framing = "mixed", staticDir, core, ...coreOptions } = {}) {
  if (!["json", "sse", "mixed"].includes(framing)) throw new Error(`unknown framing '${framing}'`);
  const ownCore = !core;
  core ??= createTasksCore(coreOptions);
  const root = staticDir ? path.resolve(staticDir) : undefined;

  /** Sends a JSON-RPC reply; 4xx always as JSON, 200 as the framing says. */
  async function reply(res, method, id, outcome, isError) {
    const msg = isError ? { jsonrpc: "2.0", id, error: outcome } : { jsonrpc: "2.0", id, result: outcome };
    const status = isError ? statusFor(outcome) : 200;
    const sse = framing === "sse" || (framing === "mixed" && method === "tools/call");
    if (status !== 200 || !sse) return sendJson(res, status, msg);
    if (res.destroyed) return;
    res.writeHead(200, SSE_HEADERS);
    if (framing === "mixed") {
      // A keep-alive comment, a request-scoped notification, then the response split in two writes.
      res.write(": keep-alive\n\n");
      res.write(sseEvent({ jsonrpc: "2.0", method: "notifications/message",
        params: { level: "info", logger: "test-server", data: `tools/call ${id} received` } }));
      const event = sseEvent(msg);
      const cut = Math.floor(event.length / 2);
      res.write(event.slice(0, cut));
      await new Promise((r) => setImmediate(r));
      if (!res.destroyed) res.end(event.slice(cut));
    } else {
      res.end(sseEvent(msg));
    }
  }

  async function streamListen(res, id, iterable) {
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    const keepAlive = setInterval(() => res.write(": keep-alive\n\n"), 15000);
    keepAlive.unref();
    const it = iterable[Symbol.asyncIterator]();
    try {
      for (;;) {
        const { done, value } = await it.next();
        if (res.destroyed) break;
        if (done) {
          if (value !== undefined) res.write(sseEvent({ jsonrpc: "2.0", id, result: value }));
          break;
        }
        res.write(sseEvent(value));
      }
    } finally {
      clearInterval(keepAlive);
      await it.return?.();
      res.end();
    }
  }

  async function onMcp(req, res) {
    const accept = mediaTypes(req.headers.accept);
    if (!accept.has("application/json") || !accept.has("text/event-stream")) {
      return sendJson(res, 406, { jsonrpc: "2.0", id: null,
        error: rpcError(-32600, "Not Acceptable: Accept must list application/json and text/event-stream") });
    }
    if (!mediaTypes(req.headers["content-type"]).has("application/json")) {
      return sendJson(res, 415, { jsonrpc: "2.0", id: null,
        error: rpcError(-32600, "Unsupported Media Type: Content-Type must be application/json") });
    }
    let msg;
    try {
      msg = JSON.parse(await readBody(req));
    } catch {
      core.record(undefined, undefined, undefined, -32700);
      return sendJson(res, 400, { jsonrpc: "2.0", id: null, error: rpcError(-32700, "Parse error: body is not JSON") });
    }
    const id = isObject(msg) ? msg.id : undefined;
    const method = isObject(msg) ? msg.method : undefined;
    const params = isObject(msg) && msg.params !== undefined ? msg.params : {};
    if (id === undefined && typeof method === "string" && msg.jsonrpc === "2.0") {
      core.record(method, params); // a notification: accepted, nothing to answer
      res.writeHead(202);
      return res.end();
    }
    if (msg?.jsonrpc !== "2.0" || typeof method !== "string" || !["string", "number"].includes(typeof id) || !isObject(params)) {
      core.record(typeof method === "string" ? method : undefined, undefined, id, -32600);
      return sendJson(res, 400, { jsonrpc: "2.0", id: id ?? null, error: rpcError(-32600, "Invalid Request") });
    }
    const headerError = checkHeaders(req.headers, method, params);
    if (headerError) {
      core.record(method, params, id, headerError.code);
      return reply(res, method, id, headerError, true);
    }
    const ac = new AbortController();
    res.on("close", () => { if (!res.writableFinished) ac.abort(); });
    let result;
    try {
      result = await core.handle(method, params, { signal: ac.signal, id });
    } catch (err) {
      return reply(res, method, id, err, true);
    }
    if (method === "subscriptions/listen") return streamListen(res, id, result);
    return reply(res, method, id, result, false);
  }

  async function serveStatic(req, res, pathname) {
    let file;
    try {
      file = path.resolve(root, `.${decodeURIComponent(pathname)}`);
    } catch {
      return sendJson(res, 400, { error: "bad path" });
    }
    if (file !== root && !file.startsWith(root + path.sep)) return sendJson(res, 404, { error: "not found" });
    try {
      if ((await stat(file)).isDirectory()) file = path.join(file, "index.html");
      const data = await readFile(file);
      const type = TYPES[path.extname(file)] ?? "application/octet-stream";
      res.writeHead(200, { "Content-Type": type, "Content-Length": data.length, "Cache-Control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : data);
    } catch {
      sendJson(res, 404, { error: "not found" });
    }
  }

  async function onRequest(req, res) {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Expose-Headers", EXPOSE_HEADERS);
    const { pathname } = new URL(req.url, "http://localhost");
    if (req.method === "OPTIONS") {
      const headers = {
        "Access-Control-Allow-Methods": "POST, GET, OPTIONS",
        "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] || ALLOW_HEADERS,
        "Access-Control-Max-Age": "600",
      };
      if (req.headers["access-control-request-private-network"]) headers["Access-Control-Allow-Private-Network"] = "true";
      res.writeHead(204, headers);
      return res.end();
    }
    if (pathname === "/mcp") {
      if (req.method === "POST") return onMcp(req, res);
      res.writeHead(405, { Allow: "POST, OPTIONS" });
      return res.end();
    }
    if (pathname === "/_test/log" && req.method === "GET") return sendJson(res, 200, core.log);
    if (pathname === "/_test/reset" && req.method === "POST") {
      core.resetLog();
      return sendJson(res, 200, { ok: true });
    }
    if (root && (req.method === "GET" || req.method === "HEAD")) return serveStatic(req, res, pathname);
    sendJson(res, 404, { error: "not found" });
  }

  const server = http.createServer((req, res) => {
    onRequest(req, res).catch((err) => {
      if (!res.headersSent) sendJson(res, 500, { error: String(err?.message ?? err) });
      else res.destroy();
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const actualPort = server.address().port;
  const origin = `http://${host}:${actualPort}`;
  return {
    url: `${origin}/mcp`,
    origin,
    port: actualPort,
    core,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      if (ownCore) core.close();
    }),
  };
}
