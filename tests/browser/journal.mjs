// The task journal in headless Chromium through the built package (pkg/), against the project's test
// server over HTTP (same origin as the page): a reload mid-task, a page closed after answering a form,
// a page that dies between journaling an answer and sending it, two tabs resuming one task. Every
// check counts requests in the server's own log. Run by tests/browser/run.mjs --journal.
import assert from "node:assert/strict";

const text = (out) => out?.result?.content?.[0]?.text;

/** Runs the journal scenarios; resolves with `[{name, ok, ms, error?}]`. */
export async function journalScenarios(browser, site) {
  const log = async () => (await fetch(`${site.origin}/_test/log`)).json();
  const count = async (method) => (await log()).filter((e) => e.method === method).length;
  const results = [];
  const scenario = async (name, body) => {
    const t0 = Date.now();
    const context = await browser.newContext();
    try {
      await fetch(`${site.origin}/_test/reset`, { method: "POST" });
      await body(context);
      results.push({ name, ok: true, ms: Date.now() - t0 });
    } catch (e) {
      results.push({ name, ok: false, ms: Date.now() - t0, error: e?.stack ?? String(e) });
    } finally {
      await context.close();
    }
  };
  const open = async (context) => {
    const page = await context.newPage();
    await page.goto(`${site.origin}/tests/browser/journal.html`);
    await page.waitForFunction(() => window.ready === true);
    return page;
  };
  /** Polls the page's journal (IndexedDB, read in the page) until `test(entries)` holds. */
  const journalUntil = async (page, test, what) => {
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      if (test(await page.evaluate(() => window.lib.pendingTasks(window.journal)))) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`the journal never showed: ${what}`);
  };
  const mcp = `${site.origin}/mcp`;

  await scenario("a page reloaded mid-task resumes from IndexedDB: ok, one tools/call, entry gone", async (context) => {
    const page = await open(context);
    await page.evaluate((url) => {
      window.lib.callAndAwait(window.lib.httpClient(url), "slow", { ms: 1500 }, {}, { journal: window.journal });
    }, mcp);
    await journalUntil(page, (e) => e.length === 1 && e[0].status?.status === "working", "the working task");
    await page.reload();
    await page.waitForFunction(() => window.ready === true);
    const [entry] = await page.evaluate(() => window.lib.pendingTasks(window.journal));
    assert.equal(entry.tool, "slow", "the entry survived the reload");
    const resumed = await page.evaluate((url) => window.lib.resumeTasks(window.lib.httpClient(url), window.journal), mcp);
    assert.equal(resumed.length, 1);
    assert.equal(resumed[0].outcome.tag, "ok", JSON.stringify(resumed[0].outcome));
    assert.equal(text(resumed[0].outcome), "slept 1500 ms");
    assert.equal(await count("tools/call"), 1, "exactly one tools/call");
    assert.deepEqual(await page.evaluate(() => window.lib.pendingTasks(window.journal)), [], "removed at the outcome");
  });

  await scenario("a page closed after answering a form: the new page never shows that form again", async (context) => {
    const first = await open(context);
    // ask_twice: 'name', then 'age'; staleReads keeps 'name' listed for 5 reads after it was answered.
    await first.evaluate((url) => {
      const client = window.lib.httpClient(url, { inputHandlers: window.handlers() });
      window.lib.callAndAwait(client, "ask_twice", { staleReads: 5, pollIntervalMs: 2000 }, {}, { journal: window.journal, maxPollIntervalMs: 300 });
    }, mcp);
    await journalUntil(first, (e) => e.length === 1 && e[0].answered.length === 1 && e[0].answered[0].hash && !("answer" in e[0].answered[0]),
      "the name answer acknowledged (hash only)");
    assert.deepEqual(await first.evaluate(() => window.asked), ["name"]);
    await first.close();
    const second = await open(context);
    const [resumed] = await second.evaluate((url) => {
      window.listed = [];
      const onStatus = (s) => window.listed.push(Object.keys(s.inputRequests ?? {}).join(","));
      return window.lib.resumeTasks(window.lib.httpClient(url, { inputHandlers: window.handlers() }), window.journal, { maxPollIntervalMs: 50, onStatus });
    }, mcp);
    assert.equal(resumed.outcome.tag, "ok", JSON.stringify(resumed.outcome));
    assert.ok((await second.evaluate(() => window.listed)).some((keys) => keys.split(",").includes("name")),
      "the new page read statuses that still listed 'name'");
    assert.deepEqual(await second.evaluate(() => window.asked), ["age"], "only the new key was asked");
    assert.equal(await count("tasks/update"), 2, "one update per key");
  });

  await scenario("a page that dies between journaling an answer and its tasks/update: the answer is sent once, no handler", async (context) => {
    const first = await open(context);
    await first.evaluate((url) => {
      // This page's network never lets a tasks/update out (it dies first).
      const fetchNoUpdate = (u, init) => (JSON.parse(init.body).method === "tasks/update" ? new Promise(() => {}) : fetch(u, init));
      const client = window.lib.httpClient(url, { fetch: fetchNoUpdate, inputHandlers: window.handlers() });
      window.lib.callAndAwait(client, "ask", {}, {}, { journal: window.journal });
    }, mcp);
    await journalUntil(first, (e) => e.length === 1 && e[0].answered.length === 1 && "answer" in e[0].answered[0], "the journaled answer");
    await first.close();
    assert.equal(await count("tasks/update"), 0, "nothing reached the server");
    const second = await open(context);
    const [resumed] = await second.evaluate(
      (url) => window.lib.resumeTasks(window.lib.httpClient(url, { inputHandlers: window.handlers() }), window.journal),
      mcp,
    );
    assert.equal(resumed.outcome.tag, "ok", JSON.stringify(resumed.outcome));
    assert.equal(text(resumed.outcome), "hello, Ada");
    assert.deepEqual(await second.evaluate(() => window.asked), [], "no handler ran on the new page");
    assert.equal(await count("tasks/update"), 1, "the stored answer went out exactly once");
  });

  await scenario("two tabs resume the same task (journal: true, the default IndexedDB store): one handler call in all, both get the outcome", async (context) => {
    const starter = await open(context);
    const created = await starter.evaluate((url) => window.lib.callTool(window.lib.httpClient(url), "ask", {}, { journal: true }), mcp);
    assert.equal(created.tag, "task");
    await starter.close();
    const [a, b] = [await open(context), await open(context)];
    const resume = (page) => page.evaluate(
      (url) => window.lib.resumeTasks(window.lib.httpClient(url, { inputHandlers: window.handlers(300) }), true),
      mcp,
    );
    const [ra, rb] = await Promise.all([resume(a), resume(b)]);
    for (const r of [ra, rb]) {
      assert.equal(r.length, 1);
      assert.equal(r[0].outcome.tag, "ok", JSON.stringify(r[0].outcome));
      assert.equal(text(r[0].outcome), "hello, Ada");
    }
    assert.equal(await a.evaluate(() => Number(localStorage.getItem("asked"))), 1, "one handler call across both tabs");
    assert.equal(await count("tasks/update"), 1);
    assert.deepEqual(await a.evaluate(() => window.lib.pendingTasks(true)), []);
  });

  return results;
}
