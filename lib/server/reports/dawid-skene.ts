import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, SystemActor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import {
  type DawidSkeneModel,
  type DawidSkeneReport,
  fitDawidSkene,
  type LabelMatrix,
  validityWithInterval,
} from "@/lib/metrics/dawid-skene";

import { pgPool } from "@/lib/server/db/pool";

const DAWID_SKENE_METHOD =
  "Dawid–Skene (1979) by expectation–maximisation over every label of the dataset's randomly sampled campaigns (suspicion-ordered ones are left out, as in the rule-based report), annotators as raters; records with a gold answer are held at it, so gold items measure the annotators. Validity is the mean probability of being valid; the 95% interval is a percentile bootstrap over records (1,000 resamples; above 1,000 records its normal limit, mean ± 1.96·s/√n) with the annotators' reliabilities as fitted. Sensitivity: how often an annotator says invalid of an invalid record; specificity: valid of a valid one.";

/**
 * A dataset's validity per language estimated by Dawid–Skene, beside (never instead of) the
 * rule-based report: each label of its randomly sampled campaigns, each record once (a record labelled in several
 * campaigns pools its labels). Scope: reports:export.
 */
export async function getDatasetDawidSkene({
  actor,
  datasetName,
  model = "two-coin",
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  model?: DawidSkeneModel;
}): Promise<DawidSkeneReport> {
  assertCan(actor, "reports:export");
  const pool = pgPool();
  const dataset = await pool.query<{ id: string }>(`SELECT id FROM "Dataset" WHERE name = $1`, [datasetName]);
  if (dataset.rowCount === 0) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  const datasetId = dataset.rows[0].id;
  // Records with a label, in a dense order; `counted` when a non-gold item holds them (the report's items).
  const records = await pool.query<[number, string, boolean | null, boolean]>({
    text: `SELECT i."recordId", min(i.language), g.valid, bool_or(NOT i.gold)
           FROM "CampaignItem" i JOIN "Campaign" c ON c.id = i."campaignId"
           LEFT JOIN "GoldLabel" g ON g."recordId" = i."recordId"
           WHERE c."datasetId" = $1 AND c.sampling = 'RANDOM' AND i."labelCount" > 0
           GROUP BY i."recordId", g.valid ORDER BY i."recordId"`,
    values: [datasetId],
    rowMode: "array",
  });
  // In a fixed order: the fit sums in the order it reads, and the same labels must give the same bytes.
  const labels = await pool.query<[number, string, boolean]>({
    text: `SELECT i."recordId", a."userId", a.valid
           FROM "Annotation" a JOIN "CampaignItem" i ON i.id = a."itemId" JOIN "Campaign" c ON c.id = i."campaignId"
           WHERE c."datasetId" = $1 AND c.sampling = 'RANDOM'
           ORDER BY i."recordId", a."userId", a.id`,
    values: [datasetId],
    rowMode: "array",
  });

  const recordIndex = new Map<number, number>();
  const known = new Int8Array(records.rows.length);
  records.rows.forEach(([recordId, , goldValid], index) => {
    recordIndex.set(recordId, index);
    known[index] = goldValid === null ? -1 : goldValid ? 1 : 0;
  });
  const raterIndex = new Map<string, number>();
  const matrix: LabelMatrix = {
    itemCount: records.rows.length,
    raterCount: 0,
    labelItem: new Int32Array(labels.rows.length),
    labelRater: new Int32Array(labels.rows.length),
    labelValid: new Uint8Array(labels.rows.length),
    known,
  };
  labels.rows.forEach(([recordId, userId, valid], k) => {
    let rater = raterIndex.get(userId);
    if (rater === undefined) raterIndex.set(userId, (rater = raterIndex.size));
    matrix.labelItem[k] = recordIndex.get(recordId)!;
    matrix.labelRater[k] = rater;
    matrix.labelValid[k] = valid ? 1 : 0;
  });
  matrix.raterCount = raterIndex.size;
  const fit = fitDawidSkene(matrix, model);

  const byLanguage = new Map<string, number[]>();
  records.rows.forEach(([, language, , isCounted], index) => {
    if (!isCounted) return;
    const items = byLanguage.get(language) ?? [];
    items.push(index);
    byLanguage.set(language, items);
  });
  const emails = await pool.query<[string, string]>({
    text: `SELECT id, email FROM "User" WHERE id = ANY($1::text[])`,
    values: [[...raterIndex.keys()]],
    rowMode: "array",
  });
  const emailOf = new Map(emails.rows);
  return {
    model,
    iterations: fit.iterations,
    converged: fit.converged,
    byLanguage: [...byLanguage.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([language, items]) => ({ language, ...validityWithInterval(fit.pValid, items)! })),
    overall: validityWithInterval(fit.pValid, [...byLanguage.values()].flat()),
    annotators: [...raterIndex.entries()]
      .map(([userId, rater]) => ({
        email: emailOf.get(userId) ?? userId,
        labels: fit.raters[rater].n,
        sensitivity: fit.raters[rater].sensitivity,
        specificity: fit.raters[rater].specificity,
      }))
      .sort((a, b) => a.email.localeCompare(b.email)),
    method: DAWID_SKENE_METHOD,
  };
}
