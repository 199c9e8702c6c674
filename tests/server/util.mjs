// Small shared helpers of the test server: constants, JSON-RPC errors, ids, signed requestState.
import { randomBytes, createHmac, timingSafeEqual } from "node:crypto";

export const PROTOCOL_VERSION = "2026-07-28";
export const TASKS_EXT = "io.modelcontextprotocol/tasks";
export const META_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CAPS = "io.modelcontextprotocol/clientCapabilities";
export const META_SUB = "io.modelcontextprotocol/subscriptionId";
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
export const TERMINAL = new Set(["completed", "failed", "cancelled"]);
export const LISTEN_MODES = ["normal", "end_early", "current_only", "noisy", "refuse", "no_ack", "silent", "before_ack"];

/**
 * A plain JSON-RPC error object `{code, message, data?}`. `httpStatus` (optional) is attached as a
 * non-enumerable property: the HTTP layer uses it, JSON.stringify and deepStrictEqual ignore it.
 */
export function rpcError(code, message, data, httpStatus) {
  const err = { code, message };
  if (data !== undefined) err.data = data;
  if (httpStatus) Object.defineProperty(err, "httpStatus", { value: httpStatus, enumerable: false });
  return err;
}

export const isRpcError = (e) =>
  e !== null && typeof e === "object" && Number.isInteger(e.code) && typeof e.message === "string";

export const needTasksExt = (message) =>
  rpcError(-32021, message, { requiredCapabilities: { extensions: { [TASKS_EXT]: {} } } }, 400);

export const hasTasksExt = (params) => {
  const ext = params?._meta?.[META_CAPS]?.extensions;
  return ext !== null && typeof ext === "object" && Object.hasOwn(ext, TASKS_EXT);
};

export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
export const randomHex = (bytes) => randomBytes(bytes).toString("hex");
export const text = (t) => ({ type: "text", text: t });
export const textResult = (t, extra = {}) => ({ content: [text(t)], ...extra });

/**
 * Checks the `_meta` every request must carry. Missing fields → -32602 (HTTP 400); a version this
 * server does not speak → -32022 with `{supported, requested}` (HTTP 400).
 */
export function checkMeta(params) {
  const meta = isObject(params) ? params._meta : undefined;
  if (!isObject(meta)) throw rpcError(-32602, "missing required params._meta", undefined, 400);
  for (const key of [META_VERSION, META_CAPS]) {
    const v = meta[key];
    const ok = key === META_VERSION ? typeof v === "string" : isObject(v);
    if (!ok) throw rpcError(-32602, `missing required _meta field ${key}`, { missing: key }, 400);
  }
  if (meta[META_VERSION] !== PROTOCOL_VERSION) {
    throw rpcError(-32022, "unsupported protocol version",
      { supported: [PROTOCOL_VERSION], requested: meta[META_VERSION] }, 400);
  }
}

// ---- requestState: an opaque, signed base64 blob (stateless MRTR) ----
const SECRET = randomBytes(32);
const mac = (payload) => createHmac("sha256", SECRET).update(payload).digest("base64");

export function signState(state) {
  const body = JSON.stringify({ ...state, n: randomHex(6) });
  return Buffer.from(JSON.stringify({ b: body, s: mac(body) })).toString("base64");
}

/** Returns the state object, or undefined when the blob was not issued by this process. */
export function verifyState(blob) {
  if (typeof blob !== "string") return undefined;
  try {
    const { b, s } = JSON.parse(Buffer.from(blob, "base64").toString("utf8"));
    const want = Buffer.from(mac(b));
    const got = Buffer.from(String(s));
    if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
    return JSON.parse(b);
  } catch {
    return undefined;
  }
}

/** Decodes the `=?base64?…?=` header sentinel; returns undefined for a malformed sentinel. */
export function decodeHeaderValue(value) {
  const m = /^=\?base64\?(.*)\?=$/.exec(value);
  if (!m) return value;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(m[1]) || m[1].length % 4 !== 0) return undefined;
  const decoded = Buffer.from(m[1], "base64").toString("utf8");
  return Buffer.from(decoded, "utf8").toString("base64") === m[1] ? decoded : undefined;
}

/** Rejection value of a task script's pending sleep/ask when the task is cancelled or the core closes. */
export const CANCELLED = Symbol("cancelled");
