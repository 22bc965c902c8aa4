import "server-only";

import { visibilityName } from "@/lib/evidence/visibility";
import type { CampaignStatus as PrismaCampaignStatus, PreLabelVisibility } from "@/lib/generated/prisma/enums";
import type {
  CampaignItemDrawState,
  CampaignListProgress,
  CampaignProgress,
  CampaignSummary,
} from "@/lib/campaigns/types";
import { queueDrawKey } from "@/lib/server/auth/secrets";
import { type Actor } from "@/lib/server/auth/permissions";
import type { CampaignSampling } from "@/lib/generated/prisma/enums";
import { type SamplingMode, suspicionOrderRefusal, WEAK_TESTS_THRESHOLD } from "@/lib/evidence/suspicion";
import { AppError } from "@/lib/server/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { prisma } from "@/lib/server/db/client";
import { forecastGold, type GoldForecast, type OwnGold, ownGoldItems } from "@/lib/server/labelling/gold-queue";
import { hmacSql } from "@/lib/server/labelling/keyed-order";
import { finalLabelsOf } from "@/lib/server/review/final-labels";
import { canSeeGoldAnswers, shownToEveryAnnotatorSql } from "@/lib/server/auth/visibility";

// What the campaign operations beside it share (one file each: create-campaign.ts,
// extend-campaign.ts, get-campaign-progress.ts …): the summary select, the sample's SQL and the
// progress counts.

export const campaignSelect = {
  id: true,
  name: true,
  status: true,
  languages: true,
  perLanguage: true,
  seed: true,
  overlap: true,
  agreementFraction: true,
  blind: true,
  visibility: true,
  sampling: true,
  finalRule: true,
  leaseMinutes: true,
  guidelines: true,
  requireInvalidNote: true,
  goldShare: true,
  itemCount: true,
  createdAt: true,
  dataset: { select: { name: true } },
  itemDraw: { select: { status: true, total: true, stopReason: true } },
} as const;

/** A campaign as admins and reviewers see it (seed included). */
export function toSummary({
  dataset,
  status,
  visibility,
  sampling,
  itemDraw,
  ...campaign
}: {
  dataset: { name: string };
  status: PrismaCampaignStatus;
  visibility: PreLabelVisibility;
  sampling: CampaignSampling;
  itemDraw: CampaignItemDrawState | null;
} & Omit<CampaignSummary, "dataset" | "status" | "visibility" | "sampling" | "itemDraw"> & {
    seed: string;
  }): CampaignSummary & {
  seed: string;
} {
  // A campaign marked for deletion is shown to nobody: it looks missing (visibleCampaignWhere).
  if (status === "DELETING") throw new AppError("NOT_FOUND", "No such campaign.");
  return {
    ...campaign,
    status,
    visibility: visibilityName(visibility),
    sampling: sampling === "SUSPICION" ? "suspicion" : "random",
    dataset: dataset.name,
    itemDraw,
  };
}

/** The campaign `where` picks, as admins and reviewers see it (seed included); NOT_FOUND when none. */
export async function findCampaignSummary(where: Prisma.CampaignWhereInput) {
  const row = await prisma().campaign.findFirst({ where, select: campaignSelect });
  if (!row) throw new AppError("NOT_FOUND", "No such campaign.");
  return toSummary(row);
}

/**
 * A campaign as the actor may see it: annotators are not told whether gold items are mixed in, nor
 * the seed (which, with the record keys they can read, would give the sample, and so which items
 * they are served are not in it).
 */
export function asSeenBy(actor: Actor, { goldShare, seed, ...campaign }: CampaignSummary): CampaignSummary {
  return canSeeGoldAnswers(actor) ? { ...campaign, seed, goldShare } : campaign;
}

export type Tx = Prisma.TransactionClient;

/** The languages to sample (all the dataset has when none are given); each must have records. */
export async function sampleLanguages(tx: Tx, datasetId: string, wanted: string[] | undefined): Promise<string[]> {
  const present = await tx.record.groupBy({ by: ["language"], where: { datasetId }, _count: { _all: true } });
  const languages = [...(wanted ?? present.map((row) => row.language))].sort();
  const missing = languages.filter((language) => !present.some((row) => row.language === language));
  if (missing.length)
    throw new AppError("INVALID_INPUT", `The dataset has no records in ${missing.join(", ")}.`, {
      languages: [`No records in ${missing.join(", ")}.`],
    });
  return languages;
}

/**
 * What drawing a sample over `languages` reads and holds: `ranked`, every record of those languages
 * (insertSample scores and ranks them all, whatever the size: what its time grows with), and
 * `sampled`, those capped at `perLanguage` (gold records counted too, so a few more than the items it
 * inserts). One count per language: cheap at 100,000 records, so the request can decide whether to
 * draw the sample itself or hand it to a job (insert-campaign.ts).
 */
export async function countSampleRecords(
  tx: Tx,
  { datasetId, languages, perLanguage }: { datasetId: string; languages: string[]; perLanguage: number | null },
): Promise<{ ranked: number; sampled: number }> {
  const rows = await tx.record.groupBy({
    by: ["language"],
    where: { datasetId, language: { in: languages } },
    _count: { _all: true },
  });
  return {
    ranked: rows.reduce((sum, row) => sum + row._count._all, 0),
    sampled: rows.reduce((sum, row) => sum + Math.min(row._count._all, perLanguage ?? Number.POSITIVE_INFINITY), 0),
  };
}

/**
 * Inserts the campaign's sample: per language, the records ranked within the first `perLanguage`
 * (all when null) that are not items yet, gold records left out (they only measure annotators),
 * queued after the existing items. A random campaign ranks by md5(draw key, key) and queues in a secret
 * order (an HMAC of the key under a server-side key, so annotators, who know record keys, cannot tell
 * which item comes next); because the rank depends only on the draw key and the key, a larger size later
 * adds exactly the records a campaign created with that size would have held. A suspicion campaign
 * ranks and queues by verity_suspicion_score (lib/evidence/suspicion.ts) from the record's evidence
 * now, as far as its annotators are shown it before their first label (shownToEveryAnnotatorSql: a
 * hidden critic, say, must not be readable off the order) — highest first, ties in the random
 * campaign's order — so its first item is the most suspicious record they could see. Returns how many.
 */
export async function insertSample(
  tx: Tx,
  sample: {
    campaignId: string;
    datasetId: string;
    /** What the sample is ranked under: the campaign's sample key (its seed, for campaigns made before keys). */
    drawKey: string;
    languages: string[];
    perLanguage: number | null;
    overlap: number;
    agreementFraction: number;
    sampling: SamplingMode;
    /** What the campaign shows before the first label: a suspicion order reads nothing more. */
    visibility: PreLabelVisibility;
  },
): Promise<number> {
  const { campaignId, datasetId, drawKey: seed, languages, perLanguage, overlap, agreementFraction } = sample;
  const isSuspicion = sample.sampling === "suspicion";
  if (isSuspicion) {
    const refusal = suspicionOrderRefusal(visibilityName(sample.visibility));
    if (refusal) throw new AppError("INVALID_INPUT", refusal, { sampling: [refusal] });
  }
  // The record's evidence, only read when it orders the sample (solver counts are one index lookup per
  // record), and only what the campaign's annotators are shown of it: the order is theirs to see.
  const shown = shownToEveryAnnotatorSql(sample.visibility, Prisma.sql`r0.id`);
  const score = isSuspicion
    ? Prisma.sql`verity_suspicion_score(
        CASE WHEN ${shown.evidence} THEN r0."mutationScore" END, CASE WHEN ${shown.evidence} THEN r0.flaky END,
        CASE WHEN ${shown.evidence} THEN s.total ELSE 0 END, CASE WHEN ${shown.evidence} THEN s.solved ELSE 0 END,
        CASE WHEN ${shown.critic} THEN c."overallPass" END, CASE WHEN ${shown.execution} THEN r0."executableValid" END,
        ${WEAK_TESTS_THRESHOLD}::float8)`
    : Prisma.sql`0::float8`;
  const evidenceJoins = isSuspicion
    ? Prisma.sql`LEFT JOIN "CriticVerdict" c ON c."recordId" = r0.id
        CROSS JOIN LATERAL (SELECT (count(*) FILTER (WHERE x.passed IS NOT NULL))::int AS total, (count(*) FILTER (WHERE x.passed))::int AS solved
                            FROM "Solution" x WHERE x."recordId" = r0.id) s`
    : Prisma.empty;
  const secretOrder = hmacSql(queueDrawKey("sample-order", campaignId), Prisma.sql`r.key`);
  // The agreement subset: items whose hash falls under the fraction get one extra annotator.
  // Item ids are random: nobody should be able to name an item they were not handed.
  // SQL rules run by this insert (prisma/sql): triggers/CampaignItem.CampaignItem_note_changes_insert.sql,
  // running functions/verity_note_item_changes.sql (CampaignChange).
  return tx.$executeRaw`
    INSERT INTO "CampaignItem" (id, "campaignId", "recordId", language, position, target)
    SELECT 'itm_' || replace(gen_random_uuid()::text, '-', ''), ${campaignId}, r.id, r.language,
           (SELECT coalesce(max(position), 0) FROM "CampaignItem" WHERE "campaignId" = ${campaignId}) + row_number() OVER (ORDER BY r.score DESC, ${secretOrder}),
           ${overlap}::int + CASE WHEN ${overlap}::int = 1
             AND ('x' || substr(md5(${seed} || ':agree:' || r.key), 1, 8))::bit(32)::bigint / 4294967296.0 < ${agreementFraction}::float8
             THEN 1 ELSE 0 END
    FROM (
      SELECT id, language, key, score,
             row_number() OVER (PARTITION BY language ORDER BY score DESC, md5(${seed} || ':sample:' || key)) AS rank
      FROM (
        SELECT r0.id, r0.language, r0.key, ${score} AS score
        FROM "Record" r0 ${evidenceJoins}
        WHERE r0."datasetId" = ${datasetId} AND r0.language = ANY(${languages}::text[])
          AND NOT EXISTS (SELECT 1 FROM "GoldLabel" g WHERE g."recordId" = r0.id)
      ) scored
    ) r
    WHERE (${perLanguage}::int IS NULL OR r.rank <= ${perLanguage}::int)
      AND NOT EXISTS (SELECT 1 FROM "CampaignItem" i WHERE i."campaignId" = ${campaignId} AND i."recordId" = r.id)`;
}

type ProgressCounts = CampaignListProgress & Pick<CampaignProgress, "byLanguage">;

/** A campaign's totals and per-language figures from its rows of queryProgressCounts. */
export function sumProgressCounts(rows: ProgressCountRow[]): ProgressCounts {
  const progress: ProgressCounts = {
    items: 0,
    annotationsWanted: 0,
    annotationsDone: 0,
    itemsComplete: 0,
    byLanguage: {},
  };
  for (const row of rows) {
    progress.byLanguage[row.language] = {
      items: row.items,
      annotationsWanted: row.wanted,
      annotationsDone: row.done,
    };
    progress.items += row.items;
    progress.annotationsWanted += row.wanted;
    progress.annotationsDone += row.done;
    progress.itemsComplete = (progress.itemsComplete ?? 0) + row.complete;
  }
  return progress;
}

/**
 * The campaign's figures as an annotator sees them: their own gold items, held so far or still to
 * come (the forecast), count as items that each want one label, and their gold labels as labels,
 * so every claim and every label moves the same counts by the same amount, gold or not; other
 * people's gold items are not in them. Items complete are not given (see CampaignProgress). Every
 * figure an annotator reads of a campaign (its page, the campaign list, REST) goes through here.
 */
export function asSeenByAnnotator<P extends ProgressCounts>(progress: P, own: OwnGold, ahead: GoldForecast): P {
  const byLanguage = structuredClone(progress.byLanguage);
  const languages = new Set([...Object.keys(own), ...Object.keys(ahead.byLanguage)]);
  let extraItems = 0;
  let extraDone = 0;
  for (const language of languages) {
    const items = (own[language]?.held ?? 0) + (ahead.byLanguage[language] ?? 0);
    const done = own[language]?.labelled ?? 0;
    const row = (byLanguage[language] ??= { items: 0, annotationsWanted: 0, annotationsDone: 0 });
    row.items += items;
    row.annotationsWanted += items;
    row.annotationsDone += done;
    extraItems += items;
    extraDone += done;
  }
  return {
    ...progress,
    items: progress.items + extraItems,
    annotationsWanted: progress.annotationsWanted + extraItems,
    annotationsDone: progress.annotationsDone + extraDone,
    itemsComplete: null,
    byLanguage,
  };
}

/** The annotator's own gold items in a campaign and those the queue will still mix in (asSeenByAnnotator's inputs). */
export async function annotatorGold({ actor, campaignId }: { actor: Actor; campaignId: string }) {
  const sampleLeft = await countAvailableSample({ actor, campaignId });
  const [own, ahead] = await Promise.all([
    ownGoldItems({ actor, campaignId }),
    forecastGold({ actor, campaignId, sampleLeft }),
  ]);
  return { own, ahead };
}

/** Sample items the actor could still claim: a free slot, one of their languages, never held by them. */
export async function countAvailableSample({
  actor,
  campaignId,
}: {
  actor: Actor;
  campaignId: string;
}): Promise<number> {
  const [row] = await prisma().$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM "CampaignItem" i
    WHERE i."campaignId" = ${campaignId} AND NOT i.gold AND i."slotsTaken" < i.target AND i.language = ANY(${actor.languages}::text[])
      AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = i.id AND a."userId" = ${actor.id})`;
  return Number(row.n);
}

type ProgressCountRow = {
  campaignId: string;
  language: string;
  items: number;
  wanted: number;
  done: number;
  complete: number;
};

/** Items, labels wanted and given, and items complete, per campaign and language, from the item counters (gold left out). */
export async function queryProgressCounts(campaignIds: string[]) {
  return prisma().$queryRawUnsafe<ProgressCountRow[]>(
    `SELECT campaign_id AS "campaignId", language, count(*)::int AS items, sum(target)::int AS wanted,
            sum(n)::int AS done, (count(*) FILTER (WHERE n >= target))::int AS complete
     FROM ${finalLabelsOf("$1::text[]")} GROUP BY 1, 2`,
    campaignIds,
  );
}
