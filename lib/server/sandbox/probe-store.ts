import "server-only";

import type { LanguageAvailability, SandboxLanguage } from "@/lib/server/sandbox/types";

import { prisma } from "@/lib/server/db/client";

/** A stored probe; `ageMs` by the database's clock, which every instance shares. */
export type StoredProbe = LanguageAvailability & { language: SandboxLanguage; probedAt: Date; ageMs: number };

/**
 * The last availability probe of every language, as any app instance stored it. No permission
 * check: availability without reasons is public (/api/health); callers drop the reasons for others.
 */
export async function readSandboxProbes(): Promise<StoredProbe[]> {
  const rows = await prisma().$queryRaw<
    { language: string; backend: string; available: boolean; reason: string | null; probedAt: Date; ageMs: number }[]
  >`
    SELECT language, backend, available, reason, "probedAt", EXTRACT(EPOCH FROM clock_timestamp() - "probedAt")::float8 * 1000 AS "ageMs" FROM "SandboxProbe"`;
  return rows.map((row) => ({
    language: row.language as SandboxLanguage,
    backend: row.backend as LanguageAvailability["backend"],
    available: row.available,
    ...(row.reason ? { reason: row.reason } : {}),
    probedAt: row.probedAt,
    ageMs: row.ageMs,
  }));
}

/** Stores a fresh probe of every language (replacing the previous answers) in one statement. */
export async function storeSandboxProbes(probes: Record<SandboxLanguage, LanguageAvailability>): Promise<Date> {
  const entries = Object.entries(probes) as [SandboxLanguage, LanguageAvailability][];
  const [row] = await prisma().$queryRaw<{ probedAt: Date }[]>`
    WITH probe AS (
      INSERT INTO "SandboxProbe" (language, backend, available, reason, "probedAt")
      SELECT language, backend, available, reason, clock_timestamp()
      FROM unnest(${entries.map(([language]) => language)}::text[], ${entries.map(([, status]) => status.backend)}::text[],
                  ${entries.map(([, status]) => status.available)}::boolean[], ${entries.map(([, status]) => status.reason ?? null)}::text[])
           AS t(language, backend, available, reason)
      ON CONFLICT (language) DO UPDATE SET backend = EXCLUDED.backend, available = EXCLUDED.available, reason = EXCLUDED.reason, "probedAt" = EXCLUDED."probedAt"
      RETURNING "probedAt"
    )
    SELECT min("probedAt") AS "probedAt" FROM probe`;
  return row.probedAt;
}

/** Forgets every stored probe ("check again" on the admin page): the next reader probes afresh. */
export async function forgetSandboxProbes(): Promise<void> {
  await prisma().sandboxProbe.deleteMany({});
}

/** A run of `language` worked: a stored "cannot run" is stale, so it is forgotten. */
export async function forgetUnavailableLanguage(language: SandboxLanguage): Promise<void> {
  await prisma().sandboxProbe.deleteMany({ where: { language, available: false } });
}
