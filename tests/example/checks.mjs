// What the example runners (run.mjs, leptos.mjs) share: their check lines and summary, a page that
// records its errors (a page error or a console error fails the run), and the screenshot check.
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { distinctColours } from "../demo/png.mjs";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));

/** `check(name, ok, detail?)` prints one line per check; `finish()` prints the summary and exits 1 on
 * any failure. `label` starts each line. */
export function checks(label) {
  const t0 = Date.now();
  let failed = 0;
  const check = (name, ok, detail = "") => {
    if (!ok) failed += 1;
    console.log(`${ok ? "ok  " : "FAIL"} ${label}: ${name}${detail ? ` — ${detail}` : ""}`);
  };
  const finish = () => {
    const s = ((Date.now() - t0) / 1000).toFixed(1);
    console.log(failed ? `${label}: ${failed} failure(s) (${s} s)` : `${label}: all passed (${s} s)`);
    process.exit(failed ? 1 : 0);
  };
  return { check, finish };
}

/** A new page of `browser` at `viewport`, with `errors`: its page errors and console errors. */
export async function pageWithErrors(browser, viewport) {
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
  return { page, errors };
}

/** Takes a full-page screenshot of `page` into test-results/`file` and checks it is not blank (more
 * than `minColours` distinct colours sampled). */
export async function screenshotChecked(page, check, file, minColours) {
  const shot = await page.screenshot({ fullPage: true });
  mkdirSync(results, { recursive: true });
  writeFileSync(`${results}${file}`, shot);
  const { width, height, colours } = distinctColours(shot);
  check("screenshot is not blank", colours > minColours, `${width}x${height}, ${colours} colours sampled (test-results/${file})`);
}
