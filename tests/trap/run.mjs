// A trap never hangs a caller: builds the test-only module with a trap on demand (build.mjs) and runs
// the trap scenario (scenario.mjs) in a Node process of its own and in a Chromium page of its own.
// Prints one line per environment with the time the three calls took to reject; exits non-zero on a
// failure.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { buildTrapPkg } from "./build.mjs";
import { startHttpServer } from "../server/http.mjs";
import { launch } from "../browser/chromium.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pkg = buildTrapPkg();
let failed = 0;
const report = (where, r) => {
  if (!r.ok) failed += 1;
  console.log(`${r.ok ? "ok  " : "FAIL"} trap in ${where}: trap at ${r.trapAfterMs} ms, deadline ${r.deadlineMs} ms, ` +
    `all three rejected at ${r.rejectedAfterMs} ms — ${r.detail}`);
};

const node = spawnSync(process.execPath, [fileURLToPath(new URL("node-case.mjs", import.meta.url)), pkg], { encoding: "utf8" });
try {
  report("Node", JSON.parse(node.stdout.trim().split("\n").pop()));
} catch {
  report("Node", { ok: false, detail: `no result (exit ${node.status}): ${node.stdout}${node.stderr}` });
}

const site = await startHttpServer({ staticDir: root });
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(`${site.origin}/tests/trap/page.html`);
  await page.waitForFunction(() => window.__trap, null, { timeout: 30_000 });
  report("Chromium", await page.evaluate(() => window.__trap));
} catch (e) {
  report("Chromium", { ok: false, detail: String(e) });
} finally {
  await browser.close();
  await site.close();
}
process.exit(failed ? 1 : 0);
