// The async Rust shell's own tests (tests/wasm_driver.rs) and the Rust API's clients and journal
// (tests/rust_clients.rs), wasm-bindgen-test, in Node and in headless Chromium: the same test binaries
// twice, through wasm-bindgen-test-runner (installed with the pinned wasm-bindgen CLI by
// scripts/setup.sh), the browser through Debian's chromedriver.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const base = { ...process.env, CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER: "wasm-bindgen-test-runner" };
const modes = [
  ["node", {}],
  ["chromium", {
    WASM_BINDGEN_USE_BROWSER: "1",
    CHROMEDRIVER: "/usr/bin/chromedriver",
    WASM_BINDGEN_TEST_WEBDRIVER_JSON: fileURLToPath(new URL("webdriver.json", import.meta.url)),
  }],
];
let failed = 0;
for (const [name, env] of modes) {
  console.log(`--- wasm_driver, rust_clients in ${name}`);
  const r = spawnSync("cargo", ["test", "--target", "wasm32-unknown-unknown", "--test", "wasm_driver", "--test", "rust_clients"],
    { cwd: root, stdio: "inherit", env: { ...base, ...env } });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
