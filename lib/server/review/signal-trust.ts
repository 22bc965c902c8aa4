import "server-only";

import { WEAK_TESTS_THRESHOLD } from "@/lib/evidence/suspicion";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { SignalCountRow } from "@/lib/metrics/signal-trust";

import { finalLabelsOf } from "./final-labels";

/**
 * How far each automatic signal can be trusted against people's final labels in a campaign, as
 * counts per signal and language (`signalTrustTable` makes the table): the critic overall and per
 * failed rule, execution (the canonical solution fails a test), flaky, weak tests (newest mutation
 * score below the threshold) and unsolved (solutions ran, none passed). Counted in SQL over the
 * final-label relation; an item counts for a signal when it has a final label and the signal has a
 * verdict on its record. Part of the kept agreement count (agreement.ts), which guards its readers.
 * A record's newest mutation score and whether any solution passed are joined once for all the
 * items (no solution run: unsolved is unknown), not looked up item by item: at 100k records the
 * per-item lookups were a third of the statement (docs/benchmarks.md). The items are then grouped by
 * everything a signal reads (a few hundred kinds at 100,000 items), and the signals are unpivoted
 * from the kinds, each weighing its count, instead of from every item. The relation is read whole
 * and its final-label filter applied to the kinds, so the planner sees a campaign's worth of rows
 * and hashes the records once rather than looking each up.
 */
export async function countSignalTrust(tx: Prisma.TransactionClient, campaignId: string): Promise<SignalCountRow[]> {
  return tx.$queryRawUnsafe<SignalCountRow[]>(
    `WITH kinds AS MATERIALIZED (
       SELECT f.language, f.final_valid, f.critic_pass, f.critic_failed_rules AS failed_rules, f.exec_valid, r.flaky,
              latest_mutation.score < $2 AS weak, solved.unsolved, count(*)::int AS items
       FROM ${finalLabelsOf("ARRAY[$1]::text[]")} f
       JOIN "Record" r ON r.id = f.record_id
       LEFT JOIN (
         SELECT DISTINCT ON (m."recordId") m."recordId", m.score FROM "MutationAnalysis" m
         WHERE m."recordId" IN (SELECT i."recordId" FROM "CampaignItem" i WHERE i."campaignId" = $1)
         ORDER BY m."recordId", m."createdAt" DESC, m.id DESC
       ) latest_mutation ON latest_mutation."recordId" = f.record_id
       LEFT JOIN (
         SELECT s."recordId", NOT bool_or(s.passed) AS unsolved FROM "Solution" s
         WHERE s.passed IS NOT NULL AND s."recordId" IN (SELECT i."recordId" FROM "CampaignItem" i WHERE i."campaignId" = $1)
         GROUP BY 1
       ) solved ON solved."recordId" = f.record_id
       GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
     ),
     judged AS (SELECT * FROM kinds WHERE final_valid IS NOT NULL),
     rules AS (SELECT DISTINCT lower(rule) AS rule FROM judged CROSS JOIN unnest(judged.failed_rules) AS rule),
     signals AS (
       SELECT j.language, j.final_valid, v.signal, v.flagged, j.items
       FROM judged j CROSS JOIN LATERAL (VALUES
         ('critic', NOT j.critic_pass),
         ('execution', NOT j.exec_valid),
         ('flaky', j.flaky),
         ('weak-tests', j.weak),
         ('unsolved', j.unsolved)
       ) AS v(signal, flagged)
       UNION ALL
       SELECT j.language, j.final_valid, 'rule:' || rules.rule,
              EXISTS (SELECT 1 FROM unnest(j.failed_rules) AS failed WHERE lower(failed) = rules.rule), j.items
       FROM judged j CROSS JOIN rules WHERE j.critic_pass IS NOT NULL
     )
     SELECT signal, language,
            coalesce(sum(items) FILTER (WHERE flagged AND NOT final_valid), 0)::int AS "truePositives",
            coalesce(sum(items) FILTER (WHERE flagged AND final_valid), 0)::int AS "falsePositives",
            coalesce(sum(items) FILTER (WHERE NOT flagged AND NOT final_valid), 0)::int AS "falseNegatives",
            coalesce(sum(items) FILTER (WHERE NOT flagged AND final_valid), 0)::int AS "trueNegatives"
     FROM signals WHERE flagged IS NOT NULL
     GROUP BY signal, language`,
    campaignId,
    WEAK_TESTS_THRESHOLD,
  );
}
