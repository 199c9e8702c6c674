// sdkTransportClient(transport, options?): a client over a transport of the official TypeScript SDK
// (e.g. `StreamableHTTPClientTransport` of `@modelcontextprotocol/client`), on the module's message
// channel (`channelClient`), so `resultType: "task"` results pass through untouched (the SDK's own
// `Client.request` rejects them) and listen mode works.
//
// - Each request goes out with `transport.send(message, {requestSignal, onRequestStreamEnd})`: its
//   signal aborts when the request is given up (and `notifications/cancelled` is sent too), a response
//   stream that ends without the response fails it.
// - The transport is started once, lazily, when it has `start()` (a rejection such as "already
//   started" is ignored: `send` reports real failures).
// - Handlers already set on the transport keep working: messages that are not for this client go on
//   to the previous `onmessage`; `onerror`/`onclose` are passed on after failing this client's pending
//   requests. Ids are strings (`"mcp-tasks-wasm-<n>"`), so they never collide with an SDK `Client`
//   sharing the transport.
import { channelClient } from "./channel.js";
import { McpChannelError } from "./errors.js";

const PREFIX = "mcp-tasks-wasm-";
const channelError = (message) => new McpChannelError(message);

/** The JSON-RPC error an SDK HTTP error carries in its body (`error.data.text`; the SDK throws on a 404
 * `-32601` instead of delivering it), with the id it answers. */
function bodyError(err) {
  try {
    const msg = JSON.parse(err?.data?.text);
    const e = msg?.error;
    if (e && typeof e === "object" && Number.isInteger(e.code) && typeof e.message === "string") return { id: msg.id ?? null, error: e };
  } catch {}
  return undefined;
}

export function sdkTransportClient(transport, options) {
  if (!transport || typeof transport.send !== "function") {
    throw new TypeError("sdkTransportClient: transport must be an object with a send function");
  }
  const signals = new Map();
  let started;
  const client = channelClient((message) => {
    if (message.method === "notifications/cancelled") {
      const id = message.params?.requestId;
      signals.get(id)?.abort();
      signals.delete(id);
    }
    let sendOptions;
    const id = message.id;
    if (id !== undefined) {
      const c = new AbortController();
      signals.set(id, c);
      sendOptions = {
        requestSignal: c.signal,
        onRequestStreamEnd: () => done(id, channelError("request: the response stream ended without a response")),
      };
    }
    ready()
      .then(() => transport.send(message, sendOptions))
      .catch((e) => {
        if (id === undefined) return;
        const b = bodyError(e);
        done(id, b && (b.id === null || b.id === id) ? b.error : e);
      });
  }, { ...options, idPrefix: PREFIX }, "sdkTransportClient");
  const { fail, receive } = client;
  const done = (id, error) => {
    signals.delete(id);
    fail(id, error);
  };

  function ready() {
    started ??= Promise.resolve().then(() => {
      const prev = { onmessage: transport.onmessage, onerror: transport.onerror, onclose: transport.onclose };
      transport.onmessage = (msg, extra) => {
        if (receive(msg)) {
          if (msg?.id !== undefined && (msg.result !== undefined || msg.error !== undefined)) signals.delete(msg.id);
        } else {
          prev.onmessage?.call(transport, msg, extra);
        }
      };
      transport.onerror = (e) => {
        // An HTTP error whose body answers one of our requests settles that one only.
        const b = bodyError(e);
        if (b && typeof b.id === "string" && b.id.startsWith(PREFIX)) done(b.id, b.error);
        else fail(undefined, e);
        prev.onerror?.call(transport, e);
      };
      transport.onclose = () => {
        fail(undefined, channelError("request: the transport closed"));
        prev.onclose?.call(transport);
      };
      if (typeof transport.start === "function") return transport.start();
    }).catch(() => {});
    return started;
  }
  // The transport drives the channel; the caller sees a plain client.
  delete client.receive;
  delete client.fail;
  delete client.close;
  return client;
}
