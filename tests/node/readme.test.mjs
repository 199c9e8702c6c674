// Every code block of the README and of the guides in docs/ is executed or checked: the JS blocks run
// against the package (imported by its name, as users import it) with the project's test server
// standing in for http://127.0.0.1:8787/mcp, and the comment after a `console.log(…);` must appear in
// the output; every JS and TS block is type-checked under the flags a strict app uses; the shell
// blocks' commands run (`npm start` for real; `npm test` restricted to its type-check step, since this
// test itself runs inside `npm test`; `npm install mcp-tasks-wasm` checked against package.json, as it
// would fetch from the registry). ```text blocks are prose (a layout), not code. Rust code lives in
// src/crate-doc.md and the doc comments, compiled by scripts/docs.mjs with the README's ```rust,no_run
// and ```toml blocks (src/lib.rs includes the README as a doctest); docs/ may hold none, as nothing
// would compile them there.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { startHttpServer } from "../server/http.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const scratch = `${root}tests/.readme/`;
const run = promisify(execFile);

/** The documents whose examples are users' first code: the README and every guide. */
const docs = ["README.md", ...readdirSync(`${root}docs`).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
/** The languages a document may use, by document: Rust and TOML only where rustdoc compiles them. */
const kinds = (doc) => (doc === "README.md" ? ["js", "ts", "sh", "text", "toml", "rust,no_run"] : ["js", "ts", "sh", "text"]);

/**
 * The fenced blocks of a markdown text, line by line so that an untagged block (which the language
 * filters below would skip in silence) is one with `lang: ""`.
 */
function fencedBlocks(doc) {
  const found = [];
  let open = null;
  readFileSync(`${root}${doc}`, "utf8").split("\n").forEach((line, i) => {
    const fence = /^```(.*)$/.exec(line);
    if (!fence) {
      if (open) open.code += `${line}\n`;
    } else if (open) {
      found.push(open);
      open = null;
    } else {
      open = { doc, lang: fence[1].trim(), code: "", line: i + 1, n: found.length + 1 };
    }
  });
  if (open) found.push({ ...open, lang: "unclosed" });
  return found;
}

const blocks = docs.flatMap(fencedBlocks);
/** A block's scratch file name: its document and number (docs/api.md block 2 → docs-api-2). */
const stem = (b) => `${b.doc.replace(/\.md$/, "").replace(/\//g, "-")}-${b.n}`;
const label = (b) => `${b.doc} block ${b.n} (${b.lang}, line ${b.line})`;
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

test("the README and the guides have code blocks of known kinds only", () => {
  assert.ok(docs.length >= 2, `documents found: ${docs.join(", ")}`);
  assert.ok(blocks.filter((b) => b.lang === "js").length >= 8, "fewer JS blocks than the docs hold: is the block reader broken?");
  for (const b of blocks) assert.ok(kinds(b.doc).includes(b.lang), `${label(b)}: not a kind ${b.doc} may hold (${kinds(b.doc).join(", ")})`);
});

for (const b of blocks.filter((b) => b.lang === "js")) {
  test(`${label(b)} runs and prints what its comments say`, async () => {
    const file = `${scratch}${stem(b)}.mjs`;
    writeFileSync(file, b.code.replaceAll("http://127.0.0.1:8787/mcp", server.url));
    const { stdout, stderr } = await run("node", [file], { cwd: root, timeout: 30_000 });
    assert.equal(stderr, "");
    for (const [, expected] of b.code.matchAll(/console\.log\(.*\);\s*\/\/ (.+)$/gm)) {
      assert.ok(stdout.includes(expected.trim()), `${label(b)}: expected "${expected}" in:\n${stdout}`);
    }
  });
}

// The flags a strict app uses: every example must compile under them, the JS ones too (checked as
// JS, against the package's declarations). One tsc run over every block; its output names each
// failing block's scratch file.
const strict = ["--noEmit", "--strict", "--noUncheckedIndexedAccess", "--exactOptionalPropertyTypes", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--lib", "es2022,dom", "--types", "node", "--allowJs", "--checkJs"];

test("every JS and TS block type-checks under strict flags", async () => {
  const checked = [];
  for (const b of blocks.filter((b) => b.lang === "ts" || b.lang === "js")) {
    // `export {}` makes each block a module of its own, as a file of an app is.
    const file = b.lang === "ts" ? `${scratch}check-${stem(b)}.ts` : `${scratch}check-${stem(b)}.mjs`;
    writeFileSync(file, b.lang === "ts" ? `${b.code}\nexport {};\n` : `// @ts-check\n${b.code}`);
    checked.push(file);
  }
  assert.ok(checked.some((f) => f.endsWith(".ts")), "no TS block found");
  await run("node", [`${root}node_modules/typescript/bin/tsc`, ...strict, ...checked], { cwd: root }).catch((e) => {
    throw new Error(`tsc over the doc blocks:\n${e.stdout}${e.stderr}`);
  });
});

test("the shell blocks: their commands run", async () => {
  const commands = blocks
    .filter((b) => b.lang === "sh")
    .flatMap((b) => b.code.split("\n").map((l) => l.replace(/#.*$/, "").trim()).filter(Boolean));
  const known = ["npm install mcp-tasks-wasm", "npm start", "npm test"];
  for (const c of commands) assert.ok(known.includes(c), `a shell command this test cannot check: ${c}`);
  assert.equal(new Set(commands).size, commands.length, `a command shown twice: ${commands.join(", ")}`);

  if (commands.includes("npm install mcp-tasks-wasm")) {
    // Not run (it would fetch from the registry): the name users install is this package's.
    assert.equal(JSON.parse(readFileSync(`${root}package.json`, "utf8")).name, "mcp-tasks-wasm");
  }

  if (commands.includes("npm start")) {
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
  }

  // npm test, restricted to one step (the full run is the one executing this test).
  if (commands.includes("npm test")) await run("npm", ["test", "--", "types"], { cwd: root, timeout: 300_000 });
});
