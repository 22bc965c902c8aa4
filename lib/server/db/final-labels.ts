import "server-only";

import { type AggregationRule, categorySource, evidenceStrength, finalVerdict } from "@/lib/metrics";

import { prisma } from "./client";

/**
 * The items the reports count, as SQL over `$1` (the campaign ids, oldest campaign first): the one
 * place to leave items out of every report figure (e.g. a gold item: `AND NOT i.<flag>`).
 */
// Gold items only measure annotators: they never count in a report.
export const COUNTED_ITEMS = `counted AS (SELECT i.* FROM "CampaignItem" i WHERE i."campaignId" = ANY($1::text[]) AND NOT i.gold)`;

/** The SQL parameters $2..$8 that FINALS_CTE joins: one row per (campaign, label counts, adjudication). */
export type Decisions = [
  campaignIds: string[],
  labelCounts: number[],
  validCounts: number[],
  adjudications: (boolean | null)[],
  finals: (boolean | null)[],
  sources: (string | null)[],
  strengths: number[],
];

/** A kind of item as far as its final label goes: its campaign's rule, its label counts and its adjudication. */
type ItemKind = { campaignId: string; rule: AggregationRule; n: number; nValid: number; adjValid: boolean | null };

/**
 * The final verdict of each kind of item, decided by `finalVerdict` in TypeScript: the reports join
 * these decisions instead of restating the rule in SQL.
 */
export function decide(kinds: ItemKind[]): Decisions {
  const decisions: Decisions = [[], [], [], [], [], [], []];
  for (const kind of kinds) {
    const counts = { labelCount: kind.n, validCount: kind.nValid };
    const verdict = finalVerdict({ rule: kind.rule, ...counts, adjudicationValid: kind.adjValid });
    const row = [
      kind.campaignId,
      kind.n,
      kind.nValid,
      kind.adjValid,
      verdict.valid,
      categorySource(verdict),
      evidenceStrength(verdict, counts),
    ] as const;
    row.forEach((value, column) => (decisions[column] as unknown[]).push(value));
  }
  return decisions;
}

/** Every kind of item a campaign can hold while no item has more labels than its overlap plus one (the agreement subset's target). */
export function expectedKinds(campaigns: { id: string; finalRule: string; overlap: number }[]): ItemKind[] {
  return campaigns.flatMap((campaign) =>
    Array.from({ length: campaign.overlap + 2 }, (_, n) => n).flatMap((n) =>
      Array.from({ length: n + 1 }, (_, nValid) => nValid).flatMap((nValid) =>
        [null, true, false].map((adjValid) => ({
          campaignId: campaign.id,
          rule: campaign.finalRule as AggregationRule,
          n,
          nValid,
          adjValid,
        })),
      ),
    ),
  );
}

/** The kinds of item the campaigns hold now, for when an item outgrew `expectedKinds` (an overlap lowered after labelling). */
export async function observedKinds(campaignIds: string[]): Promise<ItemKind[]> {
  return prisma().$queryRawUnsafe<ItemKind[]>(
    `WITH ${COUNTED_ITEMS}
     SELECT DISTINCT i."campaignId", c."finalRule" AS rule, i."labelCount" AS n, i."validCount" AS "nValid", adj.valid AS "adjValid"
     FROM counted i JOIN "Campaign" c ON c.id = i."campaignId" LEFT JOIN "Adjudication" adj ON adj."itemId" = i.id`,
    campaignIds,
  );
}

/**
 * One row per counted record with its final label as decided by `decide` ($2..$8): over several
 * campaigns a record keeps its strongest evidence (`evidenceStrength`), the latest campaign on a tie.
 * An item of a kind left undecided has a null strength: the caller counts those and decides again.
 * Only joins and orders: the verdicts, category sources and strengths all come from TypeScript. The
 * evidence is gathered before the decisions are joined (MATERIALIZED): otherwise the planner, misjudging
 * the small decision table, looks records up one by one.
 */
export const FINALS_CTE = `
  ${COUNTED_ITEMS},
  evidence AS MATERIALIZED (
    SELECT i.id, i."campaignId", i."recordId", i.language, coalesce(r.difficulty, 'unknown') AS difficulty, i."labelCount" AS n, i."validCount" AS n_valid,
           adj.valid AS adj_valid, adj.categories AS adj_categories,
           c."overallPass" AS critic_pass, r."executableValid" AS exec_valid, r."verificationOutcome" = 'UNAVAILABLE' AS exec_unavailable
    FROM counted i
    JOIN "Record" r ON r.id = i."recordId"
    LEFT JOIN "Adjudication" adj ON adj."itemId" = i.id
    LEFT JOIN "CriticVerdict" c ON c."recordId" = i."recordId"
  ),
  decision AS (
    SELECT * FROM unnest($2::text[], $3::int[], $4::int[], $5::boolean[], $6::boolean[], $7::text[], $8::int[])
      AS d("campaignId", n, n_valid, adj_valid, final_valid, category_source, strength)
  ),
  items AS (
    SELECT e.*, d.final_valid, d.category_source, d.strength, array_position($1::text[], e."campaignId") AS recency
    FROM evidence e
    LEFT JOIN decision d ON d."campaignId" = e."campaignId" AND d.n = e.n AND d.n_valid = e.n_valid AND d.adj_valid IS NOT DISTINCT FROM e.adj_valid
  ),
  finals AS (
    SELECT DISTINCT ON ("recordId") * FROM items ORDER BY "recordId", strength DESC, recency DESC
  )`;
