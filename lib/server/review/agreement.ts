import "server-only";

import { type Confusion2x2, precisionRecall } from "@/lib/metrics";
import {
  addConfusion,
  annotatorStatisticsFromSums,
  FAST_DECISION_MS,
  humanAgreementFromSplits,
  humanVsCriticFromConfusion,
  humanVsExecutionFromConfusion,
  type LabelSplit,
  type RuleMatch,
} from "@/lib/metrics/campaign-agreement";
import { EXECUTION_HIDING, storedVisibility } from "@/lib/evidence/visibility";
import { type BlindLabel, revealAnalysis } from "@/lib/metrics/reveal";
import { type SignalCountRow, signalTrustTable } from "@/lib/metrics/signal-trust";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";

import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { Prisma } from "@/lib/generated/prisma/client";
import { prisma } from "@/lib/server/db/client";
import { finalLabelsOf } from "@/lib/server/review/final-labels";
import { countSignalTrust } from "@/lib/server/review/signal-trust";
import { campaignGoldAccuracy } from "@/lib/server/gold/gold";

type BlindGroup = Omit<BlindLabel, "signal"> & { criticPass: boolean | null; executableValid: boolean | null };
type BlindGroupRow = BlindGroup & { count: number };

/** A campaign's labels that kept a pre-reveal verdict, grouped with the critic's verdict on their record and whether its tests pass. */
const BLIND_GROUPS_SQL = `
    SELECT a."userId", i.language, a."preRevealValid" AS before, a.valid AS after, c."overallPass" AS "criticPass",
           r."executableValid", count(*)::int AS count
    FROM "Annotation" a JOIN "CampaignItem" i ON i.id = a."itemId" JOIN "Record" r ON r.id = i."recordId"
    LEFT JOIN "CriticVerdict" c ON c."recordId" = i."recordId"
    WHERE i."campaignId" = $1 AND NOT i.gold AND a."preRevealValid" IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5, 6`;

/** The blind labels against the critic and against execution: one per label. */
function blindLabelsOf(groups: BlindGroupRow[]): Record<"critic" | "execution", BlindLabel[]> {
  // One shared object per group: the pure analysis counts labels, so a group is its count of references.
  const against = (signal: (group: BlindGroup) => boolean | null) =>
    groups.flatMap(({ count, ...group }) => {
      const { userId, language, before, after } = group;
      return Array<BlindLabel>(count).fill({ userId, language, before, after, signal: signal(group) });
    });
  return { critic: against((group) => group.criticPass), execution: against((group) => group.executableValid) };
}

/** The counting transaction: as long as the count takes on a loaded machine (Prisma's default is 15 s). */
const COUNT_TRANSACTION = {
  timeout: 120_000,
  maxWait: 30_000,
  isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead,
};

/** Memory for the agreement query's sorts and hashes (PostgreSQL's default is 4 MB). */
const AGREEMENT_WORK_MEM = "96MB";

type Table = { language: string } & Confusion2x2;
type PairRow = { language: string; first: string; second: string } & Confusion2x2;

/**
 * Everything the agreement page counts, in one pass over the final labels of the campaign's labelled
 * items (finalLabelsOf) and their labels: the label splits per language, the final label against the
 * critic and execution per language, per mapped critic rule the matches with the final categories,
 * per annotator the sums, and per pair of annotators and language the 2×2 table of their labels.
 */
async function queryAgreementCounts(
  tx: Prisma.TransactionClient,
  campaignId: string,
  mapping: { key: string; criticRule: string }[],
) {
  // The per-label CTEs of a 300,000-label campaign are tens of MiB: within the default work_mem they
  // spill to temporary files and the pair join runs in batches (12 s at 100,000 items under load);
  // the counting transaction gets the memory to keep them in RAM.
  const [row] = await tx.$queryRawUnsafe<
    {
      splits: ({ language: string } & LabelSplit)[] | null;
      critic: Table[] | null;
      execution: (Table & { notRun: number })[] | null;
      rules: { key: string; truePositives: number; falsePositives: number; falseNegatives: number }[] | null;
      annotators:
        | {
            userId: string;
            items: number;
            medianActiveMs: number | null;
            totalActiveMs: number;
            fastDecisions: number;
            days: number;
            resolved: number;
            agreeingWithFinal: number;
          }[]
        | null;
      pairs: PairRow[] | null;
    }[]
  >(
    `WITH f AS MATERIALIZED (
       SELECT item_id, language, n, n_valid, final_valid, critic_pass, exec_valid, critic_failed_rules, final_categories
       FROM ${finalLabelsOf("ARRAY[$1]::text[]")} WHERE n > 0
     ),
     labels AS MATERIALIZED (
       SELECT f.item_id, f.language, f.final_valid, a."userId" AS user_id, a.valid, a."activeMs" AS active_ms, a."updatedAt" AS updated_at
       FROM f JOIN "Annotation" a ON a."itemId" = f.item_id
     ),
     judged AS MATERIALIZED (
       SELECT critic_failed_rules, final_categories FROM f
       WHERE final_valid IS NOT NULL AND critic_pass IS NOT NULL
         AND (cardinality(critic_failed_rules) > 0 OR cardinality(final_categories) > 0)
     ),
     mapping AS (SELECT * FROM unnest($2::text[], $3::text[]) AS m(key, rule)),
     pairs AS (
       SELECT x.language, x.user_id AS first, y.user_id AS second,
              (count(*) FILTER (WHERE x.valid AND y.valid))::int AS "bothTrue",
              (count(*) FILTER (WHERE NOT x.valid AND NOT y.valid))::int AS "bothFalse",
              (count(*) FILTER (WHERE x.valid AND NOT y.valid))::int AS "firstTrueSecondFalse",
              (count(*) FILTER (WHERE NOT x.valid AND y.valid))::int AS "firstFalseSecondTrue",
              count(*)::int AS n
       FROM labels x JOIN labels y ON y.item_id = x.item_id AND x.user_id < y.user_id
       GROUP BY 1, 2, 3
     )
     SELECT
       (SELECT json_agg(s) FROM (
          SELECT language, n_valid AS "nValid", n - n_valid AS "nInvalid", count(*)::int AS items FROM f WHERE n >= 2 GROUP BY 1, 2, 3
        ) s) AS splits,
       (SELECT json_agg(c) FROM (
          SELECT language,
                 (count(*) FILTER (WHERE final_valid AND critic_pass))::int AS "bothTrue",
                 (count(*) FILTER (WHERE NOT final_valid AND NOT critic_pass))::int AS "bothFalse",
                 (count(*) FILTER (WHERE final_valid AND NOT critic_pass))::int AS "firstTrueSecondFalse",
                 (count(*) FILTER (WHERE NOT final_valid AND critic_pass))::int AS "firstFalseSecondTrue",
                 (count(*) FILTER (WHERE final_valid IS NOT NULL AND critic_pass IS NOT NULL))::int AS n
          FROM f GROUP BY 1
        ) c) AS critic,
       (SELECT json_agg(e) FROM (
          SELECT language,
                 (count(*) FILTER (WHERE final_valid AND exec_valid))::int AS "bothTrue",
                 (count(*) FILTER (WHERE NOT final_valid AND NOT exec_valid))::int AS "bothFalse",
                 (count(*) FILTER (WHERE final_valid AND NOT exec_valid))::int AS "firstTrueSecondFalse",
                 (count(*) FILTER (WHERE NOT final_valid AND exec_valid))::int AS "firstFalseSecondTrue",
                 (count(*) FILTER (WHERE final_valid IS NOT NULL AND exec_valid IS NOT NULL))::int AS n,
                 (count(*) FILTER (WHERE final_valid IS NOT NULL AND exec_valid IS NULL))::int AS "notRun"
          FROM f GROUP BY 1
        ) e) AS execution,
       (SELECT json_agg(r) FROM (
          SELECT m.key,
                 (count(*) FILTER (WHERE t.flagged AND t.tagged))::int AS "truePositives",
                 (count(*) FILTER (WHERE t.flagged AND NOT t.tagged))::int AS "falsePositives",
                 (count(*) FILTER (WHERE t.tagged AND NOT t.flagged))::int AS "falseNegatives"
          FROM mapping m
          LEFT JOIN LATERAL (
            SELECT EXISTS (SELECT 1 FROM unnest(j.critic_failed_rules) AS failed WHERE lower(failed) = lower(m.rule)) AS flagged,
                   m.key = ANY(j.final_categories) AS tagged
            FROM judged j
          ) t ON true
          GROUP BY m.key
        ) r) AS rules,
       (SELECT json_agg(u) FROM (
          SELECT user_id AS "userId", count(*)::int AS items,
                 percentile_cont(0.5) WITHIN GROUP (ORDER BY active_ms) AS "medianActiveMs",
                 sum(active_ms)::float8 AS "totalActiveMs",
                 (count(*) FILTER (WHERE active_ms < $4))::int AS "fastDecisions",
                 count(DISTINCT updated_at::date)::int AS days,
                 count(final_valid)::int AS resolved,
                 (count(*) FILTER (WHERE valid = final_valid))::int AS "agreeingWithFinal"
          FROM labels GROUP BY user_id
        ) u) AS annotators,
       (SELECT json_agg(p) FROM pairs p) AS pairs`,
    campaignId,
    mapping.map((entry) => entry.key),
    mapping.map((entry) => entry.criticRule),
    FAST_DECISION_MS,
  );
  return {
    splits: row.splits ?? [],
    critic: row.critic ?? [],
    execution: row.execution ?? [],
    rules: row.rules ?? [],
    annotators: row.annotators ?? [],
    pairs: row.pairs ?? [],
  };
}

type Counts = Awaited<ReturnType<typeof queryAgreementCounts>>;

/** What one count of a campaign holds: the counts, its blind labels' groups, and the snapshot they are of. */
type CountedAgreement = {
  /** The counting transaction's snapshot (pg_snapshot as text): the changes it saw are in the counts. */
  snapshot: string;
  countedAt: Date;
  /** How long the count took: the page waits for counts this fast, and spaces slower ones by it. */
  countMs: number;
  mapping: { key: string; criticRule: string }[];
  counts: Counts;
  blindGroups: BlindGroupRow[];
  signals: SignalCountRow[];
};

/**
 * Whether the campaign changed since a count: a row of its change log (one per transaction that
 * changed what its agreement counts, migration 20261202060809) that the count's snapshot did not see.
 * Storing a count deletes the rows it saw, so the first row found answers.
 */
async function isBehind(campaignId: string, snapshot: string): Promise<boolean> {
  const [row] = await prisma().$queryRaw<{ behind: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM "CampaignChange"
      WHERE "campaignId" = ${campaignId} AND NOT pg_visible_in_snapshot(txid::text::xid8, ${snapshot}::pg_snapshot)
    ) AS behind`;
  return row.behind;
}

/**
 * Counts a campaign's agreement and keeps the count. One repeatable-read transaction, so the counts
 * and the snapshot they are stored with agree: a write that commits meanwhile leaves a change the
 * snapshot did not see, and the next read counts again.
 */
async function countAgreement(campaignId: string): Promise<CountedAgreement> {
  const started = performance.now();
  const counted = await prisma().$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SET LOCAL work_mem = '${AGREEMENT_WORK_MEM}'`);
    // The transaction's first query: repeatable read takes its snapshot here and keeps it.
    const [{ snapshot }] = await tx.$queryRaw<{ snapshot: string }[]>`SELECT pg_current_snapshot()::text AS snapshot`;
    const categories = await tx.errorCategory.findMany({
      where: { campaignId },
      orderBy: { position: "asc" },
      select: { key: true, criticRule: true },
    });
    const mapping = categories.flatMap(({ key, criticRule }) => (criticRule ? [{ key, criticRule }] : []));
    const counts = await queryAgreementCounts(tx, campaignId, mapping);
    const blindGroups = await tx.$queryRawUnsafe<BlindGroupRow[]>(BLIND_GROUPS_SQL, campaignId);
    const signals = await countSignalTrust(tx, campaignId);
    const countMs = Math.round(performance.now() - started);
    return { snapshot, countedAt: new Date(), countMs, mapping, counts, blindGroups, signals };
  }, COUNT_TRANSACTION);
  const stored = { ...counted, countedAt: counted.countedAt.toISOString() } as unknown as Prisma.InputJsonValue;
  // Two instances may count at once: the count whose snapshot sees more stays. The count that is
  // stored deletes the log rows it saw, so the log holds only the changes since the kept count.
  await prisma().$executeRaw`
    WITH kept AS (
      INSERT INTO "AgreementCounts" ("campaignId", snapshot, "countedAt", counts)
      VALUES (${campaignId}, ${counted.snapshot}, ${counted.countedAt}, ${stored})
      ON CONFLICT ("campaignId") DO UPDATE
      SET snapshot = EXCLUDED.snapshot, "countedAt" = EXCLUDED."countedAt", counts = EXCLUDED.counts
      WHERE verity_snapshot_covers(EXCLUDED.snapshot::pg_snapshot, "AgreementCounts".snapshot::pg_snapshot)
      RETURNING snapshot
    )
    DELETE FROM "CampaignChange" change USING kept
    WHERE change."campaignId" = ${campaignId} AND pg_visible_in_snapshot(change.txid::text::xid8, kept.snapshot::pg_snapshot)`;
  return counted;
}

/** Counts under way in this process, by campaign: requests that find a campaign's count stale share one. */
const countsUnderWay = new Map<string, Promise<CountedAgreement>>();

function countOnce(campaignId: string): Promise<CountedAgreement> {
  const underWay = countsUnderWay.get(campaignId);
  if (underWay) return underWay;
  const counting = countAgreement(campaignId).finally(() => countsUnderWay.delete(campaignId));
  countsUnderWay.set(campaignId, counting);
  return counting;
}

/**
 * A count that starts after this call. One already under way may have taken its snapshot before the
 * change the caller found, so the caller waits for it to end and then shares the next.
 */
async function countStartingNow(campaignId: string): Promise<CountedAgreement> {
  await countsUnderWay.get(campaignId)?.catch(() => undefined);
  return countOnce(campaignId);
}

/** The kept count of a campaign (null when never counted) and whether the campaign changed since. */
async function keptCount(campaignId: string): Promise<{ kept: CountedAgreement | null; behind: boolean }> {
  const row = await prisma().agreementCounts.findUnique({ where: { campaignId }, select: { counts: true } });
  if (!row) return { kept: null, behind: true };
  const stored = row.counts as unknown as Omit<CountedAgreement, "countedAt"> & { countedAt: string };
  const kept = { ...stored, countedAt: new Date(stored.countedAt) };
  return { kept, behind: await isBehind(campaignId, kept.snapshot) };
}

/**
 * Agreement figures of a campaign, exact: counted again first when anything they count has changed
 * since the kept count (the API and scripts that print a paper's figures read these).
 * Scope: reports:export.
 */
export async function getCampaignAgreement({ actor, campaignId }: { actor: Actor; campaignId: string }) {
  assertCan(actor, "reports:export");
  const campaign = await getCampaign({ actor, campaignId });
  const { kept, behind } = await keptCount(campaignId);
  const counted = kept && !behind ? kept : await countStartingNow(campaignId);
  return { ...(await agreementFigures(campaign, counted)), countedAt: counted.countedAt.toISOString() };
}

/** A count at most this slow is worth waiting for: the page shows exact figures. */
const WAIT_FOR_COUNTS_MS = 250;

/**
 * How long after a slow count the page may start the next while the campaign keeps changing: five
 * times the count's own time, so a watched page spends at most a sixth of a core recounting.
 */
export function recountGapMs(countMs: number): number {
  return Math.min(60_000, Math.max(1_000, 5 * countMs));
}

/** Background counts waiting for their gap to pass, by campaign: one per campaign in this process. */
const countsScheduled = new Map<string, NodeJS.Timeout>();

/**
 * Counts a campaign in the background once `inMs` has passed (at once when it has), unless a count is
 * already under way or scheduled: every page view that finds the count behind leaves one coming, so
 * the change log is counted and emptied even if nobody opens the page again.
 */
function countInBackground(campaignId: string, inMs: number): void {
  if (countsUnderWay.has(campaignId) || countsScheduled.has(campaignId)) return;
  const start = () => {
    countsScheduled.delete(campaignId);
    countOnce(campaignId).catch((error: unknown) =>
      console.error(`verity: counting the agreement of campaign ${campaignId} failed:`, error),
    );
  };
  if (inMs <= 0) return start();
  // Unreferenced: a waiting count never keeps a CLI or test process alive.
  countsScheduled.set(campaignId, setTimeout(start, inMs).unref());
}

/**
 * The agreement page's figures. A campaign whose count is quick (or never counted) is counted first,
 * as the API does. For a slow one the page answers from the kept count at once: it says when that
 * was counted and whether anything changed since (`changedSince`), and starts or schedules a
 * background count — one at a time per campaign, spaced by `recountGapMs` — whose figures the page
 * shows once done.
 * Scope: reports:export.
 */
export async function readCampaignAgreement({ actor, campaignId }: { actor: Actor; campaignId: string }) {
  assertCan(actor, "reports:export");
  const campaign = await getCampaign({ actor, campaignId });
  const { kept, behind } = await keptCount(campaignId);
  let counted: CountedAgreement;
  let changedSince = false;
  if (kept && !behind) counted = kept;
  else if (kept === null || kept.countMs <= WAIT_FOR_COUNTS_MS) counted = await countStartingNow(campaignId);
  else {
    counted = kept;
    changedSince = true;
    countInBackground(campaignId, kept.countedAt.getTime() + recountGapMs(kept.countMs) - Date.now());
  }
  return { ...(await agreementFigures(campaign, counted)), countedAt: counted.countedAt.toISOString(), changedSince };
}

/** The 2×2 table of the only two annotators among `pairs`, or null when more or fewer labelled together. */
function twoRaterTable(pairs: PairRow[]): Confusion2x2 | null {
  const raters = new Set(pairs.flatMap((pair) => [pair.first, pair.second]));
  return raters.size === 2 ? addConfusion(pairs) : null;
}

/**
 * Agreement figures from a count: human–human overall and per language, the humans' final label
 * against the critic and against execution, per critic rule precision/recall against the mapped
 * categories, per annotator statistics (with gold accuracy, read now), and (blind campaigns only,
 * else null) how the critic's reveal moved verdicts. Undefined metrics are null.
 */
async function agreementFigures(
  campaign: Awaited<ReturnType<typeof getCampaign>>,
  { counts, mapping, blindGroups, signals }: CountedAgreement,
) {
  const goldAccuracy = await campaignGoldAccuracy(campaign.id);
  const blindLabels = campaign.blind ? blindLabelsOf(blindGroups) : null;
  // Gold accuracy per annotator (their gold labels are not among the counted items), per language too.
  const goldOf = (userId: string) => {
    const byLanguage = goldAccuracy
      .filter((entry) => entry.userId === userId)
      .map(({ language, n, correct }) => ({ language, n, correct }));
    return {
      n: byLanguage.reduce((sum, entry) => sum + entry.n, 0),
      correct: byLanguage.reduce((sum, entry) => sum + entry.correct, 0),
      byLanguage,
    };
  };
  const languages = [
    ...new Set([...counts.critic.map((row) => row.language), ...counts.splits.map((row) => row.language)]),
  ].sort();
  const userIds = new Set([
    ...counts.annotators.map((row) => row.userId),
    ...(blindLabels?.critic ?? []).map((label) => label.userId),
  ]);
  const users = await prisma().user.findMany({
    where: { id: { in: [...userIds] } },
    select: { id: true, email: true, name: true },
  });
  const byId = new Map(users.map((user) => [user.id, user]));
  const named = <T extends { userId: string }>(stats: T) => {
    const user = byId.get(stats.userId);
    return { ...stats, email: user?.email ?? "(deleted)", name: user?.name ?? null };
  };
  const inLanguage = <T extends { language: string }>(rows: T[], language: string) =>
    rows.filter((row) => row.language === language);
  const agreementOf = (splits: LabelSplit[], pairs: PairRow[]) =>
    humanAgreementFromSplits(splits, twoRaterTable(pairs));
  const perLanguage = <T>(figure: (language: string) => T) =>
    Object.fromEntries(languages.map((language) => [language, figure(language)]));
  const executionOf = (rows: (Table & { notRun: number })[]) =>
    humanVsExecutionFromConfusion(
      addConfusion(rows),
      rows.reduce((sum, row) => sum + row.notRun, 0),
    );
  const pairTables = new Map<string, PairRow[]>();
  for (const pair of counts.pairs) {
    const key = `${pair.first}\u0000${pair.second}`;
    const rows = pairTables.get(key);
    if (rows) rows.push(pair);
    else pairTables.set(key, [pair]);
  }
  const criticRules: RuleMatch[] = mapping.map(({ key, criticRule }) => {
    const row = counts.rules.find((candidate) => candidate.key === key);
    const matches = {
      truePositives: row?.truePositives ?? 0,
      falsePositives: row?.falsePositives ?? 0,
      falseNegatives: row?.falseNegatives ?? 0,
    };
    return { rule: criticRule, category: key, ...matches, ...precisionRecall(matches) };
  });
  const annotators = annotatorStatisticsFromSums(
    counts.annotators,
    [...pairTables.values()].map((rows) => ({
      first: rows[0].first,
      second: rows[0].second,
      table: addConfusion(rows),
    })),
  )
    .map((stats) => ({ ...named(stats), gold: goldOf(stats.userId) }))
    .sort((a, b) => a.email.localeCompare(b.email));
  const reveal = blindLabels ? revealAnalysis(blindLabels.critic) : null;
  // Execution was hidden too only where the campaign showed nothing before the first label.
  const isExecutionHidden = EXECUTION_HIDING.includes(storedVisibility(campaign.visibility));
  const executionReveal = blindLabels && isExecutionHidden ? revealAnalysis(blindLabels.execution) : null;
  return {
    overall: agreementOf(counts.splits, counts.pairs),
    byLanguage: perLanguage((language) =>
      agreementOf(inLanguage(counts.splits, language), inLanguage(counts.pairs, language)),
    ),
    humanVsCritic: humanVsCriticFromConfusion(addConfusion(counts.critic)),
    humanVsCriticByLanguage: perLanguage((language) =>
      humanVsCriticFromConfusion(addConfusion(inLanguage(counts.critic, language))),
    ),
    humanVsExecution: executionOf(counts.execution),
    humanVsExecutionByLanguage: perLanguage((language) => executionOf(inLanguage(counts.execution, language))),
    criticRules,
    annotators,
    blindReveal: reveal ? { ...reveal, byAnnotator: reveal.byAnnotator.map(named) } : null,
    executionReveal: executionReveal
      ? { ...executionReveal, byAnnotator: executionReveal.byAnnotator.map(named) }
      : null,
    /** How far each automatic signal can be trusted against the final labels (signal-trust.ts). */
    signals: signalTrustTable(signals),
  };
}
