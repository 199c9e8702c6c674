// Runs the in-page suite (tests/browser/suite.mjs) in headless Chromium: the repo is served by the
// test server (same origin as the page), and a second test server on another port is the cross-origin
// MCP endpoint for the HTTP scenarios (--http); --ports adds portClient to the test server in a Worker
// and in an iframe on another origin (localhost vs 127.0.0.1); --journal runs the task-journal scenarios
// (tests/browser/journal.mjs: reloads, closed pages, two tabs). Prints one line per scenario; exits
// non-zero on any failure.
import { fileURLToPath } from "node:url";
import { startHttpServer } from "../server/http.mjs";
import { launch } from "./chromium.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const site = await startHttpServer({ staticDir: root });
const mcp = await startHttpServer({ pollIntervalMs: 20 });
const browser = await launch();
let failed = 0;
try {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  const query = new URLSearchParams();
  if (process.argv.includes("--http")) query.set("http", mcp.url);
  if (process.argv.includes("--ports")) query.set("ports", "1");
  await page.goto(`${site.origin}/tests/browser/index.html?${query}`);
  await page.waitForFunction(() => window.__results, null, { timeout: 60_000 });
  const results = await page.evaluate(() => window.__results);
  for (const r of results) {
    console.log(`${r.ok ? "ok  " : "FAIL"} browser: ${r.name}${r.ok ? ` (${r.ms} ms)` : "\n" + r.error}`);
    if (!r.ok) failed += 1;
  }
  for (const p of problems) console.log(p);
  if (process.argv.includes("--http")) {
    const r = await answeredRequestsFinish(browser);
    results.push(r);
    console.log(`${r.ok ? "ok  " : "FAIL"} browser: ${r.name}${r.ok ? ` (${r.ms} ms)` : "\n" + r.error}`);
    if (!r.ok) failed += 1;
  }
  if (process.argv.includes("--journal")) {
    const { journalScenarios } = await import("./journal.mjs");
    for (const r of await journalScenarios(browser, site)) {
      results.push(r);
      console.log(`${r.ok ? "ok  " : "FAIL"} browser journal: ${r.name}${r.ok ? ` (${r.ms} ms)` : "\n" + r.error}`);
      if (!r.ok) failed += 1;
    }
  }
  console.log(`browser: ${results.length - failed}/${results.length} passed`);
} finally {
  await browser.close();
  await site.close();
  await mcp.close();
}
process.exit(failed ? 1 : 0);

/** A request answered on an event stream ends as a finished response — DevTools (the
 * network log Playwright reads) shows no failed request (`net::ERR_ABORTED`) for a call that completed. */
async function answeredRequestsFinish(browser) {
  const name = "httpClient over event streams: answered requests do not show as failed (no net::ERR_ABORTED)";
  const sse = await startHttpServer({ pollIntervalMs: 20, framing: "sse" });
  const t0 = Date.now();
  const page = await browser.newPage();
  try {
    const failedRequests = [];
    const finished = [];
    page.on("requestfailed", async (r) => r.url().startsWith(sse.url) && failedRequests.push(`${r.postData()?.slice(0, 60)} → ${r.failure()?.errorText} (response: ${(await r.response().catch(() => null))?.status() ?? "none"}, at ${Date.now() - t0} ms)`));
    page.on("requestfinished", (r) => r.url().startsWith(sse.url) && r.method() === "POST" && finished.push(r.postData()));
    await page.goto(`${site.origin}/package.json`); // any page of the site: the test imports the package itself
    const out = await page.evaluate(async (url) => {
      const { default: init, httpClient, callAndAwait } = await import("/pkg/index.js");
      await init();
      const o = await callAndAwait(httpClient(url), "slow", { ms: 100 });
      await new Promise((r) => setTimeout(r, 300)); // the drained streams end
      return o.tag;
    }, sse.url);
    if (out !== "ok") throw new Error(`outcome ${out}`);
    if (failedRequests.length) throw new Error(`failed requests:\n${failedRequests.join("\n")}`);
    if (finished.length < 2) throw new Error(`expected the tools/call and a tasks/get to finish: ${finished.length}`);
    return { name, ok: true, ms: Date.now() - t0 };
  } catch (e) {
    return { name, ok: false, error: String(e?.stack ?? e) };
  } finally {
    await page.close();
    await sse.close();
  }
}
