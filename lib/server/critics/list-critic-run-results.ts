import "server-only";

import { recordTitle } from "@/lib/records/title";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, type SystemActor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import type { CriticResultInput, CriticResultStatus } from "@/lib/server/critics/queries";

/** A stored result as the run's page lists it (its rules left out). */
export type CriticResultRow = Omit<CriticResultInput, "rules"> & {
  id: string;
  recordId: number;
  /** The record's statement title (its first heading), so a person reads which record, not an id. */
  title: string;
  language: string;
};

/**
 * A run's results a page at a time (keyset on the result id), optionally only one status; the raw
 * reply is cut to `rawChars` for the list. Scope: critics:read.
 */
export async function listCriticRunResults({
  actor,
  runId,
  status,
  after,
  limit = 50,
  rawChars = 2000,
}: {
  actor: Actor | SystemActor;
  runId: string;
  status?: CriticResultStatus;
  after?: string;
  limit?: number;
  rawChars?: number;
}): Promise<{ results: CriticResultRow[]; nextAfter: string | null }> {
  assertCan(actor, "critics:read");
  const rows = await prisma().criticResult.findMany({
    where: { runId, ...(status ? { status } : {}), ...(after ? { id: { gt: after } } : {}) },
    select: {
      id: true,
      recordId: true,
      status: true,
      overallPass: true,
      failedRules: true,
      confidence: true,
      raw: true,
      error: true,
      attempts: true,
      latencyMs: true,
      promptTokens: true,
      completionTokens: true,
      record: { select: { language: true, question: true } },
    },
    orderBy: { id: "asc" },
    take: limit + 1,
  });
  const page = rows.slice(0, limit).map(({ record, raw, status: rowStatus, ...row }) => ({
    ...row,
    status: rowStatus as CriticResultStatus,
    title: recordTitle(record.question),
    language: record.language,
    raw: raw.length > rawChars ? `${raw.slice(0, rawChars)}…` : raw,
  }));
  return { results: page, nextAfter: rows.length > limit ? page[page.length - 1].id : null };
}
