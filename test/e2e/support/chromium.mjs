// One way to start the headless Chromium that the inspector's browser test (test/e2e/inspect.test.ts) and
// bench/inspect-catalog.mjs drive: Debian's /usr/bin/chromium (installed by .ci/run) through playwright-core.
// Plain JavaScript so the bench, run by node without a build step, can import it too.
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";

/** Where Debian installs Chromium. */
export const CHROMIUM = "/usr/bin/chromium";

/** Whether Chromium is installed here. */
export const hasChromium = existsSync(CHROMIUM);

/** Launches headless Chromium with no sandbox, GPU, QUIC or background traffic (quiet and repeatable). */
export function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
