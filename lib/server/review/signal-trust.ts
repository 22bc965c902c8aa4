import "server-only";

import { WEAK_TESTS_THRESHOLD } from "@/lib/evidence/suspicion";
import { addSignalCounts, type SignalCounts, signalTrust, type SignalTrust } from "@/lib/metrics/signal-trust";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { getCampaign } from "@/lib/server/campaigns/campaigns";
import { prisma } from "@/lib/server/db/client";

import { finalLabelsOf } from "./final-labels";

/** The signals, each saying "invalid" of a record, in the order the page lists them. */
const SIGNAL_ORDER = ["critic", "execution", "flaky", "weak-tests", "unsolved"] as const;

export type SignalTrustRow = SignalTrust & { signal: string; byLanguage: Record<string, SignalTrust> };

/**
 * How far each automatic signal can be trusted against people's final labels in a campaign: the
 * critic overall and per failed rule, execution (the canonical solution fails a test), flaky, weak
 * tests (newest mutation score below the threshold) and unsolved (solutions ran, none passed).
 * Counted in SQL over the final-label relation; an item counts for a signal when it has a final
 * label and the signal has a verdict on its record. Scope: reports:export.
 */
export async function getSignalTrust({
  actor,
  campaignId,
  weakBelow = WEAK_TESTS_THRESHOLD,
}: {
  actor: Actor;
  campaignId: string;
  weakBelow?: number;
}): Promise<SignalTrustRow[]> {
  assertCan(actor, "reports:export");
  await getCampaign({ actor, campaignId });
  const rows = await prisma().$queryRawUnsafe<({ signal: string; language: string } & SignalCounts)[]>(
    `WITH f AS MATERIALIZED (
       SELECT record_id, language, final_valid, critic_pass, critic_failed_rules, exec_valid
       FROM ${finalLabelsOf("ARRAY[$1]::text[]")} WHERE final_valid IS NOT NULL
     ),
     e AS (
       SELECT f.*, r.flaky,
              (SELECT m.score FROM "MutationAnalysis" m WHERE m."recordId" = f.record_id
               ORDER BY m."createdAt" DESC, m.id DESC LIMIT 1) AS mutation_score,
              (SELECT NOT bool_or(s.passed) FROM "Solution" s WHERE s."recordId" = f.record_id AND s.passed IS NOT NULL) AS unsolved
       FROM f JOIN "Record" r ON r.id = f.record_id
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
    weakBelow,
  );
  const cells = ({ truePositives, falsePositives, falseNegatives, trueNegatives }: SignalCounts): SignalCounts => ({
    truePositives,
    falsePositives,
    falseNegatives,
    trueNegatives,
  });
  const bySignal = new Map<string, typeof rows>();
  for (const row of rows) bySignal.set(row.signal, [...(bySignal.get(row.signal) ?? []), row]);
  const rank = (signal: string) => {
    const index = (SIGNAL_ORDER as readonly string[]).indexOf(signal);
    return index >= 0 ? index : SIGNAL_ORDER.length;
  };
  return [...bySignal.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([signal, languages]) => ({
      signal,
      ...signalTrust(addSignalCounts(languages.map(cells))),
      byLanguage: Object.fromEntries(
        [...languages]
          .sort((a, b) => (a.language < b.language ? -1 : 1))
          .map((row) => [row.language, signalTrust(cells(row))]),
      ),
    }));
}
