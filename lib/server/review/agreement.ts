import "server-only";

import { z } from "zod";

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
import { WEAK_TESTS_THRESHOLD } from "@/lib/evidence/suspicion";
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

/**
 * Settings of each counting transaction. The per-label relation of a 300,000-label campaign is tens
 * of MiB: within the default work_mem it spills to temporary files and its sorts run in batches
 * (12 s at 100,000 items under load), so the count gets the memory to keep it in RAM. Its statements
 * already run side by side on their own connections (countAgreement), so each runs without parallel
 * workers: on a busy machine the workers only repeated each other's hash tables.
 */
const COUNT_SETTINGS = [
  `SET LOCAL work_mem = '${AGREEMENT_WORK_MEM}'`,
  "SET LOCAL max_parallel_workers_per_gather = 0",
];

type Table = { language: string } & Confusion2x2;
type PairRow = { language: string; first: string; second: string } & Confusion2x2;

/**
 * The counts over the campaign's items (finalLabelsOf), in one statement: the label splits per
 * language, the final label against the critic and execution per language, per mapped critic rule
 * the matches with the final categories, and the signal-vs-people counts. The items are read once
 * and grouped by everything these counts read (a few hundred kinds at 100,000 items); each count
 * then sums the kinds instead of reading the items again (the signals were a second pass over the
 * items and their records, 40% of this statement's time).
 *
 * The signals, per signal and language, against people's final labels (`signalTrustTable` makes
 * the table): the critic overall and per failed rule, execution (the canonical solution fails a
 * test), flaky, weak tests (newest mutation score below the threshold) and unsolved (solutions ran,
 * none passed). An item counts for a signal when it has a final label and the signal has a verdict
 * on its record. A record's newest mutation score and whether any solution passed are joined once
 * for all the items (no solution run: unsolved is unknown), not looked up item by item: at 100k
 * records the per-item lookups were a third of the signals' time (docs/benchmarks.md).
 *
 * The relation is read whole and its `n > 0` applied to the kinds, so the planner sees a
 * campaign's worth of rows and hashes the records and verdicts once instead of looking them up item
 * by item (the filter on the label count made it expect a few hundred).
 */
async function queryItemCounts(
  tx: Prisma.TransactionClient,
  campaignId: string,
  mapping: { key: string; criticRule: string }[],
) {
  const [row] = await tx.$queryRawUnsafe<
    {
      splits: ({ language: string } & LabelSplit)[] | null;
      critic: Table[] | null;
      execution: (Table & { notRun: number })[] | null;
      rules: { key: string; truePositives: number; falsePositives: number; falseNegatives: number }[] | null;
      signals: SignalCountRow[] | null;
    }[]
  >(
    `WITH items AS MATERIALIZED (
       SELECT f.language, f.n, f.n_valid, f.final_valid, f.critic_pass, f.exec_valid, f.critic_failed_rules,
              f.final_categories, r.flaky, latest_mutation.score < $4 AS weak, solved.unsolved, count(*)::int AS items
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
       GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
     ),
     kinds AS MATERIALIZED (
       SELECT language, n, n_valid, final_valid, critic_pass, exec_valid,
              CASE WHEN judged THEN critic_failed_rules END AS failed_rules,
              CASE WHEN judged THEN final_categories END AS categories,
              sum(items)::int AS items
       FROM (
         SELECT *, final_valid IS NOT NULL AND critic_pass IS NOT NULL
                     AND (cardinality(critic_failed_rules) > 0 OR cardinality(final_categories) > 0) AS judged
         FROM items
       ) f
       GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
     ),
     labelled AS (SELECT * FROM kinds WHERE n > 0),
     mapping AS (SELECT * FROM unnest($2::text[], $3::text[]) AS m(key, rule)),
     judged AS (
       SELECT language, final_valid, critic_pass, critic_failed_rules AS failed_rules, exec_valid, flaky, weak,
              unsolved, sum(items)::int AS items
       FROM items WHERE final_valid IS NOT NULL
       GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
     ),
     failed_rules AS (SELECT DISTINCT lower(rule) AS rule FROM judged CROSS JOIN unnest(judged.failed_rules) AS rule),
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
       SELECT j.language, j.final_valid, 'rule:' || failed_rules.rule,
              EXISTS (SELECT 1 FROM unnest(j.failed_rules) AS failed WHERE lower(failed) = failed_rules.rule), j.items
       FROM judged j CROSS JOIN failed_rules WHERE j.critic_pass IS NOT NULL
     )
     SELECT
       (SELECT json_agg(s) FROM (
          SELECT language, n_valid AS "nValid", n - n_valid AS "nInvalid", sum(items)::int AS items
          FROM labelled WHERE n >= 2 GROUP BY 1, 2, 3
        ) s) AS splits,
       (SELECT json_agg(c) FROM (
          SELECT language,
                 coalesce(sum(items) FILTER (WHERE final_valid AND critic_pass), 0)::int AS "bothTrue",
                 coalesce(sum(items) FILTER (WHERE NOT final_valid AND NOT critic_pass), 0)::int AS "bothFalse",
                 coalesce(sum(items) FILTER (WHERE final_valid AND NOT critic_pass), 0)::int AS "firstTrueSecondFalse",
                 coalesce(sum(items) FILTER (WHERE NOT final_valid AND critic_pass), 0)::int AS "firstFalseSecondTrue",
                 coalesce(sum(items) FILTER (WHERE final_valid IS NOT NULL AND critic_pass IS NOT NULL), 0)::int AS n
          FROM labelled GROUP BY 1
        ) c) AS critic,
       (SELECT json_agg(e) FROM (
          SELECT language,
                 coalesce(sum(items) FILTER (WHERE final_valid AND exec_valid), 0)::int AS "bothTrue",
                 coalesce(sum(items) FILTER (WHERE NOT final_valid AND NOT exec_valid), 0)::int AS "bothFalse",
                 coalesce(sum(items) FILTER (WHERE final_valid AND NOT exec_valid), 0)::int AS "firstTrueSecondFalse",
                 coalesce(sum(items) FILTER (WHERE NOT final_valid AND exec_valid), 0)::int AS "firstFalseSecondTrue",
                 coalesce(sum(items) FILTER (WHERE final_valid IS NOT NULL AND exec_valid IS NOT NULL), 0)::int AS n,
                 coalesce(sum(items) FILTER (WHERE final_valid IS NOT NULL AND exec_valid IS NULL), 0)::int AS "notRun"
          FROM labelled GROUP BY 1
        ) e) AS execution,
       (SELECT json_agg(r) FROM (
          SELECT m.key,
                 coalesce(sum(t.items) FILTER (WHERE t.flagged AND t.tagged), 0)::int AS "truePositives",
                 coalesce(sum(t.items) FILTER (WHERE t.flagged AND NOT t.tagged), 0)::int AS "falsePositives",
                 coalesce(sum(t.items) FILTER (WHERE t.tagged AND NOT t.flagged), 0)::int AS "falseNegatives"
          FROM mapping m
          LEFT JOIN LATERAL (
            SELECT j.items,
                   EXISTS (SELECT 1 FROM unnest(j.failed_rules) AS failed WHERE lower(failed) = lower(m.rule)) AS flagged,
                   m.key = ANY(j.categories) AS tagged
            FROM labelled j WHERE j.failed_rules IS NOT NULL
          ) t ON true
          GROUP BY m.key
        ) r) AS rules,
       (SELECT json_agg(g) FROM (
          SELECT signal, language,
                 coalesce(sum(items) FILTER (WHERE flagged AND NOT final_valid), 0)::int AS "truePositives",
                 coalesce(sum(items) FILTER (WHERE flagged AND final_valid), 0)::int AS "falsePositives",
                 coalesce(sum(items) FILTER (WHERE NOT flagged AND NOT final_valid), 0)::int AS "falseNegatives",
                 coalesce(sum(items) FILTER (WHERE NOT flagged AND final_valid), 0)::int AS "trueNegatives"
          FROM signals WHERE flagged IS NOT NULL
          GROUP BY signal, language
        ) g) AS signals`,
    campaignId,
    mapping.map((entry) => entry.key),
    mapping.map((entry) => entry.criticRule),
    WEAK_TESTS_THRESHOLD,
  );
  return {
    counts: {
      splits: row.splits ?? [],
      critic: row.critic ?? [],
      execution: row.execution ?? [],
      rules: row.rules ?? [],
    },
    signals: row.signals ?? [],
  };
}

/**
 * The counts over the labels of the campaign's items: per annotator the sums, and per pair of
 * annotators and language the 2×2 table of their labels. The pairs come from the items' kept
 * labellers and verdicts (verity_annotations_changed keeps them in each label's transaction, in the
 * order of the ids): the items are grouped by language, labellers and verdicts (a few thousand
 * kinds at 100,000 items) and each kind gives its pairs, weighted by its items; the self-join of
 * 300,000 labels this replaces was half of the count. Items with fewer than two labels are left out
 * of the kinds, not of the items: filtered on the label count, the planner expected a few thousand
 * items and sorted them by their arrays (485 ms) instead of hashing them (200 ms). Only items with a label have labels, and the
 * label count is kept in each label's transaction, so no `n > 0` is needed for the annotators (it
 * made the planner expect a few hundred labels and sort instead of hash).
 * An annotator's labels are grouped by the annotator's id byte-wise (COLLATE "C"): the groups are
 * the same, and the sort of 300,000 labels skips the collation.
 */
async function queryLabelCounts(tx: Prisma.TransactionClient, campaignId: string) {
  const [row] = await tx.$queryRawUnsafe<
    {
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
    `WITH labels AS (
       SELECT f.item_id, f.language, f.final_valid, a."userId" AS user_id, a.valid, a."activeMs" AS active_ms,
              a."updatedAt" AS updated_at
       FROM ${finalLabelsOf("ARRAY[$1]::text[]")} f JOIN "Annotation" a ON a."itemId" = f.item_id
     ),
     kinds AS (
       SELECT * FROM (
         SELECT language, "labellerIds" AS ids, "labelValids" AS valids, count(*)::int AS items
         FROM "CampaignItem"
         WHERE "campaignId" = $1 AND NOT gold
         GROUP BY 1, 2, 3
       ) k
       WHERE cardinality(ids) >= 2
     ),
     pairs AS (
       SELECT k.language, k.ids[x] AS first, k.ids[y] AS second,
              coalesce(sum(k.items) FILTER (WHERE k.valids[x] AND k.valids[y]), 0)::int AS "bothTrue",
              coalesce(sum(k.items) FILTER (WHERE NOT k.valids[x] AND NOT k.valids[y]), 0)::int AS "bothFalse",
              coalesce(sum(k.items) FILTER (WHERE k.valids[x] AND NOT k.valids[y]), 0)::int AS "firstTrueSecondFalse",
              coalesce(sum(k.items) FILTER (WHERE NOT k.valids[x] AND k.valids[y]), 0)::int AS "firstFalseSecondTrue",
              sum(k.items)::int AS n
       FROM kinds k
       CROSS JOIN generate_series(1, cardinality(k.ids)) AS x
       CROSS JOIN generate_series(x + 1, cardinality(k.ids)) AS y
       GROUP BY 1, 2, 3
     )
     SELECT
       (SELECT json_agg(u) FROM (
          SELECT user_id COLLATE "C" AS "userId", count(*)::int AS items,
                 percentile_cont(0.5) WITHIN GROUP (ORDER BY active_ms) AS "medianActiveMs",
                 sum(active_ms)::float8 AS "totalActiveMs",
                 (count(*) FILTER (WHERE active_ms < $2))::int AS "fastDecisions",
                 count(DISTINCT updated_at::date)::int AS days,
                 count(final_valid)::int AS resolved,
                 (count(*) FILTER (WHERE valid = final_valid))::int AS "agreeingWithFinal"
          FROM labels GROUP BY 1
        ) u) AS annotators,
       (SELECT json_agg(p) FROM pairs p) AS pairs`,
    campaignId,
    FAST_DECISION_MS,
  );
  return { annotators: row.annotators ?? [], pairs: row.pairs ?? [] };
}

/** What one count of a campaign holds: the counts, its blind labels' groups, and the snapshot they are of. */
const count = z.number();
const confusion = {
  bothTrue: count,
  bothFalse: count,
  firstTrueSecondFalse: count,
  firstFalseSecondTrue: count,
  n: count,
};

/**
 * A kept count as AgreementCounts.counts holds it (JSON, countedAt as text), read back through this
 * schema: a row that does not match (written by an older version) is counted again, never trusted.
 */
const storedCountSchema = z.object({
  /** The counting transaction's snapshot (pg_snapshot as text): the changes it saw are in the counts. */
  snapshot: z.string(),
  countedAt: z.iso.datetime().transform((text) => new Date(text)),
  /** How long the count took: the page waits for counts this fast, and spaces slower ones by it. */
  countMs: count,
  mapping: z.array(z.object({ key: z.string(), criticRule: z.string() })),
  counts: z.object({
    splits: z.array(z.object({ language: z.string(), nValid: count, nInvalid: count, items: count })),
    critic: z.array(z.object({ language: z.string(), ...confusion })),
    execution: z.array(z.object({ language: z.string(), ...confusion, notRun: count })),
    rules: z.array(z.object({ key: z.string(), truePositives: count, falsePositives: count, falseNegatives: count })),
    annotators: z.array(
      z.object({
        userId: z.string(),
        items: count,
        medianActiveMs: count.nullable(),
        totalActiveMs: count,
        fastDecisions: count,
        days: count,
        resolved: count,
        agreeingWithFinal: count,
      }),
    ),
    pairs: z.array(z.object({ language: z.string(), first: z.string(), second: z.string(), ...confusion })),
  }),
  blindGroups: z.array(
    z.object({
      userId: z.string(),
      language: z.string(),
      before: z.boolean(),
      after: z.boolean(),
      criticPass: z.boolean().nullable(),
      executableValid: z.boolean().nullable(),
      count,
    }),
  ),
  signals: z.array(
    z.object({
      signal: z.string(),
      language: z.string(),
      truePositives: count,
      falsePositives: count,
      falseNegatives: count,
      trueNegatives: count,
    }),
  ),
});

type CountedAgreement = z.output<typeof storedCountSchema>;

/**
 * Whether the campaign changed since a count: a row of its change log (one per transaction that
 * changed what its agreement counts, migration 20261202060809) that the count's snapshot did not see.
 * Every transaction below the snapshot's xmin had ended when it was taken, so it saw them: only the
 * rows from xmin on are read (one range of the log's key), not the rows a count is still to delete
 * (a 300,000-row log took 140 ms to read whole).
 */
async function isBehind(campaignId: string, snapshot: string): Promise<boolean> {
  const [row] = await prisma().$queryRaw<{ behind: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM "CampaignChange"
      WHERE "campaignId" = ${campaignId}
        AND txid >= pg_snapshot_xmin(${snapshot}::pg_snapshot)::text::bigint
        AND NOT pg_visible_in_snapshot(txid::text::xid8, ${snapshot}::pg_snapshot)
    ) AS behind`;
  return row.behind;
}

/** Counts one process runs at once: each holds up to two of the client's ten connections. */
const COUNTS_AT_ONCE = 2;
let countsRunning = 0;
const countsWaiting: (() => void)[] = [];

/**
 * Runs `count` once fewer than COUNTS_AT_ONCE counts are running. A count's first transaction waits
 * for one more connection; without a limit, counts of many campaigns at once could hold every
 * connection while each waits for more.
 */
async function inCountSlot<T>(count: () => Promise<T>): Promise<T> {
  if (countsRunning >= COUNTS_AT_ONCE) await new Promise<void>((resolve) => countsWaiting.push(resolve));
  else countsRunning++;
  try {
    return await count();
  } finally {
    // A waiting count takes over the slot; only when none waits is it freed.
    const next = countsWaiting.shift();
    if (next) next();
    else countsRunning--;
  }
}

/**
 * Runs `read` in a repeatable-read transaction of its own connection that sees exactly the snapshot
 * `exported` (pg_export_snapshot of a transaction still open): a part of a count, side by side with
 * the others, counting the same rows.
 */
function inSnapshot<T>(exported: string, read: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return prisma().$transaction(async (tx) => {
    // Before the transaction's first query, as PostgreSQL requires; the id is PostgreSQL's own text.
    await tx.$executeRawUnsafe(`SET TRANSACTION SNAPSHOT '${exported.replaceAll("'", "''")}'`);
    for (const setting of COUNT_SETTINGS) await tx.$executeRawUnsafe(setting);
    return read(tx);
  }, COUNT_TRANSACTION);
}

/**
 * Counts a campaign's agreement and keeps the count. Repeatable-read transactions that share one
 * snapshot, so the counts and the snapshot they are stored with agree: a write that commits meanwhile
 * leaves a change the snapshot did not see, and the next read counts again. The first transaction
 * exports its snapshot and counts the items (with the signals) and the blind labels; a second, on
 * its own connection, imports it and counts the labels at the same time. The two halves take about
 * as long, so they keep two cores busy to the end (with the signals as a third statement on a third
 * connection, three statements shared two cores and the labels finished last).
 */
async function countAgreement(campaignId: string): Promise<CountedAgreement> {
  const started = performance.now();
  const counted = await prisma().$transaction(async (tx) => {
    for (const setting of COUNT_SETTINGS) await tx.$executeRawUnsafe(setting);
    // The transaction's first query: repeatable read takes its snapshot here and keeps it, and the
    // other parts import it while this transaction is still open.
    const [{ snapshot, exported }] = await tx.$queryRaw<{ snapshot: string; exported: string }[]>`
      SELECT pg_current_snapshot()::text AS snapshot, pg_export_snapshot() AS exported`;
    const labelCounts = inSnapshot(exported, (other) => queryLabelCounts(other, campaignId));
    // Awaited below; until then its failure must not go unhandled.
    labelCounts.catch(() => undefined);
    const categories = await tx.errorCategory.findMany({
      where: { campaignId },
      orderBy: { position: "asc" },
      select: { key: true, criticRule: true },
    });
    const mapping = categories.flatMap(({ key, criticRule }) => (criticRule ? [{ key, criticRule }] : []));
    const { counts: itemCounts, signals } = await queryItemCounts(tx, campaignId, mapping);
    const blindGroups = await tx.$queryRawUnsafe<BlindGroupRow[]>(BLIND_GROUPS_SQL, campaignId);
    const { annotators, pairs } = await labelCounts;
    const counts = { ...itemCounts, annotators, pairs };
    const countMs = Math.round(performance.now() - started);
    return { snapshot, countedAt: new Date(), countMs, mapping, counts, blindGroups, signals };
  }, COUNT_TRANSACTION);
  const stored: z.input<typeof storedCountSchema> = { ...counted, countedAt: counted.countedAt.toISOString() };
  // Two instances may count at once: the count whose snapshot sees more stays.
  const kept = await prisma().$queryRaw<{ snapshot: string }[]>`
    INSERT INTO "AgreementCounts" ("campaignId", snapshot, "countedAt", counts)
    VALUES (${campaignId}, ${counted.snapshot}, ${counted.countedAt}, ${stored})
    ON CONFLICT ("campaignId") DO UPDATE
    SET snapshot = EXCLUDED.snapshot, "countedAt" = EXCLUDED."countedAt", counts = EXCLUDED.counts
    WHERE verity_snapshot_covers(EXCLUDED.snapshot::pg_snapshot, "AgreementCounts".snapshot::pg_snapshot)
    RETURNING snapshot`;
  if (kept.length > 0) void forgetSeenChanges(campaignId, counted.snapshot);
  return counted;
}

/**
 * Deletes the log rows a kept count's snapshot saw, so the log holds only the changes since the
 * kept count. After the count is answered, not before: deleting 300,000 rows takes 0.3–0.5 s, and
 * rows its snapshot saw never make a kept count behind (isBehind reads only what it did not see),
 * so until they are gone they cost nothing but space. A later count deletes whatever this one
 * leaves (a newer kept snapshot sees all this one saw).
 */
async function forgetSeenChanges(campaignId: string, snapshot: string): Promise<void> {
  try {
    await prisma().$executeRaw`
      DELETE FROM "CampaignChange"
      WHERE "campaignId" = ${campaignId} AND pg_visible_in_snapshot(txid::text::xid8, ${snapshot}::pg_snapshot)`;
  } catch (error) {
    console.warn(`agreement: the change log of campaign ${campaignId} was not compacted (the next count will):`, error);
  }
}

/** Counts under way in this process, by campaign: requests that find a campaign's count stale share one. */
const countsUnderWay = new Map<string, Promise<CountedAgreement>>();

function countOnce(campaignId: string): Promise<CountedAgreement> {
  const underWay = countsUnderWay.get(campaignId);
  if (underWay) return underWay;
  const counting = inCountSlot(() => countAgreement(campaignId)).finally(() => countsUnderWay.delete(campaignId));
  countsUnderWay.set(campaignId, counting);
  return counting;
}

/**
 * A count that sees every change before this call. One already under way may have taken its
 * snapshot before the change the caller found, so the caller waits for it to end; if the kept count
 * is then no longer behind (the count under way saw every change logged), that is the answer, and
 * otherwise the caller shares the next count. (A page view that started a background count just
 * before an exact read no longer costs that read two counts.)
 */
async function countStartingNow(campaignId: string): Promise<CountedAgreement> {
  const underWay = countsUnderWay.get(campaignId);
  if (underWay) {
    await underWay.catch(() => undefined);
    const { kept, behind } = await keptCount(campaignId);
    if (kept && !behind) return kept;
  }
  return countOnce(campaignId);
}

/** The kept count of a campaign (null when never counted) and whether the campaign changed since. */
async function keptCount(campaignId: string): Promise<{ kept: CountedAgreement | null; behind: boolean }> {
  const row = await prisma().agreementCounts.findUnique({ where: { campaignId }, select: { counts: true } });
  const stored = storedCountSchema.safeParse(row?.counts);
  if (!stored.success) return { kept: null, behind: true };
  const kept = stored.data;
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

/** Campaigns whose log is looked at again when the count under way ends: one look per campaign. */
const checksAfterCount = new Set<string>();

function logCountFailure(campaignId: string, error: unknown): void {
  console.error(`verity: counting the agreement of campaign ${campaignId} failed:`, error);
}

/**
 * Counts a campaign in the background once `inMs` has passed (at once when it has), unless one is
 * already scheduled: every page view that finds the count behind leaves one coming, so the change log
 * is counted and emptied even if nobody opens the page again. A count already under way may have
 * taken its snapshot before the change the view found; when it ends, the log is looked at again and
 * what it did not see is counted in turn, spaced by its gap.
 */
function countInBackground(campaignId: string, inMs: number): void {
  if (countsScheduled.has(campaignId)) return;
  if (countsUnderWay.has(campaignId)) return checkAfterCount(campaignId);
  const start = () => {
    countsScheduled.delete(campaignId);
    if (countsUnderWay.has(campaignId)) return checkAfterCount(campaignId);
    countOnce(campaignId).catch((error: unknown) => logCountFailure(campaignId, error));
  };
  if (inMs <= 0) return start();
  // Unreferenced: a waiting count never keeps a CLI or test process alive.
  countsScheduled.set(campaignId, setTimeout(start, inMs).unref());
}

/** Once the count under way ends, schedules the next if the log still holds changes it did not see. */
function checkAfterCount(campaignId: string): void {
  const underWay = countsUnderWay.get(campaignId);
  if (!underWay || checksAfterCount.has(campaignId)) return;
  checksAfterCount.add(campaignId);
  underWay
    .catch(() => undefined)
    .then(async () => {
      checksAfterCount.delete(campaignId);
      const { kept, behind } = await keptCount(campaignId);
      if (behind) countInBackground(campaignId, kept ? nextCountInMs(kept) : 0);
    })
    .catch((error: unknown) => logCountFailure(campaignId, error));
}

/** How long until a slow count's gap has passed (at most 0 when it has). */
function nextCountInMs(kept: CountedAgreement): number {
  return kept.countedAt.getTime() + recountGapMs(kept.countMs) - Date.now();
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
    countInBackground(campaignId, nextCountInMs(kept));
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
    /** How far each automatic signal can be trusted against the final labels (lib/metrics/signal-trust.ts, from the counts of queryItemCounts). */
    signals: signalTrustTable(signals),
  };
}
