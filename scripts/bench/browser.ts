// Shared by the benchmarks that drive Chromium: a browser started for a quiet run, whose pages
// reach this machine only, so nothing but the app under test takes its time.
import { chromium, type Browser, type BrowserContext } from "@playwright/test";

/** Chromium's switches that stop its own background work: updates, sync, extensions, sound, first-run pages. */
export const QUIET_CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--mute-audio",
];

/** Debian's Chromium (CHROMIUM_PATH moves it), started with QUIET_CHROMIUM_ARGS. */
export function launchQuietChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: QUIET_CHROMIUM_ARGS,
  });
}

/** True for a URL on this machine (localhost, 127.0.0.0/8, ::1) or one that needs no network (data:, blob:, about:). */
export function isLoopbackUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (["data:", "blob:", "about:"].includes(parsed.protocol)) return true;
  const host = parsed.hostname;
  return host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "[::1]";
}

/** Aborts every request of `context` that would leave this machine, and counts them. */
export async function allowLoopbackOnly(context: BrowserContext): Promise<{ blocked: string[] }> {
  const blocked: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (isLoopbackUrl(url)) return route.continue();
    blocked.push(url);
    return route.abort("blockedbyclient");
  });
  return { blocked };
}
