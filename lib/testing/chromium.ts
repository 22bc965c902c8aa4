// The browser the test tiers drive. Debian's `chromium-headless-shell` is the same Blink without
// the full browser's compositor, GPU process and services: on this machine's two cores the e2e
// specs finish in about two thirds of the time in it (docs/benchmarks.md, "Issue 37: where the CPU
// goes"). The full `chromium` still works when only it is installed; CHROMIUM_PATH picks another.
import { existsSync } from "node:fs";

const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const FULL_BROWSER = "/usr/bin/chromium";

/** CHROMIUM_PATH, else Debian's headless shell when installed, else Debian's full Chromium. */
export function testChromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_BROWSER);
}
