import "server-only";

import { wilsonInterval } from "@/lib/metrics";
import { humanAgreementFromSplits, kappaFromConfusion, type LabelSplit } from "@/lib/metrics/campaign-agreement";
import type { ReportRow } from "@/lib/reports/format";
import type { CampaignReport, DatasetReport } from "@/lib/reports/types";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, isSystemActor, type SystemActor } from "@/lib/server/auth/permissions";

import { AppError } from "@/lib/server/errors";

import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { getCampaignForSystem } from "@/lib/server/campaigns/get-campaign-for-system";
import { prisma } from "@/lib/server/db/client";
import { finalLabelsOf } from "@/lib/server/review/final-labels";

type Counts = {
  sampled: number;
  labelled: number;
  resolved: number;
  valid: number;
  criticKnown: number;
  criticPass: number;
  execKnown: number;
  execValid: number;
  execUnavailable: number;
  bothValid: number;
  bothInvalid: number;
  humanValidCriticInvalid: number;
  humanInvalidCriticValid: number;
};

const COUNT_KEYS: (keyof Counts)[] = [
  "sampled",
  "labelled",
  "resolved",
  "valid",
  "criticKnown",
  "criticPass",
  "execKnown",
  "execValid",
  "execUnavailable",
  "bothValid",
  "bothInvalid",
  "humanValidCriticInvalid",
  "humanInvalidCriticValid",
];

/** The one-query transaction that carries work_mem: as long as the read takes on a loaded machine (Prisma's default is 15 s). */
const READ_TRANSACTION = { timeout: 120_000, maxWait: 30_000 };

type CountRow = Counts & { language: string; difficulty: string };
type CategoryRow = { language: string; category: string; count: number };
type SplitRow = { language: string } & LabelSplit;

/** What CountRow counts, over rows of the final-label relation. */
const COUNT_COLUMNS = `count(*)::int AS sampled,
  (count(*) FILTER (WHERE n > 0))::int AS labelled,
  count(final_valid)::int AS resolved,
  (count(*) FILTER (WHERE final_valid))::int AS valid,
  count(critic_pass)::int AS "criticKnown",
  (count(*) FILTER (WHERE critic_pass))::int AS "criticPass",
  count(exec_valid)::int AS "execKnown",
  (count(*) FILTER (WHERE exec_valid))::int AS "execValid",
  (count(*) FILTER (WHERE exec_unavailable))::int AS "execUnavailable",
  (count(*) FILTER (WHERE final_valid AND critic_pass))::int AS "bothValid",
  (count(*) FILTER (WHERE NOT final_valid AND NOT critic_pass))::int AS "bothInvalid",
  (count(*) FILTER (WHERE final_valid AND NOT critic_pass))::int AS "humanValidCriticInvalid",
  (count(*) FILTER (WHERE NOT final_valid AND critic_pass))::int AS "humanInvalidCriticValid"`;

/** The final categories of the finally Invalid rows of `rows`, per language. */
const categoriesOf = (rows: string) => `SELECT f.language, category, count(*)::int AS count
  FROM ${rows} f CROSS JOIN unnest(f.final_categories) AS category
  WHERE f.final_valid = false
  GROUP BY 1, 2`;

/**
 * The flaky records of the campaigns' datasets (repeated runs gave different outcomes), by the
 * (datasetId, flaky) index: a handful. Their first run decides nothing, so "executable-valid"
 * leaves them out (they are counted beside it, `flaky`).
 */
const FLAKY_RECORDS = `flaky AS MATERIALIZED (
    SELECT coalesce(array_agg(r.id), '{}') AS ids FROM "Record" r
    WHERE r.flaky AND r."datasetId" IN (SELECT "datasetId" FROM "Campaign" WHERE id = ANY($1::text[]))
  )`;

/**
 * The items of repaired records (an accepted revision: a handful, by the revisions' status index)
 * with the revision their figures speak of: the one their labels were given on (the adjudication's,
 * else the latest label's), or the record's current one while unlabelled; and that revision's stored
 * execution. The relation reads execution and critic from the record as it is now, so without this a
 * row would count a label given on the import beside the repair's run.
 */
const REVISED_ITEMS = `revised AS MATERIALIZED (
    SELECT d.item_id, d.record_id, d.described = d.current AS is_current, d.described = 1 AS is_import,
           rv."executableValid" AS exec_valid
    FROM (
      SELECT i.id AS item_id, r.id AS record_id, r.revision AS current,
             coalesce(adj."recordRevision",
                      (SELECT max(a."recordRevision") FROM "Annotation" a WHERE a."itemId" = i.id),
                      r.revision) AS described
      FROM "Record" r
      JOIN "CampaignItem" i ON i."recordId" = r.id AND i."campaignId" = ANY($1::text[]) AND NOT i.gold
      LEFT JOIN "Adjudication" adj ON adj."itemId" = i.id
      WHERE r.id IN (SELECT "recordId" FROM "RecordRevision" WHERE status = 'ACCEPTED')
    ) d
    LEFT JOIN "RecordRevision" rv ON rv."recordId" = d.record_id AND rv.number = d.described
  )`;

/**
 * A row's critic verdict and execution for the figures, all of one revision (with `revised v` joined
 * on the item): the imported critic judged the import, so it counts only beside labels given on it;
 * an earlier revision's execution is its stored one (unknown when it was never kept), and a flaky
 * record's current execution decides nothing.
 */
const EVIDENCE_AT_LABELLED_REVISION = `CASE WHEN v.item_id IS NOT NULL AND NOT v.is_import THEN NULL ELSE f.critic_pass END AS critic_pass,
  CASE WHEN v.item_id IS NOT NULL AND NOT v.is_current THEN v.exec_valid
       WHEN f.record_id = ANY(flaky.ids) THEN NULL ELSE f.exec_valid END AS exec_valid,
  CASE WHEN v.item_id IS NOT NULL AND NOT v.is_current THEN false ELSE f.exec_unavailable END AS exec_unavailable`;

/** COUNT_COLUMNS' counts summed over rows that already hold them (cells of the same shape). */
const SUMMED_COUNT_COLUMNS = COUNT_KEYS.map((key) => `sum("${key}")::int AS "${key}"`).join(", ");

/**
 * One campaign holds a record once, so its items are its finals. The items are counted per
 * (language, difficulty, labels, valid labels) cell: the items of records never repaired in one
 * parallel scan, each worker counting its share, so a few hundred cells leave the workers rather
 * than 100,000 rows (the flaky and repaired records reach the workers as InitPlan values, not as CTE
 * scans, which would keep the joins and the counting in one process); the handful of repaired
 * records' items apart (by record: the campaign holds each once), with the evidence of the revision
 * they were labelled on. The counted columns of the items and the critic verdicts are index-only
 * scans of CampaignItem_progress_idx and CriticVerdict_pass_idx. Two grouping sets
 * over the cells give the counts per (language, difficulty) and the label splits. The final
 * categories of the items finally Invalid are a range of `CampaignItem_invalid_idx`.
 */
const ONE_CAMPAIGN_FIGURES = `WITH ${FLAKY_RECORDS}, ${REVISED_ITEMS},
  cells AS (
    SELECT language, difficulty, n, n_valid, ${COUNT_COLUMNS}
    FROM (SELECT f.language, coalesce(f.difficulty, 'unknown') AS difficulty, f.n, f.n_valid, f.final_valid, f.critic_pass,
                 CASE WHEN f.record_id = ANY((SELECT ids FROM flaky)::int[]) THEN NULL ELSE f.exec_valid END AS exec_valid,
                 f.exec_unavailable
          FROM ${finalLabelsOf("$1::text[]")} f
          WHERE f.record_id <> ALL((SELECT coalesce(array_agg(record_id), '{}') FROM revised)::int[])) f
    GROUP BY 1, 2, 3, 4
    UNION ALL
    SELECT language, difficulty, n, n_valid, ${COUNT_COLUMNS}
    FROM (SELECT f.language, coalesce(f.difficulty, 'unknown') AS difficulty, f.n, f.n_valid, f.final_valid,
                 ${EVIDENCE_AT_LABELLED_REVISION}
          FROM ${finalLabelsOf("$1::text[]")} f CROSS JOIN flaky JOIN revised v ON v.item_id = f.item_id) f
    GROUP BY 1, 2, 3, 4
  ),
  grouped AS (
    SELECT language, difficulty, n_valid AS "nValid", n - n_valid AS "nInvalid", GROUPING(n) = 0 AS split, ${SUMMED_COUNT_COLUMNS}
    FROM cells
    GROUP BY GROUPING SETS ((language, difficulty), (language, n_valid, n))
    HAVING GROUPING(n) = 1 OR n >= 2
  ),
  categories AS (${categoriesOf(finalLabelsOf("$1::text[]"))})
  SELECT (SELECT json_agg(to_jsonb(g) - 'nValid' - 'nInvalid' - 'split') FROM grouped g WHERE NOT split) AS counts,
         (SELECT json_agg(categories) FROM categories) AS categories,
         (SELECT json_agg(json_build_object('language', language, 'nValid', "nValid", 'nInvalid', "nInvalid", 'items', sampled))
          FROM grouped WHERE split) AS splits`;

/**
 * Across campaigns a record counts once, with its strongest item (latest campaign on a tie); the
 * label splits count every item.
 */
const CAMPAIGNS_FIGURES = `WITH ${FLAKY_RECORDS}, ${REVISED_ITEMS},
  items AS MATERIALIZED (
    SELECT f.item_id, f.campaign_id, f.record_id, f.language, coalesce(f.difficulty, 'unknown') AS difficulty, f.n,
           f.n_valid, f.strength, f.final_valid, f.final_categories, ${EVIDENCE_AT_LABELLED_REVISION}
    FROM ${finalLabelsOf("$1::text[]")} f CROSS JOIN flaky LEFT JOIN revised v ON v.item_id = f.item_id
  ),
  finals AS MATERIALIZED (
    SELECT DISTINCT ON (record_id) * FROM items ORDER BY record_id, strength DESC, array_position($1::text[], campaign_id) DESC
  ),
  counts AS (SELECT language, difficulty, ${COUNT_COLUMNS} FROM finals GROUP BY language, difficulty),
  categories AS (${categoriesOf("finals")}),
  splits AS (
    SELECT language, n_valid AS "nValid", n - n_valid AS "nInvalid", count(*)::int AS items
    FROM items WHERE n >= 2 GROUP BY 1, 2, 3
  )
  SELECT (SELECT json_agg(counts) FROM counts) AS counts, (SELECT json_agg(categories) FROM categories) AS categories,
         (SELECT json_agg(splits) FROM splits) AS splits`;

/**
 * From the final labels of the counted items of `campaignIds` (finalLabelsOf; over several campaigns
 * a record keeps its strongest evidence, `evidenceStrength`, the latest campaign on a tie): counts per
 * (language, difficulty), which the caller sums per language and per difficulty; the final
 * categories of the items finally Invalid, per language; and the label splits of every item with two
 * labels or more, for Krippendorff's alpha. One statement, so all three see one snapshot.
 */
async function queryFigures(
  campaignIds: string[],
): Promise<{ counts: CountRow[]; categories: CategoryRow[]; splits: SplitRow[] }> {
  const [figures] = await prisma().$transaction(async (tx) => {
    // For this transaction only, in one round trip. 100,000 kept rows are tens of MiB: within the
    // default work_mem they spill to temporary files. The statement is a few scans of every item: the
    // planner's default costs keep it on one core (a Gather of 100,000 rows looks dear), where two
    // halve it (docs/benchmarks.md, issue 21).
    await tx.$queryRawUnsafe(
      `SELECT set_config('work_mem', '96MB', true), set_config('parallel_setup_cost', '0', true),
              set_config('parallel_tuple_cost', '0', true)`,
    );
    return tx.$queryRawUnsafe<
      { counts: CountRow[] | null; categories: CategoryRow[] | null; splits: SplitRow[] | null }[]
    >(campaignIds.length === 1 ? ONE_CAMPAIGN_FIGURES : CAMPAIGNS_FIGURES, campaignIds);
  }, READ_TRANSACTION);
  return { counts: figures.counts ?? [], categories: figures.categories ?? [], splits: figures.splits ?? [] };
}

function ratio(numerator: number, denominator: number): number | null {
  return denominator > 0 ? numerator / denominator : null;
}

function alphaFromSplits(splits: LabelSplit[]): number | null {
  return humanAgreementFromSplits(splits, null).krippendorffAlpha;
}

function kappaFromCounts(counts: Counts): number | null {
  return kappaFromConfusion({
    bothTrue: counts.bothValid,
    bothFalse: counts.bothInvalid,
    firstTrueSecondFalse: counts.humanValidCriticInvalid,
    firstFalseSecondTrue: counts.humanInvalidCriticValid,
    n: counts.bothValid + counts.bothInvalid + counts.humanValidCriticInvalid + counts.humanInvalidCriticValid,
  });
}

function toRow(
  counts: Counts,
  splits: { nValid: number; nInvalid: number; items: number }[],
  categories: Record<string, number>,
): ReportRow {
  return {
    sampled: counts.sampled,
    labelled: counts.labelled,
    resolved: counts.resolved,
    valid: counts.valid,
    validity: ratio(counts.valid, counts.resolved),
    ci: wilsonInterval(counts.valid, counts.resolved),
    criticPass: ratio(counts.criticPass, counts.criticKnown),
    criticN: counts.criticKnown,
    executableValid: ratio(counts.execValid, counts.execKnown),
    executableN: counts.execKnown,
    executableUnavailable: counts.execUnavailable,
    humanCriticKappa: kappaFromCounts(counts),
    alpha: alphaFromSplits(splits),
    topCategories: Object.entries(categories)
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
      .slice(0, 3)
      .map(([key, count]) => ({ key, count })),
  };
}

function mean(values: (number | null)[]): number | null {
  const defined = values.filter((value): value is number => value !== null);
  return defined.length ? defined.reduce((sum, value) => sum + value, 0) / defined.length : null;
}

/**
 * The validity report of a campaign, counted in SQL under final labels decided by `finalVerdict`
 * (final-labels.ts): per language sampled, labelled, resolved and valid items, validity with its Wilson 95% interval, critic pass and executable-valid rates,
 * human–critic kappa, annotator alpha and top error categories; pooled and macro totals; breakdowns
 * by difficulty and error category. Scope: reports:export (the system actor: operator CLI).
 */
export async function getCampaignReport({
  actor,
  campaignId,
}: {
  actor: Actor | SystemActor;
  campaignId: string;
}): Promise<CampaignReport> {
  assertCan(actor, "reports:export");
  // The system (operator CLI) sees every campaign; people see what getCampaign lets them.
  const campaign = isSystemActor(actor)
    ? await getCampaignForSystem({ actor, campaignId })
    : await getCampaign({ actor, campaignId });
  const categoryDefs = await prisma().errorCategory.findMany({
    where: { campaignId },
    orderBy: { position: "asc" },
    select: { key: true, label: true },
  });
  const report = await buildReport(
    {
      id: campaign.id,
      name: campaign.name,
      dataset: campaign.dataset,
      finalRule: campaign.finalRule,
      overlap: campaign.overlap,
    },
    [campaign],
    categoryDefs,
  );
  if (campaign.sampling === "random") return report;
  // Items chosen by suspicion say how many suspicious records were invalid, not how many records are:
  // the counts stay, the rates go.
  return { ...withoutRates(report), sampling: { mode: "suspicion", note: SUSPICION_CAMPAIGN_NOTE } };
}

/** The report with every rate (validity and its interval, critic pass, executable-valid) withheld. Pure. */
function withoutRates(report: CampaignReport): CampaignReport {
  const row = (figures: ReportRow): ReportRow => ({
    ...figures,
    validity: null,
    ci: null,
    criticPass: null,
    executableValid: null,
  });
  return {
    ...report,
    byLanguage: Object.fromEntries(
      Object.entries(report.byLanguage).map(([language, figures]) => [language, row(figures)]),
    ),
    pooled: row(report.pooled),
    macro: row(report.macro),
    byDifficulty: Object.fromEntries(
      Object.entries(report.byDifficulty).map(([difficulty, figures]) => [
        difficulty,
        { ...figures, validity: null, ci: null },
      ]),
    ),
    byCategory: report.byCategory.map((category) => ({ ...category, shareOfInvalid: null })),
  };
}

/** What a random campaign's report says about its rates. */
const RANDOM_CAMPAIGN_NOTE =
  "The campaign's items are a seeded random sample of the dataset: its rates estimate the dataset's.";

/** Why a suspicion-ordered campaign's report gives counts and no rates. */
const SUSPICION_CAMPAIGN_NOTE =
  "This campaign took the most suspicious records first (for cleaning), so its items are no sample of the dataset: the report gives counts and no rates, and the dataset's report leaves its items out.";

/** How a record labelled in several campaigns counts once; shown on the page and in the Markdown. */
const CROSS_CAMPAIGN_RULE =
  "A record labelled in several campaigns counts once, with its strongest resolved label: an adjudication beats annotators' labels, more annotators agreeing beat fewer (two agreeing beat one), and on a tie the latest campaign wins.";

/**
 * The validity report of a dataset across all its campaigns: each record counts once, with its
 * strongest resolved label (CROSS_CAMPAIGN_RULE). Scope: reports:export (the system actor: operator CLI).
 */
export async function getDatasetReport({
  actor,
  datasetName,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
}): Promise<DatasetReport> {
  assertCan(actor, "reports:export");
  const dataset = await prisma().dataset.findUnique({
    where: { name: datasetName },
    select: {
      id: true,
      name: true,
      campaigns: {
        orderBy: { createdAt: "asc" },
        select: {
          id: true,
          name: true,
          finalRule: true,
          overlap: true,
          sampling: true,
          categories: { orderBy: { position: "asc" }, select: { key: true, label: true } },
        },
      },
    },
  });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  // Validity is estimated from random samples only: a suspicion-ordered campaign must never move it.
  const campaigns = dataset.campaigns.filter((campaign) => campaign.sampling === "RANDOM");
  const suspicion = dataset.campaigns.filter((campaign) => campaign.sampling !== "RANDOM");
  const [leftOutItems, leftOutLabelled] = suspicion.length
    ? await Promise.all([
        prisma().campaignItem.count({ where: { campaignId: { in: suspicion.map((c) => c.id) }, gold: false } }),
        prisma().campaignItem.count({
          where: { campaignId: { in: suspicion.map((c) => c.id) }, gold: false, labelCount: { gt: 0 } },
        }),
      ])
    : [0, 0];
  const categoryDefs = [
    ...new Map(
      campaigns.flatMap((campaign) => campaign.categories).map((category) => [category.key, category]),
    ).values(),
  ];
  const rules = [...new Set(campaigns.map((campaign) => campaign.finalRule))];
  const report = await buildReport(
    {
      id: dataset.id,
      name: dataset.name,
      dataset: dataset.name,
      finalRule: rules.join(" / ") || "consensus",
      overlap: Math.max(1, ...campaigns.map((campaign) => campaign.overlap)),
    },
    campaigns,
    categoryDefs,
  );
  return {
    ...report,
    sampling: { mode: "random", note: datasetSamplingNote(suspicion.length, leftOutLabelled) },
    campaigns: campaigns.map(({ id, name, finalRule }) => ({ id, name, finalRule })),
    rule: CROSS_CAMPAIGN_RULE,
    leftOut: {
      campaigns: suspicion.map(({ id, name }) => ({ id, name })),
      items: leftOutItems,
      labelledItems: leftOutLabelled,
    },
  };
}

/** The dataset report's word on sampling: random campaigns only, and what it left out. Pure. */
function datasetSamplingNote(suspicionCampaigns: number, labelledItems: number): string {
  const rule =
    "Rates count only randomly sampled campaigns' items; campaigns ordered by suspicion (for cleaning) are left out, so they never bias the validity estimate.";
  if (suspicionCampaigns === 0) return rule;
  return `${rule} Left out: ${suspicionCampaigns} suspicion-ordered campaign${suspicionCampaigns === 1 ? "" : "s"} with ${labelledItems} labelled item${labelledItems === 1 ? "" : "s"}.`;
}

/** Sums count rows by one of their keys, groups in order. */
function sumBy(rows: CountRow[], key: "language" | "difficulty"): Map<string, Counts> {
  const sums = new Map<string, Counts>();
  for (const row of [...rows].sort((a, b) => a[key].localeCompare(b[key]))) {
    const sum = sums.get(row[key]) ?? (Object.fromEntries(COUNT_KEYS.map((count) => [count, 0])) as Counts);
    for (const count of COUNT_KEYS) sum[count] += row[count];
    sums.set(row[key], sum);
  }
  return sums;
}

type FlakyRow = { language: string; records: number };

/** Every figure of a report over the counted items of `campaigns` (oldest campaign first). */
async function buildReport(
  meta: CampaignReport["campaign"],
  campaigns: { id: string; finalRule: string; overlap: number }[],
  categoryDefs: { key: string; label: string }[],
): Promise<CampaignReport> {
  const campaignIds = campaigns.map((campaign) => campaign.id);
  const [figures, flakyRows] = await Promise.all([
    queryFigures(campaignIds),
    prisma().$queryRaw<FlakyRow[]>`
      SELECT r.language, count(DISTINCT r.id)::int AS records
      FROM "CampaignItem" ci JOIN "Record" r ON r.id = ci."recordId"
      WHERE ci."campaignId" = ANY(${campaignIds}::text[]) AND NOT ci.gold AND r.flaky
      GROUP BY r.language`,
  ]);
  return assembleReport(meta, { ...figures, flakyRows }, categoryDefs);
}

/**
 * The report from its rows, whatever order the database returned them in: a parallel plan returns
 * groups in a different order from run to run, and the report's key order and float sums follow the
 * order they are read in, so the same data must give the same bytes (a rerun is compared byte for byte).
 */
export function assembleReport(
  meta: CampaignReport["campaign"],
  figures: { counts: CountRow[]; categories: CategoryRow[]; splits: SplitRow[]; flakyRows: FlakyRow[] },
  categoryDefs: { key: string; label: string }[],
): CampaignReport {
  const counts = figures.counts;
  const categoryRows = [...figures.categories].sort(
    (a, b) => a.language.localeCompare(b.language) || a.category.localeCompare(b.category),
  );
  const splits = [...figures.splits].sort(
    (a, b) =>
      a.language.localeCompare(b.language) || a.nValid - b.nValid || a.nInvalid - b.nInvalid || a.items - b.items,
  );
  const flakyRows = [...figures.flakyRows].sort((a, b) => a.language.localeCompare(b.language));
  const categoriesByLanguage: Record<string, Record<string, number>> = {};
  const allCategories: Record<string, number> = {};
  for (const row of categoryRows) {
    const language = (categoriesByLanguage[row.language] ??= {});
    language[row.category] = (language[row.category] ?? 0) + row.count;
    allCategories[row.category] = (allCategories[row.category] ?? 0) + row.count;
  }

  const byLanguageCounts = sumBy(counts, "language");
  const byDifficultyCounts = sumBy(counts, "difficulty");
  const byLanguage: Record<string, ReportRow> = {};
  for (const [language, sums] of byLanguageCounts) {
    byLanguage[language] = toRow(
      sums,
      splits.filter((split) => split.language === language),
      categoriesByLanguage[language] ?? {},
    );
  }
  const totals = Object.fromEntries(
    COUNT_KEYS.map((key) => [key, [...byLanguageCounts.values()].reduce((sum, row) => sum + row[key], 0)]),
  ) as Counts;
  const pooled = toRow(totals, splits, allCategories);
  const rows = Object.values(byLanguage);
  const macro: ReportRow = {
    ...pooled,
    validity: mean(rows.map((row) => row.validity)),
    ci: null,
    criticPass: mean(rows.map((row) => row.criticPass)),
    executableValid: mean(rows.map((row) => row.executableValid)),
    humanCriticKappa: mean(rows.map((row) => row.humanCriticKappa)),
    alpha: mean(rows.map((row) => row.alpha)),
  };
  const invalidItems = totals.resolved - totals.valid;
  return {
    campaign: meta,
    sampling: { mode: "random", note: RANDOM_CAMPAIGN_NOTE },
    byLanguage,
    pooled,
    macro,
    byDifficulty: Object.fromEntries(
      [...byDifficultyCounts].map(([difficulty, counts]) => [
        difficulty,
        {
          sampled: counts.sampled,
          resolved: counts.resolved,
          valid: counts.valid,
          validity: ratio(counts.valid, counts.resolved),
          ci: wilsonInterval(counts.valid, counts.resolved),
        },
      ]),
    ),
    byCategory: categoryDefs.map((definition) => ({
      key: definition.key,
      label: definition.label,
      count: allCategories[definition.key] ?? 0,
      shareOfInvalid: ratio(allCategories[definition.key] ?? 0, invalidItems),
    })),
    categoriesByLanguage,
    flaky: {
      records: flakyRows.reduce((sum, row) => sum + row.records, 0),
      byLanguage: Object.fromEntries(flakyRows.map((row) => [row.language, row.records])),
    },
  };
}
