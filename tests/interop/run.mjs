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
import { generationScenarios } from "./generations.mjs";
import { sdkStdioSpec, startSdkServer } from "../servers/sdk/launch.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const lib = await import(new URL(`../../${process.env.PKG_DIR ?? "pkg"}/node.js`, import.meta.url).href);
/** The journal entry (its own module), for the journaled 2025-11-25 scenarios. */
const journalLib = await import(new URL(`../../${process.env.PKG_DIR ?? "pkg"}/journal/node.js`, import.meta.url).href);

let failed = 0;
let servers = [];
/** The MCP 2025-11-25 servers (@modelcontextprotocol/sdk 1.32.2): with tasks, and Tasks-unaware. */
let older = [];
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

  // MCP 2025-11-25: the same API, no option naming the generation.
  older = [
    { name: "sdk 2025-11-25", ...(await startSdkServer({ pollMs: 100 })) },
    { name: "sdk 2025-11-25 tasks-unaware", unaware: true, ...(await startSdkServer({ pollMs: 100, tasksUnaware: true })) },
  ];
  for (const s of older) {
    console.log(`${s.name} ready at ${s.url} (pid ${s.pid})`);
    failed += await runScenarios(generationScenarios(lib, s, journalLib), (l) => console.log(`node ${l}`));
  }
  for (const unaware of [false, true]) {
    const spec = sdkStdioSpec({ pollMs: 100, tasksUnaware: unaware });
    let shared;
    const server = {
      name: `sdk 2025-11-25${unaware ? " tasks-unaware" : ""} stdio`,
      unaware,
      client: (options) => (shared ??= stdioClient(spec.command, spec.args, { ...options, cwd: spec.cwd, env: spec.env })),
      spawn: (options) => stdioClient(spec.command, spec.args, { ...options, cwd: spec.cwd, env: spec.env }),
    };
    try {
      failed += await runScenarios(generationScenarios(lib, server), (l) => console.log(`node ${l}`));
    } finally {
      await shared?.close();
    }
  }

  site = await startHttpServer({ staticDir: root });
  browser = await launch();
  const page = await browser.newPage();
  page.on("pageerror", (e) => console.log(`pageerror: ${e.message}`));
  const list = encodeURIComponent(JSON.stringify(servers.map(({ name, url }) => ({ name, url }))));
  const core = encodeURIComponent(JSON.stringify(older.map(({ name, url, unaware }) => ({ name, url, unaware }))));
  await page.goto(`${site.origin}/tests/interop/page.html?servers=${list}&older=${core}`);
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
  await Promise.all([...servers, ...older].map((s) => s.stop()));
  stopAll();
}
console.log(failed ? `interop: ${failed} failure(s)` : "interop: all passed");
process.exit(failed ? 1 : 0);
