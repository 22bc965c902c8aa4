import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, SystemActor } from "@/lib/server/auth/permissions";
import { evidenceHiddenRecordIds } from "@/lib/server/auth/visibility";
import { prisma } from "@/lib/server/db/client";
import { findDataset } from "@/lib/server/solvers/queries";

export type RecordSolvers = {
  recordId: number;
  line: number;
  language: string;
  question: string;
  /** Models whose solution passed both tests (k). */
  solvedBy: string[];
  /** Models whose solution ran here (n). */
  triedBy: string[];
};

/**
 * A page of a dataset's records that have solutions, with which models solve each (k of n), by
 * record id (keyset). `unsolvedOnly`: records that some model tried and none solved. Records whose
 * evidence a campaign hides from the actor are left out (visibility.ts). Scope: records:read.
 */
export async function recordSolversPage({
  actor,
  datasetName,
  unsolvedOnly,
  cursor,
  limit,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  unsolvedOnly: boolean;
  cursor: number | null;
  limit: number;
}): Promise<{ rows: RecordSolvers[]; nextCursor: number | null }> {
  assertCan(actor, "records:read");
  const dataset = await findDataset(actor, datasetName);
  const rows = await prisma().$queryRaw<RecordSolvers[]>`
    SELECT r.id AS "recordId", r.line, r.language, left(r.question, 300) AS question,
           coalesce(array_agg(s.model ORDER BY s.model) FILTER (WHERE s.passed), '{}') AS "solvedBy",
           coalesce(array_agg(s.model ORDER BY s.model) FILTER (WHERE s.passed IS NOT NULL), '{}') AS "triedBy"
    FROM "Record" r JOIN "Solution" s ON s."recordId" = r.id
    WHERE r."datasetId" = ${dataset.id} AND r.id > ${cursor ?? 0}
    GROUP BY r.id
    HAVING ${!unsolvedOnly} OR (count(*) FILTER (WHERE s.passed IS NOT NULL) > 0 AND NOT coalesce(bool_or(s.passed), false))
    ORDER BY r.id
    LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit);
  // Solver results are evidence: a campaign hiding it before the first label keeps those rows out
  // (a page may then be shorter than the limit; the cursor still moves past them).
  const hidden = await evidenceHiddenRecordIds({ actor, recordIds: page.map((row) => row.recordId) });
  return {
    rows: page.filter((row) => !hidden.has(row.recordId)),
    nextCursor: rows.length > limit ? page[page.length - 1].recordId : null,
  };
}
