// The MCP 2025-11-25 scenario matrix, run unchanged in Node (httpClient, stdioClient) and in headless
// Chromium (httpClient, another origin: CORS exposing Mcp-Session-Id), against the real server built
// from @modelcontextprotocol/sdk 1.32.2 (tests/servers/sdk). `server` is {name, url, unaware?} (HTTP)
// or {name, client(options), spawn(options), unaware?} (stdio: `client` a ready client shared by the
// scenarios and closed by the caller, `spawn` a client of its own that the scenario closes);
// `unaware`: the server was started without the tasks capability. No option names the generation:
// the client finds it.
function assert(cond, message) {
  if (!cond) throw new Error(message);
}
const show = (v) => JSON.stringify(v)?.slice(0, 600);
const text = (out) => out?.result?.content?.[0]?.text;

export function generationScenarios(lib, server, journalLib) {
  const { httpClient, callTool, awaitTask, callAndAwait, cancelTask, getTask, updateTask, listTasks } = lib;
  const asked = [];
  const inputHandlers = {
    form: async (params, { key }) => {
      asked.push(["form", key, params.message]);
      return { action: "accept", content: { name: "Ada" } };
    },
    url: async (params, { key }) => {
      asked.push(["url", key, params.url]);
      return { action: "accept" };
    },
    sampling: async (params, { key }) => {
      asked.push(["sampling", key]);
      return { role: "assistant", content: { type: "text", text: "hi" }, model: "m1" };
    },
    roots: async (params, { key }) => {
      asked.push(["roots", key]);
      return { roots: [{ uri: "file:///work", name: "work" }] };
    },
  };
  let shared;
  const client = () => (server.client ? server.client({ inputHandlers }) : (shared ??= httpClient(server.url, { inputHandlers })));
  const fresh = (options) => (server.spawn ? server.spawn(options) : httpClient(server.url, options));
  const list = [
    ["the first call finds 2025-11-25 (a session), and a complete task → ok as sent", async () => {
      const c = client();
      const statuses = [];
      const out = await callAndAwait(c, "slow", { ms: 200 }, {}, { onStatus: (s) => statuses.push(s) });
      assert(c.generation === "2025-11-25", `generation ${c.generation}`);
      if (!server.client) assert(typeof c.sessionId === "string" && c.sessionId.length > 0, `session ${c.sessionId}`);
      assert(out.tag === "ok" && text(out) === "slept 200 ms", show(out));
      if (server.unaware) return;
      assert(statuses.length >= 1 && statuses.every((s) => typeof s.pollIntervalMs === "number" && s.ttlMs >= 120_000 && !("pollInterval" in s) && !("ttl" in s)), show(statuses));
      assert(statuses.at(-1).status === "completed", show(statuses));
    }],
    ["a tool that asks mid-task (form) → the handler, once → ok with the answer", async () => {
      const before = asked.length;
      const out = await callAndAwait(client(), "ask");
      assert(out.tag === "ok" && text(out) === 'ask: accept {"name":"Ada"}', show(out));
      const mine = asked.slice(before);
      assert(mine.length === 1 && mine[0][0] === "form" && mine[0][2] === "What is your name?", show(mine));
    }],
    ["url elicitation, sampling and roots → their handlers → ok", async () => {
      const c = client();
      const url = await callAndAwait(c, "ask_url");
      assert(url.tag === "ok" && text(url) === "ask_url: accept", show(url));
      const sample = await callAndAwait(c, "sample");
      assert(sample.tag === "ok" && text(sample) === "sample: m1 hi", show(sample));
      const roots = await callAndAwait(c, "roots");
      assert(roots.tag === "ok" && text(roots) === 'roots: ["file:///work"]', show(roots));
    }],
    ["a handler that declines → the tool sees the decline", async () => {
      const c = fresh({ inputHandlers: { form: async () => ({ action: "decline" }) } });
      const out = await callAndAwait(c, "ask");
      assert(out.tag === "ok" && text(out) === "ask: decline null", show(out));
      await c.close();
    }],
    ["a tool with isError → ok as sent; a forbidden tool → plain call; a required one → a task", async () => {
      const c = client();
      const bad = await callAndAwait(c, "tool_error");
      assert(bad.tag === "ok" && bad.result.isError === true, show(bad));
      const echo = await callTool(c, "echo", { text: "plain" });
      assert(echo.tag === "ok" && text(echo) === "plain", show(echo));
      const required = await callAndAwait(c, "required_task");
      if (server.unaware) assert(required.tag === "ok", show(required));
      else assert(required.tag === "ok" && text(required) === "required_task: done", show(required));
    }],
  ];
  if (!server.unaware) {
    list.push(
      ["callTool: task: {ttl} of the library's own (300000 by default)", async () => {
        const created = await callTool(client(), "slow", { ms: 50 });
        assert(created.tag === "task" && created.status.ttlMs === 300_000 && created.status.status === "working", show(created));
        const out = await awaitTask(client(), created.status);
        assert(out.tag === "ok", show(out));
      }],
      ["input: return → input_required keyed by the request's id → updateTask → awaitTask → ok", async () => {
        const c = client();
        const out = await callAndAwait(c, "ask", {}, {}, { input: "return" });
        assert(out.tag === "input_required" && out.source === "task", show(out));
        const keys = Object.keys(out.status.inputRequests);
        assert(keys.length === 1 && out.status.inputRequests[keys[0]].method === "elicitation/create", show(out));
        const ack = await updateTask(c, out.status.taskId, { [keys[0]]: { action: "accept", content: { name: "Bob" } } });
        assert(ack.tag === "ok", show(ack));
        const end = await awaitTask(c, out.status.taskId);
        assert(end.tag === "ok" && text(end) === 'ask: accept {"name":"Bob"}', show(end));
      }],
      ["no handler → input_required, nothing answered for the app", async () => {
        const c = fresh({});
        const out = await callAndAwait(c, "ask");
        assert(out.tag === "input_required" && Object.keys(out.status.inputRequests).length === 1, show(out));
        const got = await getTask(c, out.status.taskId);
        assert(got.tag === "ok" && got.status.status === "input_required", show(got));
        await cancelTask(c, out.status.taskId);
        await c.close();
      }],
      ["failed with a stored result → error task_failed, the result in data.result", async () => {
        const out = await callAndAwait(client(), "fail_result");
        assert(out.tag === "error" && out.error.kind === "server" && out.error.cause.type === "task_failed", show(out));
        assert(out.error.data.result.isError === true && /deliberate failure/.test(out.error.data.result.content[0].text), show(out));
      }],
      ["failed by status → error task_failed with its statusMessage", async () => {
        const out = await callAndAwait(client(), "fail_status");
        assert(out.tag === "error" && out.error.cause.type === "task_failed" && out.error.message === "fail_status: deliberate failure", show(out));
        assert(out.error.cause.status.status === "failed", show(out));
      }],
      ["cancelTask → cancelled; cancelSignal → cancelled", async () => {
        const c = client();
        const created = await callTool(c, "forever");
        const waiting = awaitTask(c, created.status);
        setTimeout(() => cancelTask(c, created.status.taskId), 200);
        const out = await waiting;
        assert(out.tag === "cancelled" && out.status.status === "cancelled", show(out));
        const button = new AbortController();
        setTimeout(() => button.abort(), 200);
        const second = await callAndAwait(c, "forever", {}, {}, { cancelSignal: button.signal });
        assert(second.tag === "cancelled", show(second));
      }],
      ["listen: true hears the session's notifications/tasks/status (input too); without the stream it polls", async () => {
        // Over HTTP a fetch that counts: a GET for the session's stream per wait (closed after its last
        // listen), few tasks/get (polling at the server's 100 ms would read ~15 times in 1.5 s); a GET
        // answered 405 falls back to polling.
        const seen = { gets: 0, reads: 0 };
        const counting = (refuse) => (url, init) => {
          if (init?.method === "GET") {
            seen.gets += 1;
            if (refuse) return Promise.resolve(new Response("", { status: 405 }));
          } else if (typeof init?.body === "string" && init.body.includes('"method":"tasks/get"')) seen.reads += 1;
          return fetch(url, init);
        };
        const c = server.client ? client() : fresh({ inputHandlers, fetch: counting(false) });
        const out = await callAndAwait(c, "slow", { ms: 1500 }, {}, { listen: true });
        assert(out.tag === "ok" && text(out) === "slept 1500 ms", show(out));
        const before = asked.length;
        const asking = await callAndAwait(c, "ask", {}, {}, { listen: true });
        assert(asking.tag === "ok" && text(asking) === 'ask: accept {"name":"Ada"}' && asked.length === before + 1, show(asking));
        if (server.client) return;
        assert(seen.gets === 2 && seen.reads <= 6, `listening: ${show(seen)}`);
        await c.close();
        seen.gets = seen.reads = 0;
        const polling = fresh({ inputHandlers, fetch: counting(true) });
        const fell = await callAndAwait(polling, "slow", { ms: 1000 }, {}, { listen: true });
        assert(fell.tag === "ok" && text(fell) === "slept 1000 ms" && seen.gets === 1 && seen.reads >= 4, `no stream: ${show(seen)} ${show(fell)}`);
        await polling.close();
      }],
      ["a short timeout → -32001 with the last status", async () => {
        const c = client();
        const out = await callAndAwait(c, "forever", {}, { timeoutMs: 400 });
        assert(out.tag === "error" && out.error.code === -32001 && out.error.cause.status?.status === "working", show(out));
        await cancelTask(c, out.error.cause.status.taskId);
      }],
      ["unknown task → -32602; listTasks pages the session's tasks", async () => {
        const c = client();
        const unknown = await getTask(c, "no-such-task");
        assert(unknown.tag === "error" && unknown.error.code === -32602, show(unknown));
        let page = await listTasks(c);
        assert(page.tag === "ok" && Array.isArray(page.tasks) && page.tasks.length > 0, show(page));
        let n = page.tasks.length;
        while (page.nextCursor) {
          page = await listTasks(c, page.nextCursor);
          assert(page.tag === "ok", show(page));
          n += page.tasks.length;
        }
        assert(n >= 10 && page.tasks.every((t) => typeof t.ttlMs === "number"), `${n} tasks`);
      }],
    );
  }
  if (!server.client) {
    list.push(["close() ends the session (DELETE): the server no longer knows it", async () => {
      const c = fresh({});
      const first = await callTool(c, "echo", { text: "x" });
      assert(first.tag === "ok" && typeof c.sessionId === "string", show(first));
      const id = c.sessionId;
      await c.close();
      const r = await fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": id }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }) });
      assert(r.status === 404, `after close: HTTP ${r.status}`);
    }]);
    if (!server.unaware) list.push(["a session the server no longer knows → a documented error, never a new session mid-wait", async () => {
      const c = fresh({});
      const created = await callTool(c, "forever");
      assert(created.tag === "task", show(created));
      const id = c.sessionId;
      setTimeout(() => fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": id } }), 200);
      const out = await awaitTask(c, created.status);
      assert(out.tag === "error" && out.error.kind === "transport" && out.error.data?.sessionLost === true, show(out));
      const later = await getTask(c, created.status.taskId);
      assert(later.tag === "error" && later.error.data?.sessionLost === true && c.sessionId === id, show(later));
    }]);
  }
  if (journalLib && !server.client && !server.unaware) {
    // A store over a Map (Node has no IndexedDB): what the journal wrote, as it wrote it.
    const memory = () => {
      const m = new Map();
      return { m, get: async (k) => m.get(k), put: async (k, e) => void m.set(k, e), delete: async (k) => void m.delete(k), list: async () => [...m.values()] };
    };
    list.push(["journal: a journaled wait drives the task's input; the entry records the generation and the session", async () => {
      const store = memory();
      const c = fresh({ inputHandlers });
      const before = asked.length;
      const out = await journalLib.callAndAwait(c, "ask", {}, { journal: store });
      assert(out.tag === "ok" && text(out) === 'ask: accept {"name":"Ada"}' && asked.length === before + 1, show(out));
      assert(store.m.size === 0, `the entry outlived the task: ${show([...store.m.values()])}`);
      const created = await journalLib.callTool(c, "slow", { ms: 3000 }, { journal: store });
      assert(created.tag === "task", show(created));
      const [entry] = store.m.values();
      assert(store.m.size === 1 && entry.taskId === created.status.taskId && entry.tool === "slow", show(entry));
      assert(entry.generation === "2025-11-25" && entry.sessionId === c.sessionId && entry.status?.ttlMs === 300_000 && !("ttl" in entry.status), show(entry));
      // The same client (its session open) resumes the wait: ok, the entry gone.
      const outcomes = [];
      await journalLib.resumeTasks(c, store, { onOutcome: (o) => outcomes.push(o) });
      assert(outcomes.length === 1 && outcomes[0].tag === "ok" && text(outcomes[0]) === "slept 3000 ms" && store.m.size === 0, show(outcomes));
      await c.close();
    }]);
    list.push(["journal: a wait resumed on a new session (a reload) ends with the server's -32602 at once, its entry dropped", async () => {
      const store = memory();
      const c = fresh({});
      const created = await journalLib.callTool(c, "forever", {}, { journal: store });
      assert(created.tag === "task" && store.m.size === 1, show(created));
      const old = c.sessionId;
      const reloaded = fresh({});
      const t0 = performance.now();
      const outcomes = [];
      await journalLib.resumeTasks(reloaded, store, { onOutcome: (o) => outcomes.push(o), timeoutMs: 20_000 });
      const ms = performance.now() - t0;
      assert(outcomes.length === 1 && outcomes[0].tag === "error" && outcomes[0].error.code === -32602 && ms < 5000, `${Math.round(ms)} ms: ${show(outcomes)}`);
      assert(store.m.size === 0 && reloaded.sessionId !== old, `entries left: ${show([...store.m.values()])}`);
      await cancelTask(c, created.status.taskId);
      await c.close();
      await reloaded.close();
    }]);
  }
  return list.map(([name, fn]) => ({ name: `${server.name}: ${name}`, fn }));
}
