// Streamable HTTP for the interop server, stateful as deployed SDK servers run it: one
// StreamableHTTPServerTransport (and one McpServer) per session, created by an `initialize` without a
// session, found again by the Mcp-Session-Id header, ended by DELETE. The routing answers (no session,
// unknown session) are the ones the SDK's own example app gives. CORS for a page on another origin.
import { randomUUID } from "node:crypto";
import cors from "cors";
import express from "express";
import { localhostHostValidation } from "@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";

/** Request headers the preflight always allows (a preflight's own requested headers are added). */
export const ALLOWED_HEADERS = [
  "content-type",
  "accept",
  "mcp-protocol-version",
  "mcp-session-id",
  "last-event-id",
  "authorization",
  // A 2026-07-28 client's routing headers: allowed so that its first request gets the server's
  // readable 400 instead of a CORS failure.
  "mcp-method",
  "mcp-name",
];

/** Response headers a page may read. */
export const EXPOSED_HEADERS = ["Mcp-Session-Id", "MCP-Protocol-Version", "WWW-Authenticate"];

const rpcError = (res, status, code, message) =>
  res.status(status).json({ jsonrpc: "2.0", error: { code, message }, id: null });

// `cors` with the requested headers merged into the fixed list, so that any header a client sends
// (e.g. a 2026 client's Mcp-Param-* headers) passes the preflight.
function corsLayer() {
  return cors((req, callback) => {
    const requested = String(req.headers["access-control-request-headers"] ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean);
    callback(null, {
      origin: true,
      methods: ["GET", "POST", "DELETE", "OPTIONS"],
      allowedHeaders: [...new Set([...ALLOWED_HEADERS, ...requested])],
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
    });
  });
}

/**
 * Serves MCP at http://127.0.0.1:<port>/mcp. `buildServer()` gives a fresh, unconnected McpServer for
 * each session. Resolves with {port, close()} once listening.
 */
export function serveHttp({ port, buildServer, jsonResponse = false, onTrace = () => {} }) {
  const sessions = new Map(); // session id → transport

  const app = express();
  app.use(corsLayer());
  app.use(localhostHostValidation());
  app.use(express.json({ limit: "8mb" }));

  app.post("/mcp", async (req, res) => {
    const sessionId = req.headers["mcp-session-id"];
    const known = sessionId ? sessions.get(sessionId) : undefined;
    if (known) return known.handleRequest(req, res, req.body);
    if (sessionId) return rpcError(res, 404, -32001, "Session not found");
    if (!isInitializeRequest(req.body)) return rpcError(res, 400, -32000, "Bad Request: No valid session ID provided");
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: jsonResponse,
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
        onTrace(`session ${id} opened`);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId && sessions.delete(transport.sessionId)) onTrace(`session ${transport.sessionId} closed`);
    };
    await buildServer().connect(transport);
    await transport.handleRequest(req, res, req.body);
  });

  // GET (the session's own SSE stream) and DELETE (end the session) need a known session.
  const bySession = async (req, res) => {
    const sessionId = req.headers["mcp-session-id"];
    if (!sessionId) return rpcError(res, 400, -32000, "Bad Request: No valid session ID provided");
    const transport = sessions.get(sessionId);
    if (!transport) return rpcError(res, 404, -32001, "Session not found");
    await transport.handleRequest(req, res);
  };
  app.get("/mcp", bySession);
  app.delete("/mcp", bySession);
  app.all("/mcp", (_req, res) => {
    res.set("Allow", "GET, POST, DELETE");
    rpcError(res, 405, -32000, "Method not allowed.");
  });

  // A JSON body that does not parse: the SDK transport's own answer for it.
  app.use((err, _req, res, next) => {
    if (err?.type === "entity.parse.failed") return rpcError(res, 400, -32700, "Parse error: Invalid JSON");
    next(err);
  });

  return new Promise((resolve, reject) => {
    const httpServer = app.listen(port, "127.0.0.1");
    httpServer.once("error", reject);
    httpServer.once("listening", () => {
      resolve({
        port: httpServer.address().port,
        close: async () => {
          await Promise.all([...sessions.values()].map((t) => t.close().catch(() => {})));
          httpServer.closeAllConnections?.();
          await new Promise((r) => httpServer.close(() => r()));
        },
      });
    });
  });
}
