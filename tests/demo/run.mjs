// Drives the demo page end to end in headless Chromium (playwright-core + Debian Chromium), served the
// way `npm start` serves it: lists tools, starts several tasks at once, fills and submits a generated
// form, answers a url-mode request, cancels a task, switches to listen mode, points the page at another
// server, and saves a screenshot that must not be blank.
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startHttpServer } from "../server/http.mjs";
import { launch } from "../browser/chromium.mjs";
import { distinctColours } from "./png.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const site = await startHttpServer({ staticDir: root, pollIntervalMs: 100 });
const other = await startHttpServer({ pollIntervalMs: 50, framing: "sse" });
const browser = await launch();
let failed = 0;
const check = (name, ok, detail = "") => {
  if (!ok) failed += 1;
  console.log(`${ok ? "ok  " : "FAIL"} demo: ${name}${detail ? ` — ${detail}` : ""}`);
};

try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${site.origin}/www/`);
  await page.waitForSelector('[data-start="slow"]', { timeout: 15_000 });
  check("lists the server's tools", (await page.locator("[data-start]").count()) >= 10);

  const card = (tool) => page.locator(`article.task[data-tool="${tool}"]`).first();
  const outcome = async (tool) => {
    const o = card(tool).locator("[data-outcome]");
    await o.waitFor({ timeout: 15_000 });
    return { tag: await o.getAttribute("data-outcome"), text: await o.textContent() };
  };
  const start = async (tool, args) => {
    if (args) await page.locator(`li.tool:has([data-start="${tool}"]) textarea`).fill(JSON.stringify(args));
    await page.click(`[data-start="${tool}"]`);
  };

  // Several tasks at once.
  await start("slow", { ms: 1500, steps: 5 });
  await start("form");
  await start("forever");
  await start("ask_url");

  // The slow task shows progress while running.
  await page.waitForFunction(() => {
    const c = document.querySelector('article.task[data-tool="slow"]');
    return c && /step \d\/5/.test(c.textContent) && c.querySelector(".bar > div").style.width !== "";
  }, null, { timeout: 10_000 });
  check("shows status, statusMessage and a progress bar while running", true);

  // The generated form: typed fields, required marks, defaults.
  const form = card("form").locator("form.ask");
  await form.waitFor({ timeout: 10_000 });
  check("renders the form with required marks and defaults",
    (await form.locator(".req").count()) === 3 && (await form.locator('input[name="name"]').inputValue()) === "Ada" &&
    (await form.locator('select[name="color"]').inputValue()) === "green" && (await form.locator('input[name="subscribe"]').isChecked()));
  await form.locator('input[name="email"]').fill("ada@example.com");
  await form.locator('input[name="score"]').fill("7.5");
  await form.locator('input[name="count"]').fill("3");
  await form.locator('select[name="color"]').selectOption("blue");
  await form.locator('button[type="submit"]').click();
  const formOut = await outcome("form");
  const answer = JSON.parse(formOut.text.replace(/^result: /, ""));
  check("submits the form answer through the input handler", formOut.tag === "ok" && answer.action === "accept" &&
    answer.content.name === "Ada" && answer.content.score === 7.5 && answer.content.count === 3 && answer.content.color === "blue" && answer.content.subscribe === true,
    formOut.text);

  // url mode: the link with its domain, and a consent button.
  const consent = card("ask_url").locator(".ask");
  await consent.waitFor({ timeout: 10_000 });
  check("shows the url-mode link with a consent button", (await consent.locator(".url b").textContent()) === "example.com" &&
    (await consent.locator('[data-action="consent"]').count()) === 1);
  await consent.locator('[data-action="decline"]').click();
  check("answers the url-mode request", (await outcome("ask_url")).tag === "ok");

  // Cancel.
  await card("forever").locator("button.danger:not([disabled])").waitFor({ timeout: 10_000 });
  await card("forever").locator("button.danger").click();
  check("cancel button → cancelled", (await outcome("forever")).tag === "cancelled");

  const slowOut = await outcome("slow");
  check("slow task → ok with its result", slowOut.tag === "ok" && slowOut.text.includes("slept 1500 ms"), slowOut.text);
  const requests = Number(await card("slow").locator("[data-requests]").getAttribute("data-requests"));
  check("counts the requests sent", requests >= 3, String(requests));

  // Errors and timeouts are shown readably.
  await start("fail");
  const failOut = await outcome("fail");
  check("failed task → error with code and cause", failOut.tag === "error" && failOut.text.includes("-32603") && failOut.text.includes("task_failed"), failOut.text);
  await page.fill("#timeout", "300");
  await start("forever");
  const timeoutOut = await outcome("forever");
  check("the timeout field bounds the wait", timeoutOut.tag === "error" && timeoutOut.text.includes("-32001"), timeoutOut.text);
  await page.fill("#timeout", "60000");

  // Listen mode.
  await page.check("#listen");
  await start("slow", { ms: 300 });
  await page.waitForFunction(() => document.querySelector('article.task[data-tool="slow"] .meta')?.textContent.includes("listening"));
  const listened = await outcome("slow");
  const listenText = await card("slow").locator("[data-requests]").textContent();
  check("listen mode: listening, one tasks/get, ok", listened.tag === "ok" && listenText.includes("tasks/get 1") && listenText.includes("subscriptions/listen 1"), listenText);

  const shot = await page.screenshot({ fullPage: true });
  mkdirSync(`${root}test-results`, { recursive: true });
  writeFileSync(`${root}test-results/demo.png`, shot);
  const { width, height, colours } = distinctColours(shot);
  check("screenshot is not blank", colours > 20, `${width}x${height}, ${colours} colours sampled (test-results/demo.png)`);

  // Resume after reload: the page is reloaded mid-task; the journaled task continues on the new page.
  await page.uncheck("#listen");
  await start("slow", { ms: 2500, steps: 5 });
  await page.waitForFunction(() => /step \d\/5/.test(document.querySelector('article.task[data-tool="slow"]')?.textContent ?? ""));
  const taskId = await card("slow").locator(".id").textContent();
  await page.reload();
  await page.waitForFunction(() => document.querySelector('article.task[data-tool="slow"] .meta')?.textContent.includes("resumed after reload"), null, { timeout: 15_000 });
  const resumedId = await card("slow").locator(".id").textContent();
  const resumed = await outcome("slow");
  check("reloaded mid-task: the task is resumed from the journal and ends ok", resumed.tag === "ok" && resumed.text.includes("slept 2500 ms") && resumedId === taskId,
    `${resumed.text} (${taskId} → ${resumedId})`);
  await page.reload();
  await page.waitForFunction(() => /tools$/.test(document.querySelector("#conn-status").textContent));
  check("a task that ended is not resumed again", (await page.locator('article.task').count()) === 0 || (await page.locator('article.task[data-tool="slow"]').count()) === 0);

  // Pointed at another server URL (another origin, SSE framing).
  await page.fill("#server-url", other.url);
  await page.click('#connect button[type="submit"]');
  await page.waitForFunction(() => /tools$/.test(document.querySelector("#conn-status").textContent));
  await start("slow", { ms: 200 });
  const remote = await outcome("slow");
  check("pointed at another server URL", remote.tag === "ok" && remote.text.includes("slept 200 ms"), remote.text);

  // The in-page server: a task against a directClient, with its status changes shown.
  await page.goto(`${site.origin}/www/?kind=direct`);
  await page.waitForSelector('[data-start="slow"]', { timeout: 15_000 });
  await start("slow", { ms: 600, steps: 3 });
  await page.waitForFunction(() => /step \d\/3/.test(document.querySelector('article.task[data-tool="slow"]')?.textContent ?? ""));
  const direct = await outcome("slow");
  check("in-page directClient server: status changes, then ok", direct.tag === "ok" && direct.text.includes("slept 600 ms"), direct.text);

  check("no page errors", errors.length === 0, errors.join("; "));
} catch (e) {
  check("demo run", false, e?.stack ?? String(e));
} finally {
  await browser.close();
  await site.close();
  await other.close();
}
console.log(failed ? `demo: ${failed} failure(s)` : "demo: all passed");
process.exit(failed ? 1 : 0);
