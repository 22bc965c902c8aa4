import "server-only";

import { LANGUAGES } from "@/lib/records/languages";
import {
  forgetSandboxProbes,
  readSandboxProbes,
  storeSandboxProbes,
  type StoredProbe,
} from "@/lib/server/sandbox/probe-store";

import { getSandboxRouter, type SandboxRouter } from "./index";
import type { BackendName, LanguageAvailability, SandboxLanguage } from "./types";

// The probe spawns nothing but stats a few dozen files; still, the UI asks on every page, so its
// answer is kept in PostgreSQL, where every app instance reads the same one. When a language cannot
// run, ask again soon: the operator is probably fixing it.
const AVAILABLE_FOR_MS = 3 * 60_000;
const UNAVAILABLE_FOR_MS = 10_000;

export type Availability = Record<SandboxLanguage, LanguageAvailability>;

const globalForProbe = globalThis as unknown as { verityProbe?: Promise<Availability> };

/**
 * Whether the stored probes still answer (pure): every language probed on the route it has now,
 * recently enough — briefly when one of them cannot run.
 */
function isFresh(probes: readonly StoredProbe[], routeOf: (language: SandboxLanguage) => BackendName): boolean {
  if (probes.length < LANGUAGES.length) return false;
  const byLanguage = new Map(probes.map((probe) => [probe.language, probe]));
  const maxAgeMs = probes.every((probe) => probe.available) ? AVAILABLE_FOR_MS : UNAVAILABLE_FOR_MS;
  return LANGUAGES.every((language) => {
    const probe = byLanguage.get(language);
    return probe !== undefined && probe.backend === routeOf(language) && probe.ageMs < maxAgeMs;
  });
}

function asAvailability(probes: readonly StoredProbe[]): Availability {
  return Object.fromEntries(
    probes.map(({ language, backend, available, reason }) => [
      language,
      { backend, available, ...(reason ? { reason } : {}) },
    ]),
  ) as Availability;
}

/** Tells the operator (server log) when a language stops or starts being able to run. */
function reportChanges(before: readonly StoredProbe[], now: Availability): void {
  const previous = new Map(before.map((probe) => [probe.language, probe.available]));
  for (const [language, status] of Object.entries(now) as [SandboxLanguage, LanguageAvailability][]) {
    const was = previous.get(language);
    if (was === status.available) continue;
    if (!status.available) console.error(`sandbox: ${language} cannot run: ${status.reason ?? "unavailable"}`);
    else if (was === false) console.error(`sandbox: ${language} can run again`);
  }
}

/** Probes on this instance and stores the answer for all; simultaneous callers here share one probe. */
function probeAndStore(router: SandboxRouter, before: readonly StoredProbe[]): Promise<Availability> {
  globalForProbe.verityProbe ??= (async () => {
    try {
      const languages = await router.availability();
      reportChanges(before, languages);
      await storeSandboxProbes(languages);
      return languages;
    } finally {
      globalForProbe.verityProbe = undefined;
    }
  })();
  return globalForProbe.verityProbe;
}

/**
 * Per language: can it run, on which backend, and if not, why (the operator's detail: callers show
 * it to admins only). The last probe of any app instance answers while fresh; otherwise this
 * instance probes and stores its answer.
 */
export async function languageAvailability(router: SandboxRouter = getSandboxRouter()): Promise<Availability> {
  const stored = await readSandboxProbes();
  if (isFresh(stored, (language) => router.backendFor(language))) return asAvailability(stored);
  return probeAndStore(router, stored);
}

/** When the answer now stored was probed (its oldest language), or null when none is. */
export async function lastProbeAt(): Promise<Date | null> {
  const stored = await readSandboxProbes();
  return stored.length === 0 ? null : new Date(Math.min(...stored.map((probe) => probe.probedAt.getTime())));
}

/** "Check again": forgets the stored answer and this instance's cached probes, and probes afresh. */
export async function probeAgain(router: SandboxRouter = getSandboxRouter()): Promise<Availability> {
  const before = await readSandboxProbes();
  await forgetSandboxProbes();
  router.forget();
  return probeAndStore(router, before);
}
