// The size pass every shipped module gets (scripts/build.mjs) and the breakdown repeats with names kept
// (scripts/size.mjs --breakdown): one list, so the breakdown measures what ships.
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** npm binaryen's wasm-opt, never one from PATH (Debian's v108 silently breaks wasm-bindgen output). */
export const wasmOpt = join(root, "node_modules/.bin/wasm-opt");

/** The size pass's arguments (before the input and `-o output`). `--converge` repeats -Oz until it
 * gains nothing more (−0.2 KB gzip, a few seconds). `--low-memory-unused` lets it fold `load(p + c)`
 * into `load offset=c (p)` for small constants (−0.35 KB gzip): the two differ only when `p + c` wraps
 * past 4 GiB into the first KiB, which no address this module computes does (Rust's objects never
 * straddle the end of the address space, and its stack-first layout puts data and heap at 1 MiB and
 * above). Without `merge-similar-functions`: its thunks cost more than the bodies they merge here
 * (−0.1 KB gzip). `--one-caller-inline-max-function-size=20`: a function with one caller is inlined
 * into it only when tiny (the default inlines one-caller functions of any size here) — the module is
 * larger raw but compresses better, its bodies less unique (−1.4 KB gzip for the core module, −2.2 KB
 * for the journal's; measured over 0–2000: 20 is the least, 0 and 100 both give back 0.5–0.7 KB). */
export const wasmOptArgs = [
  "-Oz", "--converge", "--low-memory-unused", "--skip-pass=merge-similar-functions", "--one-caller-inline-max-function-size=20",
  "--enable-reference-types", "--enable-bulk-memory", "--enable-multivalue", "--enable-sign-ext",
  "--enable-nontrapping-float-to-int", "--enable-mutable-globals",
];
