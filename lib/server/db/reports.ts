import "server-only";

import { cohensKappa, krippendorffAlphaNominal, wilsonInterval } from "@/lib/metrics";
import type { ReportRow } from "@/lib/reports/format";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";

import { AppError } from "@/lib/server/errors";

import { getCampaign, getCampaignForOperator } from "./campaigns";
import { prisma } from "./client";

export type { ReportRow };

export type CampaignReport = {
  campaign: { id: string; name: string; dataset: string; finalRule: string; overlap: number };
  byLanguage: Record<string, ReportRow>;
  pooled: ReportRow;
  /** Unweighted mean over languages of each rate; counts are totals; no interval. */
  macro: ReportRow;
  byDifficulty: Record<string, Pick<ReportRow, "sampled" | "resolved" | "valid" | "validity" | "ci">>;
  byCategory: { key: string; label: string; count: number; shareOfInvalid: number | null }[];
  categoriesByLanguage: Record<string, Record<string, number>>;
};

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

const COUNT_KEYS: (keyof Counts)[] = ["sampled", "labelled", "resolved", "valid", "criticKnown", "criticPass", "execKnown", "execValid", "execUnavailable", "bothValid", "bothInvalid", "humanValidCriticInvalid", "humanInvalidCriticValid"];

// The per-item final label in SQL, mirroring `finalLabel` in lib/metrics: an adjudication wins;
// then unanimity; then the item's campaign rule (majority: more than half; strict: any Invalid).
// $1 is the list of campaign ids. Over several campaigns a record counts once, with its strongest
// resolved label (CROSS_CAMPAIGN_RULE): an adjudication beats annotators; more annotators agreeing
// with the final label beat fewer; on a tie the latest campaign wins. Unresolved items come last.
const FINALS_CTE = `
  items AS (
    SELECT i.id, i."recordId", i.language, coalesce(r.difficulty, 'unknown') AS difficulty, i."labelCount" AS n, i."validCount" AS n_valid,
           adj.valid AS adj_valid, adj.categories AS adj_categories, c."overallPass" AS critic_pass, r."executableValid" AS exec_valid, r."verificationOutcome" = 'UNAVAILABLE' AS exec_unavailable,
           cmp."finalRule" AS rule, cmp."createdAt" AS campaign_created
    FROM "CampaignItem" i
    JOIN "Campaign" cmp ON cmp.id = i."campaignId"
    JOIN "Record" r ON r.id = i."recordId"
    LEFT JOIN "Adjudication" adj ON adj."itemId" = i.id
    LEFT JOIN "CriticVerdict" c ON c."recordId" = i."recordId"
    WHERE i."campaignId" = ANY($1::text[]) AND NOT i.gold -- gold items only measure annotators
  ),
  judged AS (
    SELECT *, CASE
      WHEN adj_valid IS NOT NULL THEN adj_valid
      WHEN n = 0 THEN NULL
      WHEN n_valid = n THEN true
      WHEN n_valid = 0 THEN false
      WHEN rule = 'strict' THEN false
      WHEN rule = 'majority' AND n_valid * 2 > n THEN true
      WHEN rule = 'majority' AND (n - n_valid) * 2 > n THEN false
      ELSE NULL END AS final_valid
    FROM items
  ),
  finals AS (
    SELECT DISTINCT ON ("recordId") * FROM judged
    ORDER BY "recordId", (final_valid IS NULL), (adj_valid IS NOT NULL) DESC,
             (CASE WHEN final_valid THEN n_valid ELSE n - n_valid END) DESC, campaign_created DESC
  )`;

async function queryCounts(campaignIds: string[], groupBy: "language" | "difficulty") {
  return prisma().$queryRawUnsafe<(Counts & { grp: string })[]>(
    `WITH ${FINALS_CTE}
     SELECT ${groupBy} AS grp,
       count(*)::int AS sampled,
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
       (count(*) FILTER (WHERE NOT final_valid AND critic_pass))::int AS "humanInvalidCriticValid"
     FROM finals GROUP BY ${groupBy} ORDER BY ${groupBy}`,
    campaignIds,
  );
}

/** Final categories of invalid items: the adjudicator's, else the invalidating ones of those who said Invalid. */
async function queryCategories(campaignIds: string[]) {
  return prisma().$queryRawUnsafe<{ language: string; category: string; count: number }[]>(
    `WITH ${FINALS_CTE},
     item_categories AS (
       SELECT f.id, f.language, unnest(f.adj_categories) AS category FROM finals f WHERE f.final_valid = false AND f.adj_valid IS NOT NULL
       UNION
       SELECT f.id, f.language, unnest(a.categories) AS category
       FROM finals f JOIN "Annotation" a ON a."itemId" = f.id AND NOT a.valid
       WHERE f.final_valid = false AND f.adj_valid IS NULL
     )
     SELECT ic.language, ic.category, count(*)::int AS count
     FROM item_categories ic
     JOIN finals f ON f.id = ic.id
     JOIN "CampaignItem" ci ON ci.id = ic.id
     JOIN "ErrorCategory" ec ON ec."campaignId" = ci."campaignId" AND ec.key = ic.category
     WHERE ec.invalidating OR ic.id IN (SELECT id FROM finals WHERE adj_valid IS NOT NULL)
     GROUP BY ic.language, ic.category`,
    campaignIds,
  );
}

/** How many items had each (valid, invalid) split of labels, per language: enough for Krippendorff's alpha. */
async function querySplits(campaignIds: string[]) {
  return prisma().$queryRaw<{ language: string; nValid: number; nInvalid: number; items: number }[]>`
    SELECT language, "validCount" AS "nValid", ("labelCount" - "validCount") AS "nInvalid", count(*)::int AS items
    FROM "CampaignItem"
    WHERE "campaignId" = ANY(${campaignIds}::text[]) AND NOT gold AND "labelCount" >= 2
    GROUP BY 1, 2, 3`;
}

function ratio(numerator: number, denominator: number): number | null {
  return denominator > 0 ? numerator / denominator : null;
}

function alphaFromSplits(splits: { nValid: number; nInvalid: number; items: number }[]): number | null {
  const units = splits.flatMap((split) => Array.from({ length: split.items }, () => [...Array<boolean>(split.nValid).fill(true), ...Array<boolean>(split.nInvalid).fill(false)]));
  return krippendorffAlphaNominal(units);
}

function kappaFromConfusion(counts: Counts): number | null {
  const pairs: [boolean, boolean][] = [
    ...Array.from({ length: counts.bothValid }, () => [true, true] as [boolean, boolean]),
    ...Array.from({ length: counts.bothInvalid }, () => [false, false] as [boolean, boolean]),
    ...Array.from({ length: counts.humanValidCriticInvalid }, () => [true, false] as [boolean, boolean]),
    ...Array.from({ length: counts.humanInvalidCriticValid }, () => [false, true] as [boolean, boolean]),
  ];
  return cohensKappa(pairs);
}

function toRow(counts: Counts, splits: { nValid: number; nInvalid: number; items: number }[], categories: Record<string, number>): ReportRow {
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
    humanCriticKappa: kappaFromConfusion(counts),
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
 * The validity report of a campaign, computed in SQL: per language sampled, labelled, resolved and
 * valid items, validity with its Wilson 95% interval, critic pass and executable-valid rates,
 * human–critic kappa, annotator alpha and top error categories; pooled and macro totals; breakdowns
 * by difficulty and error category. Scope: reports:export (null actor: operator CLI).
 */
export async function getCampaignReport({ actor, campaignId }: { actor: Actor | null; campaignId: string }): Promise<CampaignReport> {
  if (actor) assertCan(actor, "reports:export");
  // The operator CLI (no actor) sees every campaign; people see what getCampaign lets them.
  const campaign = actor ? await getCampaign({ actor, campaignId }) : await getCampaignForOperator(campaignId);
  const categoryDefs = await prisma().errorCategory.findMany({ where: { campaignId }, orderBy: { position: "asc" }, select: { key: true, label: true } });
  return buildReport({ id: campaign.id, name: campaign.name, dataset: campaign.dataset, finalRule: campaign.finalRule, overlap: campaign.overlap }, [campaignId], categoryDefs);
}

export type DatasetReport = CampaignReport & { campaigns: { id: string; name: string; finalRule: string }[]; rule: string };

/** How a record labelled in several campaigns counts once; shown on the page and in the Markdown. */
export const CROSS_CAMPAIGN_RULE =
  "A record labelled in several campaigns counts once, with its strongest resolved label: an adjudication beats annotators' labels, more annotators agreeing beat fewer (two agreeing beat one), and on a tie the latest campaign wins.";

/**
 * The validity report of a dataset across all its campaigns: each record counts once, with its
 * strongest resolved label (CROSS_CAMPAIGN_RULE). Scope: reports:export (null actor: operator CLI).
 */
export async function getDatasetReport({ actor, datasetName }: { actor: Actor | null; datasetName: string }): Promise<DatasetReport> {
  if (actor) assertCan(actor, "reports:export");
  const dataset = await prisma().dataset.findUnique({
    where: { name: datasetName },
    select: { id: true, name: true, campaigns: { orderBy: { createdAt: "asc" }, select: { id: true, name: true, finalRule: true, overlap: true, categories: { orderBy: { position: "asc" }, select: { key: true, label: true } } } } },
  });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  const categoryDefs = [...new Map(dataset.campaigns.flatMap((campaign) => campaign.categories).map((category) => [category.key, category])).values()];
  const rules = [...new Set(dataset.campaigns.map((campaign) => campaign.finalRule))];
  const report = await buildReport(
    { id: dataset.id, name: dataset.name, dataset: dataset.name, finalRule: rules.join(" / ") || "consensus", overlap: Math.max(1, ...dataset.campaigns.map((campaign) => campaign.overlap)) },
    dataset.campaigns.map((campaign) => campaign.id),
    categoryDefs,
  );
  return { ...report, campaigns: dataset.campaigns.map(({ id, name, finalRule }) => ({ id, name, finalRule })), rule: CROSS_CAMPAIGN_RULE };
}

async function buildReport(meta: CampaignReport["campaign"], campaignIds: string[], categoryDefs: { key: string; label: string }[]): Promise<CampaignReport> {
  const [byLanguageCounts, byDifficultyCounts, categoryRows, splits] = await Promise.all([
    queryCounts(campaignIds, "language"),
    queryCounts(campaignIds, "difficulty"),
    queryCategories(campaignIds),
    querySplits(campaignIds),
  ]);
  const categoriesByLanguage: Record<string, Record<string, number>> = {};
  for (const row of categoryRows) (categoriesByLanguage[row.language] ??= {})[row.category] = row.count;

  const byLanguage: Record<string, ReportRow> = {};
  for (const counts of byLanguageCounts) {
    byLanguage[counts.grp] = toRow(counts, splits.filter((split) => split.language === counts.grp), categoriesByLanguage[counts.grp] ?? {});
  }
  const totals = Object.fromEntries(COUNT_KEYS.map((key) => [key, byLanguageCounts.reduce((sum, row) => sum + row[key], 0)])) as Counts;
  const allCategories: Record<string, number> = {};
  for (const row of categoryRows) allCategories[row.category] = (allCategories[row.category] ?? 0) + row.count;
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
    byLanguage,
    pooled,
    macro,
    byDifficulty: Object.fromEntries(
      byDifficultyCounts.map((counts) => [counts.grp, { sampled: counts.sampled, resolved: counts.resolved, valid: counts.valid, validity: ratio(counts.valid, counts.resolved), ci: wilsonInterval(counts.valid, counts.resolved) }]),
    ),
    byCategory: categoryDefs.map((definition) => ({ key: definition.key, label: definition.label, count: allCategories[definition.key] ?? 0, shareOfInvalid: ratio(allCategories[definition.key] ?? 0, invalidItems) })),
    categoriesByLanguage,
  };
}

