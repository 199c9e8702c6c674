// `npm start`: installs only what the demo needs (scripts/setup.sh --demo: no Chromium, no fuzzer),
// builds what is missing (`build.mjs --demo`: with stable, quicker than the size build), then serves
// the demo (www/) together with the project's own Tasks test server (the page's default MCP endpoint,
// same origin) and prints the URL.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startHttpServer } from "../tests/server/http.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
for (const [cmd, args] of [["bash", ["scripts/setup.sh", "--demo"]], ["node", ["scripts/build.mjs", "--demo"]]]) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const wanted = Number(process.env.PORT ?? 8787);
let server;
try {
  server = await startHttpServer({ staticDir: root, port: wanted, pollIntervalMs: 250 });
} catch {
  server = await startHttpServer({ staticDir: root, port: 0, pollIntervalMs: 250 });
}
console.log(`\nmcp-tasks-wasm demo: ${server.origin}/www/   (MCP test server: ${server.url}; Ctrl+C to stop)`);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, async () => { await server.close(); process.exit(0); });
