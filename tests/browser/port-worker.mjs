// The project's test server in a dedicated (module) Worker, served over the worker's message port.
import { createTasksCore } from "../server/core.mjs";
import { serveMessages } from "../server/messages.mjs";

const core = createTasksCore({ pollIntervalMs: 20 });
const receive = serveMessages(core, (m) => self.postMessage(m));
self.addEventListener("message", (e) => receive(e.data));
