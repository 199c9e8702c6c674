// Launches Debian's Chromium headless through playwright-core, with the flags this closed network needs.
import { chromium } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
  "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost",
];

export const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";

export function launch(options = {}) {
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS, ...options });
}
