// HTTP scenarios for the in-page suite: httpClient against the project's test server on another origin
// (so every request goes through a real CORS preflight).
import { httpClient, callTool, awaitTask, callAndAwait, resultText } from "/pkg/index.js";

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

export function httpScenarios(url) {
  const origin = new URL(url).origin;
  const log = async () => (await fetch(`${origin}/_test/log`)).json();
  const reset = () => fetch(`${origin}/_test/reset`, { method: "POST" });
  const client = () => httpClient(url, { inputHandlers: { form: async () => ({ tag: "ok", response: { action: "accept", content: { name: "Lin" } } }) } });
  return [
    { name: "httpClient cross-origin: slow task → ok", fn: async () => {
      const out = await callAndAwait(client(), "slow", { ms: 100 });
      assert(out.tag === "ok" && out.result.content[0].text === "slept 100 ms", JSON.stringify(out));
    } },
    { name: "httpClient cross-origin: ask → form handler → ok", fn: async () => {
      const out = await callAndAwait(client(), "ask");
      assert(out.tag === "ok" && out.result.content[0].text === "hello, Lin", JSON.stringify(out));
    } },
    { name: "httpClient cross-origin: listen → exactly one tasks/get", fn: async () => {
      const c = client();
      const created = await callTool(c, "slow", { ms: 150 });
      await reset();
      const out = await awaitTask(c, created.status, { listen: true });
      const entries = await log();
      const gets = entries.filter((e) => e.method === "tasks/get").length;
      const listens = entries.filter((e) => e.method === "subscriptions/listen").length;
      assert(out.tag === "ok" && gets === 1 && listens === 1, `${JSON.stringify(out)} gets=${gets} listens=${listens}`);
    } },
    { name: "httpClient cross-origin: unknown task → -32602", fn: async () => {
      const out = await awaitTask(client(), "tsk_missing");
      assert(out.tag === "error" && out.error.code === -32602, JSON.stringify(out));
    } },
    // In the browser: the Cancel button, the whole-call bound, plain handler results, resultText.
    { name: "httpClient cross-origin: cancelSignal → one tasks/cancel, then cancelled", fn: async () => {
      const c = client();
      await reset();
      const button = new AbortController();
      setTimeout(() => { button.abort(); button.abort(); }, 150);
      const out = await callAndAwait(c, "forever", {}, {}, { cancelSignal: button.signal });
      const cancels = (await log()).filter((e) => e.method === "tasks/cancel").length;
      assert(out.tag === "cancelled" && out.status.status === "cancelled" && cancels === 1, `${JSON.stringify(out)} cancels=${cancels}`);
    } },
    { name: "httpClient cross-origin: callAndAwait's call timeoutMs bounds the whole call", fn: async () => {
      const t0 = performance.now();
      const out = await callAndAwait(client(), "slow", { ms: 3000 }, { timeoutMs: 400 });
      const took = performance.now() - t0;
      assert(out.tag === "error" && out.error.cause.type === "timeout" && out.error.data.timeoutMs === 400 && took < 1500, `${JSON.stringify(out)} after ${took} ms`);
    } },
    { name: "httpClient cross-origin: a plain ElicitResult from the handler; resultText", fn: async () => {
      const c = httpClient(url, { inputHandlers: { form: () => ({ action: "accept", content: { name: "Plain" } }) } });
      const out = await callAndAwait(c, "ask");
      assert(out.tag === "ok" && resultText(out.result) === "hello, Plain", JSON.stringify(out));
      const asked = await callAndAwait(c, "ask", {}, {}, { input: "return" });
      assert(asked.tag === "input_required" && asked.source === "task", JSON.stringify(asked));
    } },
  ];
}
