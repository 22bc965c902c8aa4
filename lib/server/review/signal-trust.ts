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
 * per-item lookups were a third of the statement (docs/benchmarks.md).
 */
export async function countSignalTrust(tx: Prisma.TransactionClient, campaignId: string): Promise<SignalCountRow[]> {
  return tx.$queryRawUnsafe<SignalCountRow[]>(
    `WITH f AS MATERIALIZED (
       SELECT record_id, language, final_valid, critic_pass, critic_failed_rules, exec_valid
       FROM ${finalLabelsOf("ARRAY[$1]::text[]")} WHERE final_valid IS NOT NULL
     ),
     latest_mutation AS (
       SELECT DISTINCT ON (m."recordId") m."recordId", m.score FROM "MutationAnalysis" m
       WHERE m."recordId" IN (SELECT record_id FROM f)
       ORDER BY m."recordId", m."createdAt" DESC, m.id DESC
     ),
     solved AS (
       SELECT s."recordId", NOT bool_or(s.passed) AS unsolved FROM "Solution" s
       WHERE s.passed IS NOT NULL AND s."recordId" IN (SELECT record_id FROM f)
       GROUP BY 1
     ),
     e AS (
       SELECT f.*, r.flaky, lm.score AS mutation_score, so.unsolved
       FROM f JOIN "Record" r ON r.id = f.record_id
       LEFT JOIN latest_mutation lm ON lm."recordId" = f.record_id
       LEFT JOIN solved so ON so."recordId" = f.record_id
     ),
     rules AS (SELECT DISTINCT lower(rule) AS rule FROM f CROSS JOIN unnest(f.critic_failed_rules) AS rule),
     signals AS (
       SELECT e.language, e.final_valid, v.signal, v.flagged
       FROM e CROSS JOIN LATERAL (VALUES
         ('critic', NOT e.critic_pass),
         ('execution', NOT e.exec_valid),
         ('flaky', e.flaky),
         ('weak-tests', e.mutation_score < $2),
         ('unsolved', e.unsolved)
       ) AS v(signal, flagged)
       UNION ALL
       SELECT e.language, e.final_valid, 'rule:' || rules.rule,
              EXISTS (SELECT 1 FROM unnest(e.critic_failed_rules) AS failed WHERE lower(failed) = rules.rule)
       FROM e CROSS JOIN rules WHERE e.critic_pass IS NOT NULL
     )
     SELECT signal, language,
            (count(*) FILTER (WHERE flagged AND NOT final_valid))::int AS "truePositives",
            (count(*) FILTER (WHERE flagged AND final_valid))::int AS "falsePositives",
            (count(*) FILTER (WHERE NOT flagged AND NOT final_valid))::int AS "falseNegatives",
            (count(*) FILTER (WHERE NOT flagged AND final_valid))::int AS "trueNegatives"
     FROM signals WHERE flagged IS NOT NULL
     GROUP BY signal, language`,
    campaignId,
    WEAK_TESTS_THRESHOLD,
  );
}
