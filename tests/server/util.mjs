// Small shared helpers of the test server: constants, JSON-RPC errors, ids, signed requestState.

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
// Platform-neutral (Node >= 20 and browsers): the core also runs in a page behind a directClient.
const randomBytes = (n) => globalThis.crypto.getRandomValues(new Uint8Array(n));
export const randomHex = (bytes) => Array.from(randomBytes(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
const toBase64 = (str) => btoa(Array.from(new TextEncoder().encode(str), (b) => String.fromCharCode(b)).join(""));
const fromBase64 = (b64) => new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
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

// ---- requestState: an opaque, tamper-evident base64 blob (stateless MRTR) ----
// A keyed FNV-1a tag (not cryptographic: this is a test server; it only has to spot forged or edited blobs).
const SECRET = randomHex(16);
function mac(payload) {
  let h1 = 0x811c9dc5, h2 = 0x01000193 ^ 0x5bd1e995;
  for (const ch of SECRET + payload) {
    const c = ch.codePointAt(0);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  return h1.toString(16).padStart(8, "0") + h2.toString(16).padStart(8, "0");
}

export function signState(state) {
  const body = JSON.stringify({ ...state, n: randomHex(6) });
  return toBase64(JSON.stringify({ b: body, s: mac(body) }));
}

/** Returns the state object, or undefined when the blob was not issued by this process. */
export function verifyState(blob) {
  if (typeof blob !== "string") return undefined;
  try {
    const { b, s } = JSON.parse(fromBase64(blob));
    if (typeof b !== "string" || s !== mac(b)) return undefined;
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
  try {
    const decoded = fromBase64(m[1]);
    return toBase64(decoded) === m[1] ? decoded : undefined;
  } catch {
    return undefined;
  }
}

/** Rejection value of a task script's pending sleep/ask when the task is cancelled or the core closes. */
export const CANCELLED = Symbol("cancelled");
