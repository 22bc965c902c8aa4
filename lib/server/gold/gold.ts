import "server-only";

import { DEFAULT_CATEGORIES } from "@/lib/annotation/categories";
import { goldFileRefusal, readGoldFile, resolveGoldLines } from "@/lib/records/gold-file";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import type { GoldAnswer } from "@/lib/validation/gold";

import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import { canSeeGoldAnswers } from "@/lib/server/auth/visibility";

// Gold answers: a record's known verdict, set by an admin, against which annotators' labels on gold
// items are scored. They are never readable by annotators (gold:read, and canSeeGoldAnswers).

export type GoldView = { recordId: number; valid: boolean; categories: string[]; note: string | null; updatedAt: Date };

const goldSelect = { recordId: true, valid: true, categories: true, note: true, updatedAt: true } as const;

function assertCanReadGold(actor: Actor): void {
  assertCan(actor, "gold:read");
  if (!canSeeGoldAnswers(actor)) throw new AppError("FORBIDDEN", "Gold answers are not shown to annotators.");
}

/** A record's gold answer, or null when it has none. Scope: gold:read (admins and reviewers). */
export async function getGoldAnswer({ actor, recordId }: { actor: Actor; recordId: number }): Promise<GoldView | null> {
  assertCanReadGold(actor);
  return prisma().goldLabel.findUnique({ where: { recordId }, select: goldSelect });
}

/** Every gold answer of a dataset, with the record's key and language, in record order. Scope: gold:read. */
export async function listGoldAnswers({ actor, datasetName }: { actor: Actor; datasetName: string }) {
  assertCanReadGold(actor);
  const dataset = await prisma().dataset.findUnique({ where: { name: datasetName }, select: { id: true } });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  const rows = await prisma().goldLabel.findMany({
    where: { record: { datasetId: dataset.id } },
    orderBy: { recordId: "asc" },
    select: { ...goldSelect, record: { select: { key: true, language: true } } },
  });
  return rows.map(({ record, ...gold }) => ({ ...gold, key: record.key, language: record.language }));
}

/** How many records of a dataset have a gold answer. Scope: gold:read. */
export async function countGoldAnswers({ actor, datasetName }: { actor: Actor; datasetName: string }): Promise<number> {
  assertCanReadGold(actor);
  return prisma().goldLabel.count({ where: { record: { dataset: { name: datasetName } } } });
}

/** Sets (or replaces) a record's gold answer, audited. Scope: gold:write (admins). */
export async function setGoldAnswer({
  actor,
  recordId,
  answer,
}: {
  actor: Actor;
  recordId: number;
  answer: GoldAnswer;
}): Promise<GoldView> {
  assertCan(actor, "gold:write");
  return prisma().$transaction(async (tx) => {
    if (!(await tx.record.findUnique({ where: { id: recordId }, select: { id: true } })))
      throw new AppError("NOT_FOUND", "No such record.");
    const before = await tx.goldLabel.findUnique({
      where: { recordId },
      select: { valid: true, categories: true, note: true },
    });
    const saved = await tx.goldLabel.upsert({
      where: { recordId },
      create: { recordId, ...answer, createdById: actor.id },
      update: { ...answer, createdById: actor.id },
      select: goldSelect,
    });
    await writeAudit(tx, {
      actorId: actor.id,
      action: "gold.set",
      targetType: "Record",
      targetId: String(recordId),
      before: before ?? undefined,
      after: answer,
    });
    return saved;
  });
}

/** Removes a record's gold answer (labels already given on it as a gold item stay, unscored). Scope: gold:write. */
export async function clearGoldAnswer({ actor, recordId }: { actor: Actor; recordId: number }): Promise<void> {
  assertCan(actor, "gold:write");
  await prisma().$transaction(async (tx) => {
    const before = await tx.goldLabel.findUnique({
      where: { recordId },
      select: { valid: true, categories: true, note: true },
    });
    if (!before) throw new AppError("NOT_FOUND", "This record has no gold answer.");
    await tx.goldLabel.delete({ where: { recordId } });
    await writeAudit(tx, {
      actorId: actor.id,
      action: "gold.clear",
      targetType: "Record",
      targetId: String(recordId),
      before,
    });
  });
}

const MAX_LISTED_ERRORS = 20;

/**
 * Imports a file of gold answers (JSONL or CSV, see lib/records/gold-file.ts) into a dataset: all or
 * nothing. Any bad line, a record the dataset does not hold, or a record named twice refuses the
 * whole file with each line's error (INVALID_INPUT). Existing answers are replaced. Scope: gold:write
 * (no actor: the operator at the command line).
 */
export async function importGoldAnswers({
  actor,
  datasetName,
  text,
}: {
  actor: Actor | null;
  datasetName: string;
  text: string;
}): Promise<{ dataset: string; imported: number }> {
  if (actor) assertCan(actor, "gold:write");
  const dataset = await prisma().dataset.findUnique({ where: { name: datasetName }, select: { id: true, name: true } });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  // A gold answer may name the categories of the default taxonomy and of this dataset's campaigns.
  const campaignCategories = await prisma().errorCategory.findMany({
    where: { campaign: { datasetId: dataset.id } },
    distinct: ["key"],
    select: { key: true },
  });
  const knownCategories = new Set([...DEFAULT_CATEGORIES, ...campaignCategories].map((category) => category.key));
  const lines = readGoldFile(text, { knownCategories });
  const refs = lines.flatMap((line) => (line.ref ? [line.ref] : []));
  const keys = refs.flatMap((ref) => ("key" in ref ? [ref.key] : []));
  const ids = refs.flatMap((ref) => ("id" in ref ? [ref.id] : []));
  const found = await prisma().record.findMany({
    where: { datasetId: dataset.id, OR: [{ key: { in: keys } }, { id: { in: ids } }] },
    select: { id: true, key: true },
  });
  const idByKey = new Map(found.map((record) => [record.key, record.id]));
  const known = new Set(found.map((record) => record.id));
  const { answers: resolved, errors } = resolveGoldLines(lines, {
    datasetName: dataset.name,
    recordIdOf: (ref) => ("key" in ref ? idByKey.get(ref.key) : known.has(ref.id) ? ref.id : undefined),
  });
  if (errors.length > 0) {
    const refusal = goldFileRefusal(errors, MAX_LISTED_ERRORS);
    throw new AppError("INVALID_INPUT", refusal.message, { file: refusal.lines });
  }
  await prisma().$transaction(async (tx) => {
    await tx.$executeRaw`
      INSERT INTO "GoldLabel" ("recordId", valid, categories, note, "createdById", "updatedAt")
      SELECT x."recordId", x.valid, ARRAY(SELECT jsonb_array_elements_text(x.categories)), x.note, ${actor?.id ?? null}, now()
      FROM jsonb_to_recordset(${JSON.stringify(resolved)}::jsonb) AS x("recordId" int, valid boolean, categories jsonb, note text)
      ON CONFLICT ("recordId") DO UPDATE SET valid = EXCLUDED.valid, categories = EXCLUDED.categories, note = EXCLUDED.note, "createdById" = EXCLUDED."createdById", "updatedAt" = now()`;
    await writeAudit(tx, {
      actorId: actor?.id ?? null,
      action: "gold.import",
      targetType: "Dataset",
      targetId: dataset.id,
      after: { records: resolved.length },
    });
  });
  return { dataset: dataset.name, imported: resolved.length };
}

export type GoldAccuracy = { userId: string; language: string; n: number; correct: number };

/** Per annotator and language, how many gold items of a campaign they labelled and how many matched the gold verdict. */
export async function campaignGoldAccuracy(campaignId: string): Promise<GoldAccuracy[]> {
  return prisma().$queryRaw<GoldAccuracy[]>`
    SELECT a."userId", i.language, count(*)::int AS n, (count(*) FILTER (WHERE a.valid = g.valid))::int AS correct
    FROM "Annotation" a
    JOIN "CampaignItem" i ON i.id = a."itemId" AND i.gold
    JOIN "GoldLabel" g ON g."recordId" = i."recordId"
    WHERE i."campaignId" = ${campaignId}
    GROUP BY a."userId", i.language
    ORDER BY a."userId", i.language`;
}
