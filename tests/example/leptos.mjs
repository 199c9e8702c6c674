// The Leptos example (examples/leptos-app) end to end: builds it (tests/example/build.mjs), serves it
// with the project's test server on one origin (the app talks to /mcp), and clicks it in headless
// Chromium: Run slow → its statuses as they change, then ok with the result; Run forever → Cancel (a
// CancelHandle as the wait's cancel_signal) → one tasks/cancel and the cancelled outcome; then a
// screenshot that must not be blank. Fails on any page error. By hand: `node tests/example/leptos.mjs`.
import { startHttpServer } from "../server/http.mjs";
import { launch } from "../browser/chromium.mjs";
import { checks, pageWithErrors, screenshotChecked } from "./checks.mjs";
import { buildExample, exampleDirOf } from "./build.mjs";

const { check, finish } = checks("leptos");

try {
  const s = buildExample("leptos-app");
  check("builds (cargo wasm32 release + wasm-bindgen --target web)", true, `${s.toFixed(1)} s`);
} catch (e) {
  check("builds (cargo wasm32 release + wasm-bindgen --target web)", false, e.message);
  finish();
}

const site = await startHttpServer({ staticDir: exampleDirOf("leptos-app"), pollIntervalMs: 100 });
let browser;
try {
  browser = await launch();
  const { page, errors } = await pageWithErrors(browser, { width: 900, height: 700 });
  await page.goto(`${site.origin}/`);
  await page.waitForSelector("#run-slow:not([disabled])", { timeout: 15_000 });
  check("mounts and talks to /mcp on its own origin", (await page.textContent("#server")) === site.url);

  const outcome = async () => {
    const o = page.locator("#outcome[data-outcome]");
    await o.waitFor({ timeout: 15_000 });
    return { tag: await o.getAttribute("data-outcome"), text: await o.textContent() };
  };
  const statuses = () => page.locator("#statuses li[data-state]").evaluateAll((ls) => ls.map((l) => l.dataset.state));

  // slow: the statuses appear while it runs (signals written by on_status), then the result.
  await page.click("#run-slow");
  await page.waitForSelector("#statuses li[data-state=working]", { timeout: 10_000 });
  check("Run is off during a run, Cancel on", (await page.isDisabled("#run-forever")) && !(await page.isDisabled("#cancel")));
  const slow = await outcome();
  const seen = await statuses();
  check("slow → ok with its result", slow.tag === "ok" && slow.text === "slept 400 ms", slow.text);
  check("slow: the statuses as they changed (working …, then completed)", seen[0] === "working" && seen.at(-1) === "completed", seen.join(" | "));
  await page.waitForSelector("#run-forever:not([disabled])", { timeout: 10_000 });

  // forever: Cancel → tasks/cancel → the server's cancelled status ends the wait.
  await page.click("#run-forever");
  await page.waitForSelector("#statuses li[data-state=working]", { timeout: 10_000 });
  await page.click("#cancel");
  const cancelled = await outcome();
  check("forever: Cancel → cancelled", cancelled.tag === "cancelled", cancelled.text);
  const log = await (await fetch(`${site.origin}/_test/log`)).json();
  const cancels = log.filter((r) => r.method === "tasks/cancel").length;
  check("forever: one tasks/cancel sent", cancels === 1, `${cancels}`);

  await screenshotChecked(page, check, "leptos.png", 10);
  check("no page errors", errors.length === 0, errors.join("; "));
} catch (e) {
  check("leptos run", false, e?.stack ?? String(e));
} finally {
  await browser?.close();
  await site.close();
}
finish();
