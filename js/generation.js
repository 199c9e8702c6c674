// The generation a server speaks, found once per client by the transports that can reach either
// (httpClient, stdioClient), and the session that comes with it. A 2026-07-28 server answers
// `server/discover` (sent with the 2026 envelope: harmless on every server, never a tool call); a
// 2025-11-25 one refuses it — HTTP: "no valid session" or "unsupported protocol version", stdio:
// -32601 — and is then greeted as that generation asks: `initialize` (protocol 2025-11-25, the client's
// capabilities following its input handlers), then `notifications/initialized`; the session's rules
// apply from then on (the channel drops the 2026 `_meta` envelope; HTTP sends `Mcp-Session-Id`). An
// `initialize` is never sent to a server that answered the probe: it would end rmcp's stdio process
// and lock fastmcp's connection into its old era. A failed attempt is not remembered: the next request
// tries again. `options.generation` names the generation and skips the probe.
import { CORE_TASKS_VERSION, GENERATIONS, isRpcError, PROTOCOL_VERSION, VERSION } from "./channel.js";
import { isObject, readKey } from "./values.js";

/** `options.generation` checked: undefined (find it out), or one of the two. */
export function generationOption(v, typeError) {
  if (v === undefined) return undefined;
  if (!GENERATIONS.includes(v)) throw typeError(`options.generation must be "${PROTOCOL_VERSION}" or "${CORE_TASKS_VERSION}"`);
  return v;
}

/** Whether a `server/discover` refusal says the server is of the previous generation. */
function refusesDiscover(e) {
  return isRpcError(e) && (e.code === -32601 || /session|protocol version/i.test(e.message));
}

/** What a 2025-11-25 client declares in `initialize`: its own `clientCapabilities`, with elicitation
 * (form, url), sampling and roots for the input handlers it has. */
function declared(chan) {
  const caps = isObject(chan.clientCapabilities) ? { ...chan.clientCapabilities } : {};
  delete caps.extensions; // the 2026 extensions' declarations mean nothing to this generation
  const h = chan.inputHandlers;
  const has = (k) => typeof readKey(h, k) === "function";
  if (has("form") || has("url")) caps.elicitation = { ...(has("form") ? { form: {} } : {}), ...(has("url") ? { url: {} } : {}) };
  if (has("sampling")) caps.sampling = {};
  if (has("roots")) caps.roots = {};
  return caps;
}

/**
 * The session of a client over `chan`: `named` is the generation its options named (undefined: find it
 * out); `io` sends on the channel without waiting for the session (`request`), sends a notification
 * (`notify`), keeps the probe's answer as the client's `server/discover` (`discovered`) and names the
 * client (`clientInfo`, for `initialize`). Returns
 * `{ready(opts), found, id, version, capabilities, lost(error)}`: `ready` is undefined once the session
 * is open (or the generation is 2026-07-28), else the promise of its opening; `lost(error)` ends the
 * session for good (every later request fails with `error`) and gives `error` back.
 */
export function session(chan, named, io) {
  // (`id`, `version`, `capabilities` and `gone` are set as they become known.)
  const s = { found: named === PROTOCOL_VERSION ? named : undefined };
  let opening;
  async function open(opts) {
    const bound = { timeoutMs: readKey(opts, "timeoutMs") };
    if (named !== CORE_TASKS_VERSION) {
      const probe = io.request("server/discover", {}, bound);
      try {
        const answer = await probe;
        io.discovered(probe);
        s.capabilities = readKey(answer, "capabilities");
        s.found = PROTOCOL_VERSION;
        return;
      } catch (e) {
        if (!refusesDiscover(e)) throw e;
      }
    }
    chan.speak(CORE_TASKS_VERSION);
    s.version = CORE_TASKS_VERSION; // what `initialize` itself is sent as, until the server says its own
    try {
      const info = io.clientInfo ?? { name: "mcp-tasks-wasm", version: VERSION };
      const greeted = await io.request("initialize", { protocolVersion: CORE_TASKS_VERSION, capabilities: declared(chan), clientInfo: info }, bound);
      const version = readKey(greeted, "protocolVersion");
      s.version = typeof version === "string" ? version : CORE_TASKS_VERSION;
      s.capabilities = readKey(greeted, "capabilities");
      io.notify("notifications/initialized", {});
      s.found = CORE_TASKS_VERSION;
    } catch (e) {
      chan.speak(PROTOCOL_VERSION);
      s.id = undefined;
      s.version = undefined;
      throw e;
    }
  }
  s.ready = (opts) => {
    if (s.gone) return Promise.reject(s.gone);
    if (s.found !== undefined) return undefined;
    opening ??= open(opts).finally(() => (opening = undefined));
    return opening;
  };
  s.lost = (error) => (s.gone ??= error);
  return s;
}
