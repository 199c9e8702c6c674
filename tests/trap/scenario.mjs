// The trap scenario, the same in Node and in a page: three calls in flight, then the module traps in
// its timer's callback with the timer's state borrowed (every call's timers die with it, as after a real
// trap there). The registry that holds the calls' promises must settle all three (a page: at once, from
// the `error` event carrying the module's RuntimeError; Node, which gets no such event: 1 s after their
// deadline), reject every later call at once with the same Error, say so in liveCounts(), and nothing
// of the module may fire afterwards (no request sent, no callback called).
// `lib` is the trap build's glue (initialised). Resolves with {ok, detail, figures}.

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();

export async function trapScenario(lib, { expectAtOnce }) {
  const DEADLINE = 800;
  const TRAP_AFTER = 150;
  const events = [];
  const never = {
    request(method) {
      events.push({ at: now(), what: `request ${method}` });
      return new Promise(() => {});
    },
  };
  const statuses = [];
  const started = now();
  const settle = (p) => p.then((v) => ({ at: now(), value: v }), (e) => ({ at: now(), error: e }));
  const calls = [
    settle(lib.awaitTask(never, "t1", { timeoutMs: DEADLINE, pollIntervalMs: 50, onStatus: (s) => statuses.push(s) })),
    settle(lib.callAndAwait(never, "tool", {}, { timeoutMs: DEADLINE })),
    settle(lib.getTask(never, "t3", { timeoutMs: DEADLINE })),
  ];
  const trapAt = now() + TRAP_AFTER;
  lib.__trapInTimer(TRAP_AFTER);
  const outs = await Promise.all(calls);
  const problems = [];
  const failure = outs[0].error;
  if (!(failure instanceof Error) || failure.name !== "McpTasksWasmFailure") problems.push(`first call: ${String(failure?.stack ?? failure)}`);
  for (const [i, o] of outs.entries()) {
    if (o.error !== failure) problems.push(`call ${i} did not reject with the one failure: ${String(o.error ?? JSON.stringify(o.value))}`);
  }
  const latest = Math.max(...outs.map((o) => o.at)) - started;
  // A page rejects at once (the error event); Node by the first deadline + 1 s (+ timer slack).
  const bound = expectAtOnce ? TRAP_AFTER + 150 : DEADLINE + 1000 + 250;
  if (latest > bound) problems.push(`rejected ${latest.toFixed(0)} ms after the start, expected by ${bound} ms`);
  if (!expectAtOnce && latest < DEADLINE + 1000 - 50) problems.push(`rejected after ${latest.toFixed(0)} ms, before deadline + 1 s`);
  // Later calls reject at once, with the same Error, and send nothing.
  const t = now();
  const later = await settle(lib.awaitTask(never, "t4", { timeoutMs: 500 }));
  if (later.error !== failure) problems.push(`a later call: ${String(later.error ?? JSON.stringify(later.value))}`);
  if (later.at - t > 20) problems.push(`a later call took ${(later.at - t).toFixed(0)} ms to reject`);
  const counts = lib.liveCounts();
  if (counts.failed !== failure) problems.push(`liveCounts().failed is ${String(counts.failed)}`);
  if (counts.calls !== 0) problems.push(`liveCounts().calls is ${counts.calls}`);
  // Nothing fires afterwards: no request, no onStatus.
  const before = events.length + statuses.length;
  await sleep(300);
  const afterTrap = events.filter((e) => e.at > trapAt + 5);
  if (afterTrap.length) problems.push(`after the trap: ${afterTrap.map((e) => e.what).join(", ")}`);
  if (events.length + statuses.length !== before) problems.push("something fired after the calls were rejected");
  return {
    ok: problems.length === 0,
    detail: problems.join("; ") || "all three rejected, later calls rejected at once, nothing fired afterwards",
    rejectedAfterMs: Math.round(latest),
    trapAfterMs: TRAP_AFTER,
    deadlineMs: DEADLINE,
  };
}
