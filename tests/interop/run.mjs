// Interop: builds (cached) and starts rmcp 3.11.0 and fastmcp-tasks 4.1.4, runs the scenario matrix
// through httpClient in Node, then over stdio (stdioClient, one spawned server each) in Node, then in
// headless Chromium from a page on another localhost port (so CORS is real), and stops the servers by
// PID whatever happens.
import { fileURLToPath } from "node:url";
import { prepare, startServers, stopAll } from "./servers.mjs";
import { interopScenarios, runScenarios } from "./matrix.mjs";
import { startHttpServer } from "../server/http.mjs";
import { launch } from "../browser/chromium.mjs";
import { stdioServers } from "./stdio-servers.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const lib = await import(new URL(`../../${process.env.PKG_DIR ?? "pkg"}/node.js`, import.meta.url).href);

let failed = 0;
let servers = [];
let site;
let browser;
try {
  prepare();
  servers = await startServers();
  for (const s of servers) console.log(`${s.name} ready at ${s.url} (pid ${s.pid})`);

  for (const s of servers) failed += await runScenarios(interopScenarios(lib, s), (l) => console.log(`node ${l}`));

  // The same matrix over stdio (Node): one stdioClient per server, spawned from its launcher.
  const { stdioClient } = await import(new URL(`../../${process.env.PKG_DIR ?? "pkg"}/stdio.js`, import.meta.url).href);
  for (const spec of stdioServers({ prepare: false })) {
    let shared;
    const server = {
      name: `${spec.name} stdio`,
      client: (options) =>
        (shared ??= stdioClient(spec.command, spec.args, { ...options, cwd: spec.cwd, env: { ...process.env, ...spec.env } })),
    };
    try {
      failed += await runScenarios(interopScenarios(lib, server), (l) => console.log(`node ${l}`));
    } finally {
      await shared?.close();
    }
  }

  site = await startHttpServer({ staticDir: root });
  browser = await launch();
  const page = await browser.newPage();
  page.on("pageerror", (e) => console.log(`pageerror: ${e.message}`));
  const list = encodeURIComponent(JSON.stringify(servers.map(({ name, url }) => ({ name, url }))));
  await page.goto(`${site.origin}/tests/interop/page.html?servers=${list}`);
  await page.waitForFunction(() => window.__interop, null, { timeout: 120_000 });
  const result = await page.evaluate(() => window.__interop);
  for (const l of result.lines) console.log(`chromium ${l}`);
  failed += result.failed;
} catch (e) {
  failed += 1;
  console.log(`FAIL interop setup: ${e?.stack ?? e}`);
} finally {
  await browser?.close();
  await site?.close();
  await Promise.all(servers.map((s) => s.stop()));
  stopAll();
}
console.log(failed ? `interop: ${failed} failure(s)` : "interop: all passed");
process.exit(failed ? 1 : 0);
