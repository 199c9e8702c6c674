// Scenarios that run inside headless Chromium against the built package (pkg/index.js) with short real
// timers: an in-page test server core behind directClient, a plain JS object client, and (when the page
// is given ?http=<url>) the project's Streamable HTTP test server on another origin.
import init, { callTool, awaitTask, callAndAwait, cancelTask, directClient, TASKS_EXTENSION } from "/pkg/index.js";
import { createTasksCore } from "/tests/server/core.mjs";

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

const scenarios = [];
const scenario = (name, fn) => scenarios.push({ name, fn });

function inPage(options = {}) {
  const core = createTasksCore({ pollIntervalMs: 20, ...options });
  const client = directClient((m, p, c) => core.handle(m, p, c), {
    inputHandlers: { form: async () => ({ tag: "ok", response: { action: "accept", content: { name: "Ada" } } }) },
  });
  return { core, client };
}

scenario("directClient: slow task → ok, with status changes", async () => {
  const { core, client } = inPage();
  const created = await callTool(client, "slow", { ms: 100 });
  assert(created.tag === "task", JSON.stringify(created));
  const seen = [];
  const out = await awaitTask(client, created.status, { onStatus: (s) => seen.push(s.status) });
  assert(out.tag === "ok" && out.result.content[0].text === "slept 100 ms", JSON.stringify(out));
  assert(seen.at(-1) === "completed", seen.join());
  core.close();
});

scenario("directClient: failed task → server error with cause task_failed", async () => {
  const { core, client } = inPage();
  const out = await callAndAwait(client, "fail");
  assert(out.tag === "error" && out.error.code === -32603 && out.error.kind === "server" && out.error.cause.type === "task_failed", JSON.stringify(out));
  core.close();
});

scenario("directClient: form handler answers the task", async () => {
  const { core, client } = inPage();
  const out = await callAndAwait(client, "ask");
  assert(out.tag === "ok" && out.result.content[0].text === "hello, Ada", JSON.stringify(out));
  core.close();
});

scenario("directClient: cancel → cancelled", async () => {
  const { core, client } = inPage();
  const created = await callTool(client, "forever");
  const waiting = awaitTask(client, created.status);
  await cancelTask(client, created.status.taskId);
  const out = await waiting;
  assert(out.tag === "cancelled", JSON.stringify(out));
  core.close();
});

scenario("directClient: listen → exactly one tasks/get", async () => {
  const { core, client } = inPage();
  const created = await callTool(client, "slow", { ms: 100 });
  core.resetLog();
  const out = await awaitTask(client, created.status, { listen: true });
  const gets = core.log.filter((e) => e.method === "tasks/get").length;
  assert(out.tag === "ok" && gets === 1, `${out.tag}, ${gets} gets`);
  core.close();
});

scenario("plain client: the result is the very object request resolved with", async () => {
  const result = { content: [{ type: "text", text: "mine" }], isError: true };
  let n = 0;
  const client = {
    async request(method, params) {
      assert(params._meta["io.modelcontextprotocol/clientCapabilities"].extensions[TASKS_EXTENSION], "extension declared");
      n += 1;
      return n < 3 ? { taskId: "t", status: "working", pollIntervalMs: 10 } : { taskId: "t", status: "completed", result };
    },
  };
  const out = await awaitTask(client, "t");
  assert(out.tag === "ok" && out.result === result, JSON.stringify(out));
});

scenario("plain client: a request that never settles → -32001 at the deadline", async () => {
  const client = { request: () => new Promise(() => {}) };
  const t0 = performance.now();
  const out = await awaitTask(client, "t", { timeoutMs: 120 });
  const took = performance.now() - t0;
  assert(out.tag === "error" && out.error.code === -32001 && out.error.cause.type === "timeout", JSON.stringify(out));
  assert(took >= 110 && took < 1000, `took ${took}`);
});

scenario("abort rejects with signal.reason", async () => {
  const { core, client } = inPage();
  const created = await callTool(client, "forever");
  const ac = new AbortController();
  setTimeout(() => ac.abort("stop"), 50);
  let reason;
  try {
    await awaitTask(client, created.status, { signal: ac.signal });
  } catch (e) {
    reason = e;
  }
  assert(reason === "stop", String(reason));
  core.close();
});

export async function runSuite(extra = []) {
  await init();
  const results = [];
  for (const { name, fn } of [...scenarios, ...extra]) {
    const t0 = performance.now();
    try {
      await fn();
      results.push({ name, ok: true, ms: Math.round(performance.now() - t0) });
    } catch (e) {
      results.push({ name, ok: false, error: String(e?.stack ?? e) });
    }
  }
  return results;
}
