// Every code block in the README is executed: the JS blocks run against the package (imported by its
// name, as users import it) with the project's test server standing in for http://127.0.0.1:8787/mcp,
// and their `// expected` comments must appear in the output; the TS block is type-checked strictly;
// the shell block's commands run (`npm start` for real; `npm test` restricted to its type-check step,
// since this test itself runs inside `npm test`). ```text blocks are prose (the layout), not code; ```toml
// and ```rust,no_run blocks are the Rust API's (compiled by `cargo test --doc`, scripts/docs.mjs).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { startHttpServer } from "../server/http.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const scratch = `${root}tests/.readme/`;
const readme = readFileSync(`${root}README.md`, "utf8");
const blocks = [...readme.matchAll(/```([\w,]+)\n([\s\S]*?)```/g)].map((m, i) => ({ lang: m[1], code: m[2], n: i + 1 }));
const run = promisify(execFile);
let server;

before(async () => {
  server = await startHttpServer({ pollIntervalMs: 20 });
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
});
after(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

test("the README has code blocks of known kinds only", () => {
  assert.ok(blocks.length >= 7);
  // rust blocks are compiled for wasm32 as doc examples (src/lib.rs includes the README; scripts/docs.mjs).
  for (const b of blocks) assert.ok(["js", "ts", "sh", "text", "toml", "rust,no_run"].includes(b.lang), `block ${b.n}: ${b.lang}`);
});

for (const b of blocks.filter((b) => b.lang === "js")) {
  test(`README block ${b.n} (js) runs`, async () => {
    const file = `${scratch}block-${b.n}.mjs`;
    writeFileSync(file, b.code.replaceAll("http://127.0.0.1:8787/mcp", server.url));
    const { stdout, stderr } = await run("node", [file], { cwd: root, timeout: 30_000 });
    assert.equal(stderr, "");
    for (const [, expected] of b.code.matchAll(/console\.log\(.*\);\s*\/\/ (.+)$/gm)) {
      assert.ok(stdout.includes(expected.trim()), `block ${b.n}: expected "${expected}" in:\n${stdout}`);
    }
  });
}

// The flags a strict app uses (issue 30): every example must compile under them, the JS ones too
// (checked as JS, against the package's declarations).
const strict = ["--noEmit", "--strict", "--noUncheckedIndexedAccess", "--exactOptionalPropertyTypes", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--lib", "es2022,dom", "--types", "node", "--allowJs", "--checkJs"];
const tsc = (file) => run("node", [`${root}node_modules/typescript/bin/tsc`, ...strict, file], { cwd: root }).catch((e) => {
  throw new Error(`${file}:\n${e.stdout}`);
});

for (const b of blocks.filter((b) => b.lang === "ts")) {
  test(`README block ${b.n} (ts) type-checks under strict flags`, async () => {
    writeFileSync(`${scratch}block-${b.n}.ts`, `${b.code}\nexport type { TasksClient };\n`);
    await tsc(`${scratch}block-${b.n}.ts`);
  });
}

for (const b of blocks.filter((b) => b.lang === "js")) {
  test(`README block ${b.n} (js) type-checks under strict flags (checkJs)`, async () => {
    writeFileSync(`${scratch}check-${b.n}.mjs`, `// @ts-check\n${b.code}`);
    await tsc(`${scratch}check-${b.n}.mjs`);
  });
}

test("README shell block: its commands run", async () => {
  const sh = blocks.filter((b) => b.lang === "sh").map((b) => b.code).join("\n");
  const commands = sh.split("\n").map((l) => l.replace(/#.*$/, "").trim()).filter(Boolean);
  assert.deepEqual(commands, ["npm start", "npm test"]);

  // npm start: serves the demo and prints its URL.
  const child = spawn("npm", ["start"], { cwd: root, env: { ...process.env, PORT: "0" }, detached: true, stdio: ["ignore", "pipe", "inherit"] });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = "";
      const t = setTimeout(() => reject(new Error(`no URL printed:\n${out}`)), 120_000);
      child.stdout.on("data", (d) => {
        out += d;
        const m = /demo: (http:\/\/\S+)/.exec(out);
        if (m) { clearTimeout(t); resolve(m[1]); }
      });
    });
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /mcp-tasks-wasm/);
  } finally {
    process.kill(-child.pid, "SIGTERM");
  }

  // npm test, restricted to one step (the full run is the one executing this test).
  await run("npm", ["test", "--", "types"], { cwd: root, timeout: 300_000 });
});
