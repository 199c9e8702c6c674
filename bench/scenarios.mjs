// The bench scenarios, environment-agnostic: the same code runs in Node (bench/node-child.mjs) and in
// the page (bench/page.mjs). Each `prepare*` returns `{run}`; the environment measures around `run()`
// (CPU time, memory) and passes the hooks a scenario needs (`sample` for a memory sample with GC).
//
// `kind` is "ours" (mod = the mcp-tasks-wasm module) or "theirs" (mod = @modelcontextprotocol/ext-tasks/client).
import { createFakeServer, makeBigResult } from "./server.mjs";
import { oursClient, theirsSession, oursWait, theirsWait } from "./clients.mjs";

function connect(kind, mod, server) {
  if (kind === "ours") {
    const client = oursClient(mod, server);
    return { wait: (args, awaitOptions) => oursWait(mod, client, args, awaitOptions), session: null };
  }
  const session = theirsSession(mod, server);
  return { wait: (args) => theirsWait(session, args), session };
}

/** Normalises both outcomes to {ok, result}. */
function settled(kind, out) {
  if (kind === "ours") return { ok: out.tag === "ok", result: out.result, raw: out };
  const o = out.outcome;
  return { ok: o.status === "completed", result: o.result, raw: o };
}

function check(kind, out) {
  const s = settled(kind, out);
  if (!s.ok) throw new Error(`${kind}: wait did not complete: ${JSON.stringify(s.raw, (k, v) => (v instanceof Error ? { message: v.message, cause: String(v.cause) } : v)).slice(0, 500)}`);
  return s;
}

// 1. CPU per poll round trip: one task, `polls` polls, the server's interval `intervalMs`.
//    ours: pollIntervalMs/minPollIntervalMs = intervalMs on awaitTask too; theirs floors at 10 ms.
export function preparePolls(kind, mod, { intervalMs = 0 } = {}) {
  const server = createFakeServer({ pollIntervalMs: intervalMs });
  const c = connect(kind, mod, server);
  const awaitOptions = { pollIntervalMs: intervalMs, minPollIntervalMs: intervalMs };
  return {
    server,
    async run(polls = 300) {
      server.clear();
      server.resetCounts();
      check(kind, await c.wait({ polls }, awaitOptions));
      if (server.counts["tasks/get"] !== polls) throw new Error(`${kind}: ${server.counts["tasks/get"]} polls, expected ${polls}`);
      return { polls: server.counts["tasks/get"] };
    },
  };
}

// 2. Large result: the task completes on its first tasks/get with a ~5 MB CallToolResult.
//    `marks.answer()` is called just before the completing answer is returned, `marks.outcome()` as soon
//    as the caller has its outcome (Node reads CPU time there).
export function prepareBig(kind, mod, { bytes = 5 * 1024 * 1024, big = true } = {}) {
  const bigResult = makeBigResult(bytes);
  const awaitOptions = { pollIntervalMs: 0, minPollIntervalMs: 0 };
  return {
    bigResult,
    bigJsonBytes: () => JSON.stringify(bigResult).length,
    /** A fresh server and client per run, so that nothing of an earlier run stays reachable. */
    async run(marks = {}) {
      const server = createFakeServer({ pollIntervalMs: 0, bigResult });
      const c = connect(kind, mod, server);
      server.onComplete = (rec, answer) => { if (marks.answer) marks.answer(answer); };
      const out = await c.wait({ polls: 1, big }, awaitOptions);
      const at = marks.outcome ? marks.outcome() : undefined;
      const s = check(kind, out);
      return { same: s.result === bigResult, at, keep: { out } };
    },
  };
}

// 3. Many waits: `n` concurrent waits, each polled `polls` times at `intervalMs`.
//    `sample(label)` (optional) is called while all waits are live: after every tools/call has been
//    answered, and after each round of polls has been answered.
export function prepareMany(kind, mod, { intervalMs = 50, polls = 3 } = {}) {
  const server = createFakeServer({ pollIntervalMs: intervalMs });
  const c = connect(kind, mod, server);
  const awaitOptions = { pollIntervalMs: intervalMs, minPollIntervalMs: intervalMs };
  return {
    server,
    async run(n = 10000, sample = null) {
      server.clear();
      server.resetCounts();
      const samples = [];
      let pending = null;
      const later = (label) => {
        if (sample === null || pending !== null) return;
        pending = setTimeout(() => { pending = null; samples.push(sample(label)); }, 0);
      };
      const origHandle = server.handle;
      if (sample !== null) {
        server.handle = (method, params) => {
          const out = origHandle(method, params);
          if (method === "tools/call" && server.counts["tools/call"] === n) later("created");
          if (method === "tasks/get" && server.counts["tasks/get"] % n === 0 && server.counts["tasks/get"] < n * polls) later(`poll${server.counts["tasks/get"] / n}`);
          return out;
        };
      }
      const waits = new Array(n);
      for (let i = 0; i < n; i += 1) waits[i] = c.wait({ polls }, awaitOptions);
      const outs = await Promise.all(waits);
      server.handle = origHandle;
      let ok = 0;
      for (const o of outs) if (settled(kind, o).ok) ok += 1;
      const gets = server.counts["tasks/get"];
      server.clear();
      return { ok, n, gets, samples };
    },
  };
}

/** The fake server's own memory for `n` waits: n task records created and polled, nothing else. */
export function serverShare(n = 10000, polls = 3) {
  const server = createFakeServer({ pollIntervalMs: 50 });
  const ids = [];
  for (let i = 0; i < n; i += 1) ids.push(server.handle("tools/call", { name: "work", arguments: { polls } }).taskId);
  for (let p = 0; p < polls - 1; p += 1) for (const taskId of ids) server.handle("tasks/get", { taskId });
  return { server, ids };
}

/** The fake server's own CPU work for `n` waits of `polls` polls (called in a loop, no client). */
export function serverWork(n, polls) {
  const server = createFakeServer({ pollIntervalMs: 0 });
  const ids = [];
  for (let i = 0; i < n; i += 1) ids.push(server.handle("tools/call", { name: "work", arguments: { polls } }).taskId);
  for (let p = 0; p < polls; p += 1) for (const taskId of ids) server.handle("tasks/get", { taskId });
  return server.counts["tasks/get"];
}

// 4. Requests per wait: a task of length `T` ms with interval `P` ms.
//    mode "poll": ours polls (default options, minPollIntervalMs lowered to P when P < 100);
//                 theirs polls. mode "listen": ours with listen: true; theirs has no listen, so its
//                 figure is with notifications/tasks delivered by the host to the port (what it consumes).
export async function requestsPerWait(kind, mod, { T, P, mode }) {
  const server = createFakeServer({ pollIntervalMs: P });
  const c = connect(kind, mod, server);
  if (mode === "listen" && kind === "theirs") server.onNotification = (msg) => c.session.__deliver(msg);
  const awaitOptions = mode === "listen" ? { listen: true } : (P < 100 ? { minPollIntervalMs: P } : {});
  const t0 = performance.now();
  check(kind, await c.wait({ ms: T }, awaitOptions));
  return { gets: server.counts["tasks/get"], listens: server.counts["subscriptions/listen"], wallMs: performance.now() - t0 };
}

/** 5. Start-up: the first request's time, given the moment before `import` (same clock). */
export async function firstRequest(kind, mod) {
  let resolveFirst;
  const first = new Promise((r) => { resolveFirst = r; });
  const server = createFakeServer({ pollIntervalMs: 0 });
  const orig = server.handle;
  server.handle = (m, p) => { resolveFirst(performance.now()); return orig(m, p); };
  const c = connect(kind, mod, server);
  const done = c.wait({ polls: 1 }, { pollIntervalMs: 0, minPollIntervalMs: 0 });
  const at = await first;
  await done;
  return at;
}
