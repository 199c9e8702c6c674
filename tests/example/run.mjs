// The example app (examples/tasks-app) end to end: builds it (tests/example/build.mjs), serves
// it with the project's test server on one origin (the app talks to /mcp), and drives it in headless
// Chromium: `slow` to ok with its statuses shown as they change, `ask` answered through the page's form
// (the Rust input handler), declined, and cancelled while the form is open, `forever` cancelled with the
// Cancel button (the run's cancel_signal); then a screenshot that must not be blank. Fails on any page error.
import { readFileSync } from "node:fs";
import { startHttpServer } from "../server/http.mjs";
import { launch } from "../browser/chromium.mjs";
import { checks, pageWithErrors, screenshotChecked } from "./checks.mjs";
import { buildExample, exampleDir } from "./build.mjs";

const { check, finish } = checks("example");

try {
  const s = buildExample();
  check("builds (cargo wasm32 release + wasm-bindgen --target web)", true, `${s.toFixed(1)} s`);
} catch (e) {
  check("builds (cargo wasm32 release + wasm-bindgen --target web)", false, e.message);
  finish();
}

// The app depends on the crate without its default features: its module exports what the app declares
// (`start`) and nothing of the npm package's JS API.
const glue = readFileSync(`${exampleDir}/pkg/tasks_app.js`, "utf8");
const exported = [...glue.matchAll(/^export (?:async )?function (\w+)/gm)].map((m) => m[1]);
check("the app's module exports only the app's own functions (no callTool, liveCounts, …)",
  exported.length === 1 && exported[0] === "start", exported.join(", "));

const site = await startHttpServer({ staticDir: exampleDir, pollIntervalMs: 100 });
let browser;
try {
  browser = await launch();
  const { page, errors } = await pageWithErrors(browser, { width: 900, height: 800 });
  await page.goto(`${site.origin}/`);
  await page.waitForSelector("#start-slow:not([disabled])", { timeout: 15_000 });
  check("boots and talks to /mcp on its own origin", (await page.textContent("#server")) === site.url);

  const outcome = async () => {
    const o = page.locator("#outcome[data-outcome]");
    await o.waitFor({ timeout: 15_000 });
    return { tag: await o.getAttribute("data-outcome"), text: await o.textContent() };
  };
  const statuses = () => page.locator("#statuses li[data-state]").evaluateAll((ls) => ls.map((l) => `${l.dataset.state}: ${l.textContent}`));
  const idle = () => page.waitForSelector("#start-slow:not([disabled])", { timeout: 15_000 });

  // slow: its statuses appear while it runs, then the result.
  await page.fill("#slow-ms", "1200");
  await page.click("#start-slow");
  await page.waitForSelector("#statuses li[data-state=working]", { timeout: 10_000 });
  check("start buttons are off during a run", await page.isDisabled("#start-ask"));
  const slow = await outcome();
  const slowStatuses = await statuses();
  check("slow → ok with its result", slow.tag === "ok" && slow.text === "slept 1200 ms", slow.text);
  check("slow: the statuses as they changed (≥ 2, steps then completed)",
    slowStatuses.length >= 2 && slowStatuses.some((s) => /step \d\/3/.test(s)) && slowStatuses.at(-1).startsWith("completed"),
    slowStatuses.join(" | "));
  await idle();

  // ask: the form appears (the Rust handler), is filled and submitted; the greeting comes back.
  await page.click("#start-ask");
  const form = page.locator('form.ask[data-key="name"]');
  await form.waitFor({ timeout: 10_000 });
  check("ask: shows the form the task asks for, with its message",
    (await form.locator("p").textContent()) === "What is your name?" && (await statuses()).some((s) => s.startsWith("input_required")),
    (await statuses()).join(" | "));
  await form.locator('input[name="name"]').fill("Ada");
  await form.locator('button[type="submit"]').click();
  const ask = await outcome();
  check("ask: the submitted name → greeting", ask.tag === "ok" && ask.text === "hello, Ada", ask.text);
  check("ask: the form is gone once answered", (await page.locator("form.ask").count()) === 0);
  await idle();

  // ask, declined.
  await page.click("#start-ask");
  await form.waitFor({ timeout: 10_000 });
  await form.locator('[data-action="decline"]').click();
  const declined = await outcome();
  check("ask: Decline → the tool's answer to a declined form", declined.tag === "ok" && declined.text === "no name", declined.text);
  await idle();

  // ask, cancelled while the form is open: the handler's signal removes the form.
  await page.click("#start-ask");
  await form.waitFor({ timeout: 10_000 });
  await page.click("#cancel:not([disabled])");
  const askCancelled = await outcome();
  check("ask: Cancel while the form is open → cancelled, form removed",
    askCancelled.tag === "cancelled" && (await page.locator("form.ask").count()) === 0, askCancelled.text);
  await idle();

  // forever: Cancel → tasks/cancel → the wait ends with the server's cancelled status.
  await page.click("#start-forever");
  await page.waitForSelector("#cancel:not([disabled])", { timeout: 10_000 });
  check("forever: shows it running", (await statuses()).some((s) => s.includes("running forever")), (await statuses()).join(" | "));
  const foreverId = await page.textContent("#task");
  await page.click("#cancel");
  const cancelled = await outcome();
  check("forever: Cancel → cancelled", cancelled.tag === "cancelled" && cancelled.text.includes("cancelled by client"), cancelled.text);
  // Cancel aborts the run's cancelSignal: the library sends tasks/cancel and the wait ends
  // with the server's cancelled status — the page notes the click, then shows that status last.
  const shown = await page.waitForFunction(() => [...document.querySelectorAll("#statuses li.note")].some((l) => l.textContent === "cancelling…"),
    null, { timeout: 5_000 }).then(() => true, () => false);
  const forever = await statuses();
  check("forever: the click noted, then the cancelled status (cancel_signal)", shown && forever.at(-1).startsWith("cancelled"), forever.join(" | "));
  const log = await (await fetch(`${site.origin}/_test/log`)).json();
  const cancels = log.filter((r) => r.method === "tasks/cancel" && r.taskId === foreverId).length;
  check("forever: one tasks/cancel sent for it", cancels === 1, `${cancels} for ${foreverId}`);
  await idle();

  await screenshotChecked(page, check, "example.png", 20);

  check("no page errors", errors.length === 0, errors.join("; "));
} catch (e) {
  check("example run", false, e?.stack ?? String(e));
} finally {
  await browser?.close();
  await site.close();
}
finish();
