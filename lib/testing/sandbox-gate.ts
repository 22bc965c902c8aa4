// When a test that needs the local sandbox may be skipped. On a developer's machine a missing
// bubblewrap or toolchain skips the test with its reason in the name; in CI (`CI` set), where
// `npm run sandbox:install` has run, the same gap means a broken setup, so the run fails instead of
// passing with the sandbox tests silently left out.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

import type { Language } from "@/lib/records/languages";

/** The bubblewrap the sandbox would use (VERITY_BWRAP, else `bwrap` on PATH), or null when there is none. */
export function findBubblewrap(): string | null {
  const candidates = process.env.VERITY_BWRAP
    ? [process.env.VERITY_BWRAP]
    : (process.env.PATH ?? "").split(delimiter).map((folder) => join(folder, "bwrap"));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; try the next folder
    }
  }
  return null;
}

/**
 * Languages sandbox:install has no toolchain for (no Debian 12 package, nothing on Maven Central or
 * the other registries it uses): they stay on the acb backend, CI included. Kotlin and Scala are
 * installed from Maven Central.
 */
export const NO_LOCAL_TOOLCHAIN: ReadonlySet<Language> = new Set(["csharp", "dart", "julia", "swift"]);

/** Whether this run is CI's (`CI` set to anything but "false", as CI services do). */
function isCi(): boolean {
  return Boolean(process.env.CI) && process.env.CI !== "false";
}

/**
 * True when the test should be skipped because of `whyNot` (null or "" when the sandbox can run it).
 * Throws in CI, unless the gap is the missing toolchain of a language with no Debian package
 * (pass that language as `missingToolchain`).
 */
export function skipWithoutSandbox(whyNot: string | null, missingToolchain?: Language): boolean {
  if (!whyNot) return false;
  if (isCi() && !(missingToolchain && NO_LOCAL_TOOLCHAIN.has(missingToolchain))) {
    throw new Error(
      `CI=true but the local sandbox cannot run this test: ${whyNot}. Run \`npm run sandbox:install\` as root first.`,
    );
  }
  return true;
}
