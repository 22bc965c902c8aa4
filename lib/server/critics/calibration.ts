import "server-only";

import {
  compareCriticVersions,
  type ConfidenceBin,
  type DetectionCounts,
  detectionFigures,
  mostWrongRule,
  reliability,
} from "@/lib/metrics/critic-calibration";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, SystemActor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import type {
  CalibrationFigures,
  CriticVersionCalibration,
  DatasetCalibration,
  Provenance,
  RuleCalibration,
} from "@/lib/critics/types";

import { prisma } from "@/lib/server/db/client";
import { finalLabelsOf } from "@/lib/server/review/final-labels";

import { IMPORTED_CRITIC } from "./queries";

// Which critic to trust: every critic version (the record files' verdicts as "imported" among
// them) against people's final labels on a dataset's campaign items. Campaign items are a seeded
// random sample of their languages (gold items, which are chosen, never count: the relation leaves
// them out), so these figures estimate how the critic does on the dataset. A record in several
// campaigns counts once, with its strongest label (as on the dataset report).

const CONFIDENCE_BINS = 10;

type CountRow = { versionId: string; language: string; blind: boolean } & DetectionCounts;
type RuleRow = CountRow & { rule: string; categories: string[] };
type BinRow = ConfidenceBin & { versionId: string };

const ZERO: DetectionCounts = { truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 0 };

function add(into: DetectionCounts & Provenance, row: DetectionCounts & { blind: boolean }): void {
  into.truePositives += row.truePositives;
  into.falsePositives += row.falsePositives;
  into.falseNegatives += row.falseNegatives;
  into.trueNegatives += row.trueNegatives;
  const n = row.truePositives + row.falsePositives + row.falseNegatives + row.trueNegatives;
  if (row.blind) into.blind += n;
  else into.open += n;
}

function figuresOf(rows: (DetectionCounts & { blind: boolean })[]): CalibrationFigures {
  const sum = { ...ZERO, blind: 0, open: 0 };
  for (const row of rows) add(sum, row);
  const { blind, open, ...counts } = sum;
  return { ...detectionFigures(counts), counts, provenance: { blind, open } };
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return groups;
}

/**
 * The calibration of every critic version with a verdict on a dataset's labelled items: for
 * "invalid" (the critic fails the record / people's final label is Invalid) precision, recall, F1,
 * κ and accuracy with Wilson intervals, overall, blind items only (every label given with the critic
 * hidden from its author, whatever the campaign: pre-reveal labels), per language; per mapped rule
 * (the rule failed / people chose its category), overall and per language; the rule most often wrong
 * per language; and a reliability curve with ECE where the version states a confidence. Counted in
 * SQL. Scope: critics:read.
 */
export async function getDatasetCriticCalibration({
  actor,
  datasetName,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
}): Promise<DatasetCalibration> {
  assertCan(actor, "critics:read");
  const dataset = await prisma().dataset.findUnique({ where: { name: datasetName }, select: { id: true } });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  const campaigns = await prisma().campaign.findMany({
    where: { datasetId: dataset.id },
    select: { id: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const campaignIds = campaigns.map((campaign) => campaign.id);
  const [row] = await prisma().$queryRawUnsafe<
    {
      items: number;
      blindItems: number;
      counts: CountRow[] | null;
      rules: RuleRow[] | null;
      bins: BinRow[] | null;
      unreadable: { versionId: string; count: number }[] | null;
    }[]
  >(
    `WITH finals AS MATERIALIZED (
       -- Blind: every label of the item was given with the critic hidden from its author (kept as a
       -- pre-reveal label: what they were shown, not whether the campaign was called blind).
       SELECT DISTINCT ON (f.record_id) f.record_id, f.campaign_id, f.language, f.final_valid, f.final_categories,
              NOT EXISTS (SELECT 1 FROM "Annotation" a WHERE a."itemId" = f.item_id AND a."preRevealValid" IS NULL) AS blind
       FROM ${finalLabelsOf("$1::text[]")} f JOIN "Campaign" c ON c.id = f.campaign_id
       -- Items picked by suspicion would flatter every critic's precision: random samples only.
       WHERE f.final_valid IS NOT NULL AND c.sampling = 'RANDOM'
       ORDER BY f.record_id, f.strength DESC, array_position($1::text[], f.campaign_id) DESC
     ),
     verdicts AS MATERIALIZED (
       SELECT $2::text AS version_id, f.*, cv."overallPass" AS pass, cv."failedRules" AS failed_rules,
              NULL::float8 AS confidence
       FROM finals f JOIN "CriticVerdict" cv ON cv."recordId" = f.record_id
       WHERE cv."overallPass" IS NOT NULL
       UNION ALL
       SELECT cr."versionId", f.*, cr."overallPass", cr."failedRules", cr.confidence
       FROM finals f JOIN "CriticResult" cr ON cr."recordId" = f.record_id
       WHERE cr.status = 'PARSED'
     ),
     rule_checks AS (
       SELECT v.version_id, v.language, v.blind, ec."criticRule" AS rule, ec.key,
              EXISTS (SELECT 1 FROM unnest(v.failed_rules) AS failed WHERE lower(failed) = lower(ec."criticRule")) AS flagged,
              ec.key = ANY(v.final_categories) AS tagged
       FROM verdicts v JOIN "ErrorCategory" ec ON ec."campaignId" = v.campaign_id AND ec."criticRule" IS NOT NULL
     )
     SELECT
       (SELECT count(*)::int FROM finals) AS items,
       (SELECT count(*)::int FROM finals WHERE blind) AS "blindItems",
       (SELECT json_agg(x) FROM (
          SELECT version_id AS "versionId", language, blind,
                 (count(*) FILTER (WHERE NOT pass AND NOT final_valid))::int AS "truePositives",
                 (count(*) FILTER (WHERE NOT pass AND final_valid))::int AS "falsePositives",
                 (count(*) FILTER (WHERE pass AND NOT final_valid))::int AS "falseNegatives",
                 (count(*) FILTER (WHERE pass AND final_valid))::int AS "trueNegatives"
          FROM verdicts GROUP BY 1, 2, 3
        ) x) AS counts,
       (SELECT json_agg(x) FROM (
          SELECT version_id AS "versionId", language, blind, rule, array_agg(DISTINCT key) AS categories,
                 (count(*) FILTER (WHERE flagged AND tagged))::int AS "truePositives",
                 (count(*) FILTER (WHERE flagged AND NOT tagged))::int AS "falsePositives",
                 (count(*) FILTER (WHERE NOT flagged AND tagged))::int AS "falseNegatives",
                 (count(*) FILTER (WHERE NOT flagged AND NOT tagged))::int AS "trueNegatives"
          FROM rule_checks GROUP BY 1, 2, 3, 4
        ) x) AS rules,
       (SELECT json_agg(x) FROM (
          SELECT version_id AS "versionId", least(floor(confidence * ${CONFIDENCE_BINS}), ${CONFIDENCE_BINS - 1})::int AS bin,
                 count(*)::int AS n, sum(confidence)::float8 AS "confidenceSum",
                 (count(*) FILTER (WHERE pass = final_valid))::int AS correct
          FROM verdicts WHERE confidence IS NOT NULL AND confidence BETWEEN 0 AND 1 GROUP BY 1, 2
        ) x) AS bins,
       (SELECT json_agg(x) FROM (
          SELECT cr."versionId", count(*)::int AS count FROM finals f JOIN "CriticResult" cr ON cr."recordId" = f.record_id
          WHERE cr.status = 'UNREADABLE' GROUP BY 1
        ) x) AS unreadable`,
    campaignIds,
    IMPORTED_CRITIC.versionId,
  );
  const counts = row.counts ?? [];
  const rules = row.rules ?? [];
  const bins = row.bins ?? [];
  const unreadable = new Map((row.unreadable ?? []).map((entry) => [entry.versionId, entry.count]));
  const versionIds = [...new Set([...counts.map((c) => c.versionId), ...unreadable.keys()])];
  const versions = await prisma().criticVersion.findMany({
    where: { id: { in: versionIds } },
    select: { id: true, number: true, model: true, critic: { select: { name: true } } },
  });
  const described = [
    ...versions.map((version) => ({ ...version, critic: version.critic.name, kind: "ENDPOINT" as const })),
    ...(versionIds.includes(IMPORTED_CRITIC.versionId)
      ? [
          {
            id: IMPORTED_CRITIC.versionId,
            number: 1,
            model: "",
            critic: IMPORTED_CRITIC.name,
            kind: "IMPORTED" as const,
          },
        ]
      : []),
  ];
  const countsByVersion = groupBy(counts, (c) => c.versionId);
  const rulesByVersion = groupBy(rules, (r) => r.versionId);
  const binsByVersion = groupBy(bins, (b) => b.versionId);

  const calibrations = described.map((version): CriticVersionCalibration => {
    const own = countsByVersion.get(version.id) ?? [];
    const ownRules = rulesByVersion.get(version.id) ?? [];
    const byLanguage = Object.fromEntries(
      [...groupBy(own, (c) => c.language)]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([language, rows]) => [language, figuresOf(rows)]),
    );
    const byRule = [...groupBy(ownRules, (r) => r.rule)]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([rule, rows]): RuleCalibration => ({
        rule,
        categories: [...new Set(rows.flatMap((r) => r.categories))].sort(),
        ...figuresOf(rows),
        byLanguage: Object.fromEntries(
          [...groupBy(rows, (r) => r.language)]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([language, lr]) => [language, figuresOf(lr)]),
        ),
      }));
    const mostWrong = Object.fromEntries(
      Object.keys(byLanguage).map((language) => {
        const perRule = byRule.flatMap((rule) =>
          rule.byLanguage[language]
            ? [{ rule: rule.rule, ...rule.byLanguage[language].counts, n: rule.byLanguage[language].n }]
            : [],
        );
        const worst = mostWrongRule(perRule);
        return [language, worst ? { rule: worst.rule, wrong: worst.wrong, n: worst.n } : null];
      }),
    );
    return {
      versionId: version.id,
      critic: version.critic,
      kind: version.kind,
      version: version.number,
      model: version.model,
      unreadable: unreadable.get(version.id) ?? 0,
      invalid: figuresOf(own),
      blindOnly: figuresOf(own.filter((c) => c.blind)),
      byLanguage,
      byRule,
      mostWrongRule: mostWrong,
      reliability: reliability(binsByVersion.get(version.id) ?? [], CONFIDENCE_BINS),
    };
  });
  calibrations.sort(
    (a, b) => compareCriticVersions(a.invalid, b.invalid) || a.critic.localeCompare(b.critic) || a.version - b.version,
  );
  return {
    dataset: datasetName,
    items: row.items,
    provenance: { blind: row.blindItems, open: row.items - row.blindItems },
    versions: calibrations,
  };
}
