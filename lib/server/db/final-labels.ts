import "server-only";

import { type AggregationRule, categorySource, evidenceStrength, finalVerdict } from "@/lib/metrics";
import type { Prisma } from "@/lib/generated/prisma/client";

type Tx = Prisma.TransactionClient;

/**
 * The items the reports count, as SQL over `$1` (the campaign ids, oldest campaign first): the one
 * place to leave items out of every report figure (e.g. a gold item: `AND NOT i.<flag>`).
 */
export const COUNTED_ITEMS = `counted AS (SELECT i.* FROM "CampaignItem" i WHERE i."campaignId" = ANY($1::text[]))`;

/** The SQL parameters $2..$8 that FINALS_CTE joins: one row per distinct (campaign, label counts, adjudication). */
export type Decisions = [campaignIds: string[], labelCounts: number[], validCounts: number[], adjudications: (boolean | null)[], finals: (boolean | null)[], sources: (string | null)[], strengths: number[]];

/**
 * The final verdict of every kind of item the campaigns hold, decided by `finalVerdict` in TypeScript:
 * SQL finds the distinct (campaign, labelCount, validCount, adjudication) the items have, which are few
 * (the counts are bounded by the overlap), and the reports then join those decisions instead of
 * restating the rule. Call inside the report's REPEATABLE READ transaction, so the items the report
 * counts are the ones decided here.
 */
export async function decideFinals(tx: Tx, campaignIds: string[]): Promise<Decisions> {
  const kinds = await tx.$queryRawUnsafe<{ campaignId: string; rule: AggregationRule; n: number; nValid: number; adjValid: boolean | null }[]>(
    `WITH ${COUNTED_ITEMS}
     SELECT DISTINCT i."campaignId", c."finalRule" AS rule, i."labelCount" AS n, i."validCount" AS "nValid", adj.valid AS "adjValid"
     FROM counted i JOIN "Campaign" c ON c.id = i."campaignId" LEFT JOIN "Adjudication" adj ON adj."itemId" = i.id`,
    campaignIds,
  );
  const decisions: Decisions = [[], [], [], [], [], [], []];
  for (const kind of kinds) {
    const counts = { labelCount: kind.n, validCount: kind.nValid };
    const verdict = finalVerdict({ rule: kind.rule, ...counts, adjudicationValid: kind.adjValid });
    const row = [kind.campaignId, kind.n, kind.nValid, kind.adjValid, verdict.valid, categorySource(verdict), evidenceStrength(verdict, counts)] as const;
    row.forEach((value, column) => (decisions[column] as unknown[]).push(value));
  }
  return decisions;
}

/**
 * One row per counted record with its final label as decided by `decideFinals` ($2..$8): over several
 * campaigns a record keeps its strongest evidence (`evidenceStrength`), the latest campaign on a tie.
 * Only joins and orders: the verdicts, category sources and strengths all come from TypeScript.
 */
export const FINALS_CTE = `
  ${COUNTED_ITEMS},
  decision AS (
    SELECT * FROM unnest($2::text[], $3::int[], $4::int[], $5::boolean[], $6::boolean[], $7::text[], $8::int[])
      AS d("campaignId", n, n_valid, adj_valid, final_valid, category_source, strength)
  ),
  items AS (
    SELECT i.id, i."campaignId", i."recordId", i.language, coalesce(r.difficulty, 'unknown') AS difficulty, i."labelCount" AS n,
           adj.categories AS adj_categories, d.final_valid, d.category_source, d.strength, array_position($1::text[], i."campaignId") AS recency,
           c."overallPass" AS critic_pass, r."executableValid" AS exec_valid, r."verificationOutcome" = 'UNAVAILABLE' AS exec_unavailable
    FROM counted i
    JOIN "Record" r ON r.id = i."recordId"
    LEFT JOIN "Adjudication" adj ON adj."itemId" = i.id
    LEFT JOIN "CriticVerdict" c ON c."recordId" = i."recordId"
    JOIN decision d ON d."campaignId" = i."campaignId" AND d.n = i."labelCount" AND d.n_valid = i."validCount" AND d.adj_valid IS NOT DISTINCT FROM adj.valid
  ),
  finals AS (
    SELECT DISTINCT ON ("recordId") * FROM items ORDER BY "recordId", strength DESC, recency DESC
  )`;
