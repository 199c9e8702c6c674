// `npm test`'s "doc links" step: what the docs point to exists. In README.md, CHANGELOG.md,
// CONTRIBUTING.md, docs/*.md and src/crate-doc.md it checks
// - every relative link `[text](path#anchor)`: the file or folder exists, and the anchor is a heading of
//   the target (GitHub's slugs) — moving a section breaks its links, which is what this catches;
// - every repository path named in backticks (`tests/hostile/cases.mjs`, `src/…/`, `tests/engine_*.rs`),
//   and the paths named in `sh` and `text` blocks: it exists. A `pkg/…` path (built, not committed) must
//   be a file the package ships (package.json "files"); a `target/…` path is not checked;
// - every test named as `path` › `name`, `name` … (names inside parentheses are prose, not names): each
//   name occurs in that file, so a renamed test or case shows here instead of leaving a documented
//   guarantee without the test that holds it.
// Prints each problem as file:line; exits 1 if there is one.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const docsDir = join(root, "docs");
const files = [
  "README.md",
  "CHANGELOG.md",
  "CONTRIBUTING.md",
  ...(existsSync(docsDir) ? readdirSync(docsDir).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`) : []),
  "src/crate-doc.md",
];
/** A word is taken for a repository path when it starts with a top-level folder or is a top-level file. */
const folders = /^(\.ci|bench|docs|examples|js|pkg|scripts|src|target|tests|www)\//;
const topFiles = new Set(["README.md", "CHANGELOG.md", "CONTRIBUTING.md", "LICENSE", "Cargo.toml", "Cargo.lock", "package.json", "package-lock.json", "rustfmt.toml"]);
const shipped = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).files;

/** GitHub's anchor for a heading: markup and punctuation dropped, lower case, spaces to hyphens. */
function slug(heading) {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/**
 * A markdown file as the checks read it: prose segments (a paragraph, a list item, a heading or a table
 * row, its lines joined, with its first line's number) and the lines of fenced blocks with their language.
 */
function parse(text) {
  const prose = [];
  const fenced = [];
  let fence = null;
  let open = null;
  const close = () => {
    if (open) prose.push(open);
    open = null;
  };
  text.split("\n").forEach((line, i) => {
    const n = i + 1;
    const marker = /^\s*```(\S*)/.exec(line);
    if (marker) {
      close();
      fence = fence === null ? marker[1] : null;
      return;
    }
    if (fence !== null) return fenced.push({ n, line, lang: fence });
    if (line.trim() === "") return close();
    const starts = /^\s*([-*]|\d+\.)\s/.test(line) || /^\s*(#|\|)/.test(line) || (open && /^\s*(#|\|)/.test(open.lines[0]));
    if (starts) close();
    if (!open) open = { n, lines: [] };
    open.lines.push(line);
  });
  close();
  return { prose: prose.map((p) => ({ n: p.n, lines: p.lines, text: p.lines.join(" ") })), fenced };
}

const anchorsMemo = new Map();
/** The anchors a markdown file's headings make (a repeated heading numbered as GitHub numbers it). */
function anchors(path) {
  if (!anchorsMemo.has(path)) {
    const seen = new Map();
    const set = new Set();
    for (const { text } of parse(readFileSync(path, "utf8")).prose) {
      const h = /^#{1,6}\s+(.*)$/.exec(text);
      if (!h) continue;
      const base = slug(h[1]);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      set.add(count ? `${base}-${count}` : base);
    }
    anchorsMemo.set(path, set);
  }
  return anchorsMemo.get(path);
}

/** Whether a repository path exists (a folder may end with `/`; a `*` in its last part is a wildcard). */
function exists(path) {
  const clean = path.replace(/\/$/, "");
  if (!clean.includes("*")) return existsSync(join(root, clean));
  const dir = dirname(clean);
  const glob = clean.slice(dir.length + 1).split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`^${glob.join(".*")}$`);
  return existsSync(join(root, dir)) && readdirSync(join(root, dir)).some((f) => pattern.test(f));
}

/** What is wrong with a named repository path, or null. */
function pathProblem(path) {
  if (path.startsWith("target/")) return null;
  if (path.startsWith("pkg/")) {
    // A shipped file, a file in a shipped folder, or a folder holding shipped files.
    const ok = shipped.some((f) => f === path || (f.endsWith("/") && path.startsWith(f)) || (path.endsWith("/") && f.startsWith(path)));
    return ok ? null : `${path} is not a file the package ships (package.json "files")`;
  }
  return exists(path) ? null : `${path} does not exist`;
}

/** The words of a text that name repository paths (trailing punctuation dropped; placeholders skipped). */
function pathsIn(text) {
  return text
    .split(/[\s"'()=,;]+/)
    .map((w) => w.replace(/[.:,;)]+$/, ""))
    .filter((w) => (folders.test(w) || topFiles.has(w)) && !/[<>…{}]/.test(w));
}

/** The code spans of a text, and the text with each span replaced by `\u0000<index>\u0000`. */
function spans(text) {
  const found = [];
  const masked = text.replace(/(`+)(.+?)\1/g, (_, _ticks, body) => `\u0000${found.push(body.trim()) - 1}\u0000`);
  return { found, masked };
}

/** The names a `path` › … list gives: the code spans after the ›, up to the next `path` ›, outside parentheses. */
function namedTests(text) {
  const { found, masked } = spans(text);
  const out = [];
  const re = /\u0000(\d+)\u0000\s*›/g;
  const marks = [...masked.matchAll(re)];
  marks.forEach((m, i) => {
    const file = found[Number(m[1])];
    if (!pathsIn(file).includes(file)) return;
    let rest = masked.slice(m.index + m[0].length, marks[i + 1]?.index ?? masked.length);
    for (let before = ""; before !== rest; ) [before, rest] = [rest, rest.replace(/\([^()]*\)/g, "")];
    const names = [...rest.matchAll(/\u0000(\d+)\u0000/g)].map((x) => found[Number(x[1])]);
    out.push({ file, names });
  });
  return out;
}

const problems = [];
const counts = { links: 0, paths: 0, tests: 0 };
for (const file of files) {
  const path = join(root, file);
  if (!existsSync(path)) {
    problems.push(`${file}: missing`);
    continue;
  }
  const { prose, fenced } = parse(readFileSync(path, "utf8"));
  for (const { n, line, lang } of fenced) {
    // Commands and the layout name paths as plain words; code blocks (js, ts, rust, toml) are run or compiled.
    if (!["sh", "text"].includes(lang)) continue;
    for (const p of pathsIn(line.replace(/#.*$/, ""))) {
      counts.paths++;
      const problem = pathProblem(p);
      if (problem) problems.push(`${file}:${n}: ${problem}`);
    }
  }
  for (const segment of prose) {
    const report = (needle, message) => {
      const k = segment.lines.findIndex((l) => l.includes(needle));
      problems.push(`${file}:${segment.n + Math.max(k, 0)}: ${message}`);
    };
    // Relative links (not URLs, not mail): the file, and the anchor in it.
    for (const [, target] of segment.text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      counts.links++;
      const [where, anchor] = target.split("#");
      const to = where === "" ? path : join(dirname(path), where);
      if (!existsSync(to)) {
        report(target, `link to ${target}: ${relative(root, to)} does not exist`);
      } else if (anchor !== undefined && (statSync(to).isDirectory() || !to.endsWith(".md") || !anchors(to).has(anchor))) {
        report(target, `link to ${target}: no heading in ${relative(root, to)} has the anchor #${anchor}`);
      }
    }
    // Paths in code spans.
    for (const span of spans(segment.text).found) {
      for (const p of pathsIn(span)) {
        counts.paths++;
        const problem = pathProblem(p);
        if (problem) report(p, problem);
      }
    }
    // Tests named as `path` › `name`, …
    for (const { file: testFile, names } of namedTests(segment.text)) {
      const at = join(root, testFile);
      if (!existsSync(at) || statSync(at).isDirectory()) continue; // reported as a path above
      const text = readFileSync(at, "utf8");
      for (const name of names) {
        counts.tests++;
        // A name that is one identifier (a Rust test's function) must occur as a whole word.
        const found = /^\w+$/.test(name) ? new RegExp(`\\b${name}\\b`).test(text) : text.includes(name);
        if (!found) report(name, `${testFile} has no test or case "${name}"`);
      }
    }
  }
}

for (const p of problems) console.log(p);
console.log(problems.length
  ? `doc links: ${problems.length} problem(s) in ${files.length} files`
  : `doc links: ${files.length} files; ${counts.links} relative links, ${counts.paths} named paths and ${counts.tests} named tests, all found`);
process.exit(problems.length ? 1 : 0);
