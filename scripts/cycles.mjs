// `npm test`'s "module cycles" step: no two modules of src/ depend on each other, directly or round a
// longer loop. A module is a file (src/a/b.rs, or src/a/b/mod.rs for a
// folder's own items); it depends on every module its `super::…`, `crate::…` and `self::…` paths name
// (`use` lines and paths in code alike), resolved to the longest path that is a module. A folder's
// mod.rs declaring and re-exporting its children is not a dependency on them. Prints each cycle found;
// exits 1 if there is one.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const src = fileURLToPath(new URL("../src", import.meta.url));

/** Every .rs file under `dir`, as [module path (e.g. ["shell", "run"]), file]. */
function modules(dir, path = []) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) out.push(...modules(file, [...path, name]));
    else if (name.endsWith(".rs")) {
      const stem = name.slice(0, -3);
      out.push([["lib", "mod"].includes(stem) ? path : [...path, stem], file]);
    }
  }
  return out;
}

const all = modules(src);
const known = new Map(all.map(([p, f]) => [p.join("::"), f]));
/** The longest prefix of `segments` that is a module. */
const resolve = (segments) => {
  for (let n = segments.length; n > 0; n--) if (known.has(segments.slice(0, n).join("::"))) return segments.slice(0, n).join("::");
  return null;
};

const edges = new Map();
for (const [path, file] of all) {
  const me = path.join("::");
  const isFolder = file.endsWith("mod.rs") || file.endsWith("lib.rs");
  const deps = new Set();
  const code = readFileSync(file, "utf8").replace(/\/\/.*$/gm, "");
  for (const m of code.matchAll(/\b(crate|super|self)((?:::[a-z_][a-z0-9_]*)+)/g)) {
    const rest = m[2].slice(2).split("::");
    const parent = isFolder ? path : path.slice(0, -1);
    const base = m[1] === "crate" ? [] : m[1] === "self" ? (isFolder ? path : path) : isFolder ? path.slice(0, -1) : parent;
    const target = resolve([...base, ...rest]);
    // A folder's own children (declared and re-exported by its mod.rs) are not its dependencies.
    if (!target || target === me || (isFolder && target.startsWith(me ? `${me}::` : ""))) continue;
    deps.add(target);
  }
  edges.set(me, deps);
}

// Tarjan's strongly connected components: a component of more than one module is a cycle.
let index = 0;
const idx = new Map();
const low = new Map();
const stack = [];
const on = new Set();
const cycles = [];
function visit(v) {
  idx.set(v, index);
  low.set(v, index++);
  stack.push(v);
  on.add(v);
  for (const w of edges.get(v) ?? []) {
    if (!idx.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const part = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      part.push(w);
    } while (w !== v);
    if (part.length > 1) cycles.push(part);
  }
}
for (const v of edges.keys()) if (!idx.has(v)) visit(v);

for (const c of cycles) {
  const members = new Set(c);
  console.log(`FAIL module cycle: ${c.sort().join(" , ")}`);
  for (const m of c.sort()) console.log(`  ${relative(src, known.get(m))} → ${[...edges.get(m)].filter((d) => members.has(d)).join(", ")}`);
}
console.log(cycles.length ? `${cycles.length} module cycle(s)` : `no module cycles (${all.length} modules)`);

// Folders: a folder (src/shell, src/shell/interop, …) depends on another when one of its modules, at any
// depth, depends on a module of the other; a folder and the folders inside it are one room and its
// parts, never dependencies. No folder may depend on one that depends on it back: the floors (engine
// under shell, shell under the two faces) only ever point down.
const folders = [...new Set(all.filter(([, f]) => f.endsWith("mod.rs")).map(([p]) => p.join("::")))];
const inside = (m, folder) => m === folder || m.startsWith(`${folder}::`);
const nested = (a, b) => inside(a, b) || inside(b, a);
/** Which modules of `from` depend on modules of `to`, as "module → dependency" lines. */
const arrows = (from, to) =>
  [...edges].flatMap(([m, deps]) => (inside(m, from) ? [...deps].filter((d) => inside(d, to)).map((d) => `${m} → ${d}`) : []));
let folderCycles = 0;
for (const [i, a] of folders.entries()) {
  for (const b of folders.slice(i + 1)) {
    if (nested(a, b)) continue;
    const [there, back] = [arrows(a, b), arrows(b, a)];
    if (there.length === 0 || back.length === 0) continue;
    folderCycles += 1;
    console.log(`FAIL folder cycle: src/${a.replaceAll("::", "/")} ⇄ src/${b.replaceAll("::", "/")}`);
    for (const line of [...there, ...back]) console.log(`  ${line}`);
  }
}
console.log(folderCycles ? `${folderCycles} folder cycle(s)` : `no folder cycles (${folders.length} folders)`);

// The faces: src/api (Rust) and src/bind (JS) enter the shell through its front door, src/shell/mod.rs,
// and only there — they name `crate::shell::<item>` for what it re-exports, never a module inside the
// shell (its private helpers), nor the engine or the protocol layer, whose decisions are the shell's to
// take. A slip is a path like `crate::shell::run::…` or `crate::engine::…` in a face's file.
const faces = ["api", "bind"];
let slips = 0;
for (const [path, file] of all) {
  if (!faces.includes(path[0])) continue;
  const code = readFileSync(file, "utf8").replace(/\/\/.*$/gm, "");
  const named = [];
  for (const m of code.matchAll(/\bcrate::shell::\{([^}]*)\}/g)) named.push(...m[1].split(",").map((s) => s.trim()).filter(Boolean));
  for (const m of code.matchAll(/\bcrate::shell::([a-z_][a-z0-9_]*)::/g)) named.push(`${m[1]}::`);
  for (const n of named) {
    const head = n.split("::")[0];
    if (n.includes("::") && known.has(`shell::${head}`)) {
      slips += 1;
      console.log(`FAIL ${relative(src, file)} reaches into the shell: crate::shell::${n}… (use what src/shell/mod.rs re-exports)`);
    }
  }
  for (const m of code.matchAll(/\bcrate::(engine|proto)\b/g)) {
    slips += 1;
    console.log(`FAIL ${relative(src, file)} names crate::${m[1]} (a face goes through the shell's front door)`);
  }
}
console.log(slips ? `${slips} face slip(s)` : "the faces enter the shell through its front door only");
process.exit(cycles.length || folderCycles || slips ? 1 : 0);
