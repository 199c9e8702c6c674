// portClient(port, options?): a client over anything that posts messages — a MessagePort, a Worker
// (or the worker's own global scope), a window or an iframe's contentWindow (with `origin`), or a
// WebExtension runtime.Port — on the module's message channel (`channelClient`). Messages are the
// JSON-RPC objects themselves (structured clone, no framing).
import { channelClient } from "./channel.js";
import { McpPortError } from "./errors.js";

/**
 * The kinds of port, by what they can do:
 * - extension: `onMessage.addListener`, `postMessage(m)`, `onDisconnect` → the channel closed;
 * - window: `postMessage(m, targetOrigin)`; its messages arrive on this realm's global `message`
 *   event from `event.source === port`, checked against `origin`;
 * - message target: `addEventListener("message")` and `postMessage(m)` (MessagePort, Worker, …).
 */
export function portClient(port, options) {
  if (port === null || (typeof port !== "object" && typeof port !== "function") || !hasPostMessage(port)) {
    throw new TypeError("portClient: port must have postMessage");
  }
  options = options ?? {};
  if (typeof options !== "object") throw new TypeError("portClient: options must be an object");
  const { origin, id, ...common } = options;
  // A cross-origin window allows only a few properties (`window`, `postMessage`…): test it first.
  let isWindow = false;
  try {
    isWindow = port.window === port;
  } catch {}
  const extension = !isWindow && typeof port.onMessage?.addListener === "function";
  if (isWindow && (typeof origin !== "string" || origin === "")) {
    throw new TypeError("portClient: a window needs options.origin (the origin its messages must come from)");
  }
  if (origin !== undefined && typeof origin !== "string") throw new TypeError("portClient: options.origin must be a string");
  if (!extension && !isWindow && typeof port.addEventListener !== "function") {
    throw new TypeError("portClient: port must have addEventListener, onMessage or be a window");
  }

  let open = true;
  const client = channelClient((message) => {
    if (!open) return;
    if (isWindow) port.postMessage(message, origin);
    else port.postMessage(message);
  }, common, "portClient");
  const closeChannel = client.close;
  const onData = (data) => {
    if (open && data !== null && typeof data === "object") client.receive(data);
  };
  let stop;
  if (extension) {
    const onMessage = (m) => onData(m);
    const onDisconnect = () => shut(new McpPortError("the port disconnected", { retryable: false }));
    port.onMessage.addListener(onMessage);
    port.onDisconnect?.addListener?.(onDisconnect);
    stop = () => {
      port.onMessage.removeListener?.(onMessage);
      port.onDisconnect?.removeListener?.(onDisconnect);
    };
  } else if (isWindow) {
    const onMessage = (e) => {
      if (e.source === port && e.origin === origin) onData(e.data);
    };
    globalThis.addEventListener("message", onMessage);
    stop = () => globalThis.removeEventListener("message", onMessage);
  } else {
    const onMessage = (e) => {
      if (origin === undefined || e.origin === origin) onData(e.data);
    };
    port.addEventListener("message", onMessage);
    port.start?.();
    stop = () => port.removeEventListener("message", onMessage);
  }
  function shut(error) {
    if (!open) return;
    open = false;
    stop();
    closeChannel(error);
  }
  /** Stops listening to the port; pending requests and streams fail ("the channel closed"). */
  client.close = () => shut(undefined);
  if (id !== undefined) client.id = id; // the server, for the task journal
  return client;
}

function hasPostMessage(port) {
  try {
    return typeof port.postMessage === "function";
  } catch {
    return false;
  }
}
