// Port scenarios for the in-page suite: portClient to the test server in a dedicated Worker and in an
// iframe on another origin (messages from any other origin ignored), polling and listen.
import { portClient, callTool, awaitTask, callAndAwait } from "/pkg/index.js";

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** Counts the requests a client sends, by method. */
function counted(client) {
  const counts = {};
  const request = client.request.bind(client);
  client.request = (method, params, options) => {
    counts[method] = (counts[method] ?? 0) + 1;
    return request(method, params, options);
  };
  return { client, counts };
}

async function frame(parentOrigin) {
  const otherOrigin = `http://localhost:${location.port}`;
  const iframe = document.createElement("iframe");
  iframe.src = `${otherOrigin}/tests/browser/port-frame.html?parent=${encodeURIComponent(parentOrigin)}`;
  const ready = new Promise((resolve) => addEventListener("message", function on(e) {
    if (e.source === iframe.contentWindow && e.data?.ready) {
      removeEventListener("message", on);
      resolve();
    }
  }));
  document.body.append(iframe);
  await ready;
  return { iframe, otherOrigin };
}

export function portScenarios() {
  return [
    { name: "portClient to a dedicated Worker: slow task → ok, listen → exactly one tasks/get", fn: async () => {
      const worker = new Worker("/tests/browser/port-worker.mjs", { type: "module" });
      const { client, counts } = counted(portClient(worker));
      try {
        const out = await callAndAwait(client, "slow", { ms: 80 });
        assert(out.tag === "ok" && out.result.content[0].text === "slept 80 ms", JSON.stringify(out));
        const created = await callTool(client, "slow", { ms: 120 });
        const before = counts["tasks/get"] ?? 0;
        const listened = await awaitTask(client, created.status, { listen: true });
        assert(listened.tag === "ok", JSON.stringify(listened));
        assert((counts["tasks/get"] ?? 0) - before === 1, `tasks/get ${JSON.stringify(counts)}`);
      } finally {
        client.close();
        worker.terminate();
      }
    } },
    { name: "portClient to an iframe on another origin: ok; a client expecting another origin hears nothing", fn: async () => {
      const { iframe, otherOrigin } = await frame(location.origin);
      const { client, counts } = counted(portClient(iframe.contentWindow, { origin: otherOrigin }));
      try {
        const out = await callAndAwait(client, "ask", {}, {}, {
          inputHandlers: { form: async () => ({ tag: "ok", response: { action: "accept", content: { name: "Ann" } } }) },
        });
        assert(out.tag === "ok" && out.result.content[0].text === "hello, Ann", JSON.stringify(out));
        const created = await callTool(client, "slow", { ms: 120 });
        const before = counts["tasks/get"] ?? 0;
        const listened = await awaitTask(client, created.status, { listen: true });
        assert(listened.tag === "ok" && (counts["tasks/get"] ?? 0) - before === 1, JSON.stringify({ listened, counts }));
        // The frame answers from its own origin; a client that expects another ignores every answer.
        const wrong = portClient(iframe.contentWindow, { origin: "http://wrong.example" });
        const ignored = await awaitTask(wrong, created.status.taskId, { timeoutMs: 300 });
        assert(ignored.tag === "error" && ignored.error.code === -32001, JSON.stringify(ignored));
        wrong.close();
        let threw = false;
        try {
          portClient(iframe.contentWindow);
        } catch (e) {
          threw = e instanceof TypeError;
        }
        assert(threw, "a window without origin is a TypeError");
      } finally {
        client.close();
        iframe.remove();
      }
    } },
  ];
}
