// The JS adapters every entry exports (written once: js/index.js, js/node.js and the journal entries
// re-export this module): the transports on the JSON-RPC message channel, the in-process client, the
// result reader, the transports' error classes and the extension's identifier. Each is a module of its own, so an app ships only what it imports.
export { channelClient } from "./channel.js";
export { McpChannelError, McpHttpError, McpPortError, McpProtocolError, McpStdioError } from "./errors.js";
export { directClient } from "./direct.js";
export { httpClient } from "./http.js";
export { portClient } from "./port.js";
export { resultText } from "./result.js";
export { sdkTransportClient } from "./sdk.js";

/** The tasks extension identifier. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
