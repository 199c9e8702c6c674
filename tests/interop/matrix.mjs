// The interop scenario matrix, run unchanged in Node and in headless Chromium, through httpClient,
// against a real server — and in Node over stdio. `lib` is the package module; `server` is
// {name, url} (HTTP) or {name, client(options)} (a ready client, e.g. a stdioClient, shared by the
// scenarios and closed by the caller).
function assert(cond, message) {
  if (!cond) throw new Error(message);
}
const show = (v) => JSON.stringify(v);

export function interopScenarios(lib, server) {
  const { httpClient, callTool, awaitTask, callAndAwait, cancelTask, getTask, serverSupports } = lib;
  const answered = [];
  const inputHandlers = {
    form: async (params, { key }) => {
      answered.push(key);
      const field = Object.keys(params.requestedSchema.properties)[0];
      const value = field === "ok" ? true : "Ada";
      return { tag: "ok", response: { action: "accept", content: { [field]: value } } };
    },
  };
  const client = () => (server.client ? server.client({ inputHandlers }) : httpClient(server.url, { inputHandlers }));
  const discover = (c) => (c.discover ? c.discover() : c.request("server/discover", {}));
  const list = [
    ["discover advertises the extension", async () => {
      const d = await discover(client());
      assert(serverSupports(d), show(d));
    }],
    ["slow task → ok", async () => {
      const out = await callAndAwait(client(), "slow", { ms: 200 });
      assert(out.tag === "ok" && out.result.content[0].text === "slept 200 ms", show(out));
    }],
    ["ask → form handler → ok with the answer", async () => {
      const out = await callAndAwait(client(), "ask");
      assert(out.tag === "ok" && out.result.content[0].text === "hello, Ada", show(out));
      assert(answered.length >= 1, "the form handler ran");
    }],
    ["ask_two → two form asks in one round, each answered once → ok", async () => {
      const before = answered.length;
      const out = await callAndAwait(client(), "ask_two");
      assert(out.tag === "ok" && /hello/.test(out.result.content[0].text), show(out));
      const keys = answered.slice(before);
      assert(keys.length === 2 && new Set(keys).size === 2, `each key asked once: ${show(keys)}`);
    }],
    ["echo → a plain result, no task", async () => {
      const out = await callAndAwait(client(), "echo", { text: "plain" });
      assert(out.tag === "ok" && JSON.stringify(out.result).includes("plain"), show(out));
    }],
    ["fail → -32603 with cause task_failed", async () => {
      const out = await callAndAwait(client(), "fail");
      assert(out.tag === "error" && out.error.code === -32603 && out.error.kind === "server" && out.error.cause.type === "task_failed", show(out));
      assert(out.error.cause.status.status === "failed", show(out));
    }],
    ["tool_error → ok with isError", async () => {
      const out = await callAndAwait(client(), "tool_error");
      assert(out.tag === "ok" && out.result.isError === true, show(out));
    }],
    ["forever → cancelTask → cancelled", async () => {
      const c = client();
      const created = await callTool(c, "forever");
      assert(created.tag === "task", show(created));
      const waiting = awaitTask(c, created.status);
      const ack = await cancelTask(c, created.status.taskId);
      assert(ack.tag === "ok", show(ack));
      const out = await waiting;
      assert(out.tag === "cancelled" && out.status.status === "cancelled", show(out));
    }],
    ["forever → cancelSignal (a Cancel button in one step) → cancelled", async () => {
      const button = new AbortController();
      setTimeout(() => button.abort(), 150);
      const out = await callAndAwait(client(), "forever", {}, {}, { cancelSignal: button.signal });
      assert(out.tag === "cancelled" && out.status.status === "cancelled", show(out));
    }],
    ["unknown task id → -32602", async () => {
      const out = await awaitTask(client(), "no-such-task-0001");
      assert(out.tag === "error" && out.error.code === -32602 && out.error.kind === "server", show(out));
      const got = await getTask(client(), "no-such-task-0002");
      assert(got.tag === "error" && got.error.code === -32602, show(got));
    }],
    ["a short timeout → -32001 with the last status", async () => {
      const c = client();
      const created = await callTool(c, "forever");
      const out = await awaitTask(c, created.status, { timeoutMs: 350 });
      assert(out.tag === "error" && out.error.code === -32001 && out.error.cause.type === "timeout", show(out));
      assert(out.error.cause.status && out.error.cause.status.status === "working", show(out));
      await cancelTask(c, created.status.taskId);
    }],
    ["a task-only tool without the capability → -32021", async () => {
      // The application's own request: the library does not add the extension to it.
      let error;
      try {
        await client().request("tools/call", { name: "task_only", arguments: {} }, {});
      } catch (e) {
        error = e;
      }
      assert(error && error.code === -32021, show(error));
    }],
    ["tasks/* carry Mcp-Name (get, update, cancel all answered)", async () => {
      const c = client();
      const created = await callTool(c, "forever");
      const id = created.status.taskId;
      const got = await getTask(c, id);
      const upd = await lib.updateTask(c, id, { "stale-key": { action: "cancel" } });
      const can = await cancelTask(c, id);
      assert(got.tag === "ok" && upd.tag === "ok" && can.tag === "ok", show({ got, upd, can }));
    }],
  ];
  if (server.name.startsWith("rmcp")) {
    list.push(["MRTR round on compose, then a task", async () => {
      const out = await callAndAwait(client(), "compose");
      assert(out.tag === "ok" && out.result.content[0].text === "confirmed: true", show(out));
    }]);
  }
  return list.map(([name, fn]) => ({ name: `${server.name}: ${name}`, fn }));
}

export async function runScenarios(scenarios, log) {
  let failed = 0;
  for (const { name, fn } of scenarios) {
    const t0 = Date.now();
    try {
      await fn();
      log(`ok   ${name} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed += 1;
      log(`FAIL ${name}\n${e?.stack ?? e}`);
    }
  }
  return failed;
}
