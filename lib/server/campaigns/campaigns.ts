import "server-only";

import { storedVisibility, visibilityFromInput, visibilityName } from "@/lib/evidence/visibility";
import type { PreLabelVisibility } from "@/lib/generated/prisma/enums";
import type { CampaignListProgress, CampaignProgress, CampaignSummary } from "@/lib/campaigns/types";

import { createHmac, randomBytes } from "node:crypto";

import { DEFAULT_CATEGORIES } from "@/lib/annotation/categories";
import { assertCan } from "@/lib/server/auth/guard";
import { queueDrawKey } from "@/lib/server/auth/secrets";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import type { CampaignSampling, CampaignStatus } from "@/lib/generated/prisma/enums";
import { type SamplingMode, suspicionOrderRefusal, WEAK_TESTS_THRESHOLD } from "@/lib/evidence/suspicion";
import { AppError } from "@/lib/server/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import type { CampaignGuidelinesInput, CreateCampaignInput, ExtendCampaignInput } from "@/lib/validation/campaigns";

import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import { forecastGold, type GoldForecast, type OwnGold, ownGoldItems } from "@/lib/server/labelling/gold-queue";
import { hmacSql } from "@/lib/server/labelling/keyed-order";
import { finalLabelsOf } from "@/lib/server/review/final-labels";
import { canSeeGoldAnswers, shownToEveryAnnotatorSql, visibleCampaignWhere } from "@/lib/server/auth/visibility";

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
} as const;

/** A campaign as admins and reviewers see it (seed included). */
export function toSummary({
  dataset,
  visibility,
  sampling,
  ...campaign
}: { dataset: { name: string }; visibility: PreLabelVisibility; sampling: CampaignSampling } & Omit<
  CampaignSummary,
  "dataset" | "visibility" | "sampling"
> & {
    seed: string;
  }): CampaignSummary & {
  seed: string;
} {
  return {
    ...campaign,
    visibility: visibilityName(visibility),
    sampling: sampling === "SUSPICION" ? "suspicion" : "random",
    dataset: dataset.name,
  };
}

/**
 * A campaign as the actor may see it: annotators are not told whether gold items are mixed in, nor
 * the seed (which, with the record keys they can read, would give the sample, and so which items
 * they are served are not in it).
 */
function asSeenBy(actor: Actor, { goldShare, seed, ...campaign }: CampaignSummary): CampaignSummary {
  return canSeeGoldAnswers(actor) ? { ...campaign, seed, goldShare } : campaign;
}

/**
 * The key a campaign's sample is drawn under: an HMAC of its seed under a key derived from the
 * server secret. The seed alone, however guessable ("42"), then predicts nothing an annotator can
 * check against the items they are served; the same seed on this install draws the same sample.
 */
function sampleKeyOf(seed: string): string {
  return createHmac("sha256", queueDrawKey("sample-seed")).update(seed).digest("hex");
}

/**
 * Creates a campaign over a dataset: a stratified random sample of `perLanguage` records per
 * language (or all), ordered and sampled by md5(sample key, record key), the sample key an HMAC of
 * the seed under the server secret (stored, so the same seed always gives the same items), plus the
 * error taxonomy. Done in SQL so 100,000 records stay cheap. Scope: campaigns:admin.
 */
export async function createCampaign({
  actor,
  input,
}: {
  actor: Actor | SystemActor;
  input: CreateCampaignInput;
}): Promise<CampaignSummary & { seed: string }> {
  assertCan(actor, "campaigns:admin");
  const seed = input.seed ?? randomBytes(6).toString("hex");
  const sampleKey = sampleKeyOf(seed);
  return prisma().$transaction(
    async (tx) => {
      const dataset = await tx.dataset.findUnique({ where: { name: input.dataset }, select: { id: true } });
      if (!dataset)
        throw new AppError("NOT_FOUND", `No dataset named "${input.dataset}".`, { dataset: ["No such dataset."] });
      if (await tx.campaign.findUnique({ where: { name: input.name }, select: { id: true } })) {
        throw new AppError("CONFLICT", `A campaign named "${input.name}" exists already.`, {
          name: ["Choose another name."],
        });
      }
      const languages = await sampleLanguages(tx, dataset.id, input.languages);

      // SQL rules run by the categories' insert (prisma/sql): triggers/ErrorCategory.*_insert.sql, running
      // functions/verity_categories_changed.sql and verity_note_category_changes.sql (nothing labelled yet).
      const campaign = await tx.campaign.create({
        data: {
          name: input.name,
          datasetId: dataset.id,
          languages,
          perLanguage: input.perLanguage ?? null,
          seed,
          sampleKey,
          overlap: input.overlap,
          agreementFraction: input.overlap === 1 ? input.agreementFraction : 0,
          // blind keeps meaning "the critic is hidden before the first label" for every reader of it.
          visibility: storedVisibility(visibilityFromInput(input)),
          sampling: input.sampling === "suspicion" ? "SUSPICION" : "RANDOM",
          blind: visibilityFromInput(input) !== "all",
          finalRule: input.finalRule,
          leaseMinutes: input.leaseMinutes,
          guidelines: input.guidelines ?? "",
          requireInvalidNote: input.requireInvalidNote ?? false,
          goldShare: input.goldShare ?? 0,
          createdById: personIdOf(actor),
          categories: {
            create: (input.categories ?? DEFAULT_CATEGORIES).map((category, position) => ({
              ...category,
              description: category.description ?? "",
              position,
            })),
          },
        },
        select: { id: true },
      });
      const itemCount = await insertSample(tx, {
        campaignId: campaign.id,
        datasetId: dataset.id,
        drawKey: sampleKey,
        languages,
        perLanguage: input.perLanguage ?? null,
        overlap: input.overlap,
        agreementFraction: input.overlap === 1 ? input.agreementFraction : 0,
        sampling: input.sampling ?? "random",
        visibility: storedVisibility(visibilityFromInput(input)),
      });
      const created = await tx.campaign.update({
        where: { id: campaign.id },
        data: { itemCount },
        select: campaignSelect,
      });
      await writeAudit(tx, {
        actorId: personIdOf(actor),
        action: "campaign.create",
        targetType: "Campaign",
        targetId: campaign.id,
        after: {
          name: input.name,
          dataset: input.dataset,
          languages,
          perLanguage: input.perLanguage ?? null,
          seed,
          overlap: input.overlap,
          goldShare: input.goldShare ?? 0,
          sampling: input.sampling ?? "random",
          itemCount,
        },
      });
      return toSummary(created);
    },
    { timeout: 120_000 },
  );
}

type Tx = Prisma.TransactionClient;

/** The languages to sample (all the dataset has when none are given); each must have records. */
async function sampleLanguages(tx: Tx, datasetId: string, wanted: string[] | undefined): Promise<string[]> {
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
async function insertSample(
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

export type CampaignExtension = {
  added: number;
  perLanguage: number | null;
  before: Record<string, number>;
  after: Record<string, number>;
};

async function itemsByLanguage(tx: Tx, campaignId: string): Promise<Record<string, number>> {
  const rows = await tx.campaignItem.groupBy({
    by: ["language"],
    where: { campaignId, gold: false },
    _count: { _all: true },
    orderBy: { language: "asc" },
  });
  return Object.fromEntries(rows.map((row) => [row.language, row._count._all]));
}

/**
 * Adds records to a running campaign: a larger sample per language (or all, null) and optionally
 * more languages, under the campaign's seed, so the items are those a campaign created with the new
 * size would hold; labels so far stay, new items queue after the old ones. The sample never shrinks.
 * Returns the items per language before and after. Scope: campaigns:admin.
 */
export async function extendCampaign({
  actor,
  campaignId,
  input,
}: {
  actor: Actor;
  campaignId: string;
  input: ExtendCampaignInput;
}): Promise<CampaignExtension> {
  assertCan(actor, "campaigns:admin");
  return prisma().$transaction(
    async (tx) => {
      // Locked, so two extensions at once cannot both count the same positions.
      const [campaign] = await tx.$queryRaw<
        {
          status: CampaignStatus;
          datasetId: string;
          seed: string;
          sampleKey: string | null;
          languages: string[];
          perLanguage: number | null;
          overlap: number;
          agreementFraction: number;
          sampling: CampaignSampling;
          visibility: PreLabelVisibility;
        }[]
      >`
        SELECT status, "datasetId", seed, "sampleKey", languages, "perLanguage", overlap, "agreementFraction", sampling, visibility FROM "Campaign" WHERE id = ${campaignId} FOR UPDATE`;
      if (!campaign) throw new AppError("NOT_FOUND", "No such campaign.");
      // An archived campaign is a finished record of its work: it takes no new items.
      if (campaign.status === "ARCHIVED")
        throw new AppError("CONFLICT", "This campaign is archived: unarchive it before adding records.");
      const perLanguage = input.perLanguage;
      if (
        campaign.perLanguage === null
          ? perLanguage !== null
          : perLanguage !== null && perLanguage < campaign.perLanguage
      ) {
        throw new AppError(
          "INVALID_INPUT",
          `The sample only grows: give at least ${campaign.perLanguage ?? "all"} per language.`,
          { perLanguage: ["Records already in the campaign stay in it."] },
        );
      }
      const wanted: string[] | undefined = input.languages;
      const dropped = campaign.languages.filter((language) => wanted && !wanted.includes(language));
      if (dropped.length)
        throw new AppError("INVALID_INPUT", `Languages stay in the campaign: ${dropped.join(", ")}.`, {
          languages: [`Keep ${dropped.join(", ")}.`],
        });
      const languages = await sampleLanguages(tx, campaign.datasetId, wanted ?? campaign.languages);
      const before = await itemsByLanguage(tx, campaignId);
      const added = await insertSample(tx, {
        campaignId,
        datasetId: campaign.datasetId,
        // Campaigns made before the keyed draw keep the sample their seed drew.
        drawKey: campaign.sampleKey ?? campaign.seed,
        languages,
        perLanguage,
        overlap: campaign.overlap,
        agreementFraction: campaign.agreementFraction,
        sampling: campaign.sampling === "SUSPICION" ? "suspicion" : "random",
        visibility: campaign.visibility,
      });
      const after = await itemsByLanguage(tx, campaignId);
      await tx.campaign.update({
        where: { id: campaignId },
        data: { perLanguage, languages, itemCount: { increment: added } },
      });
      await writeAudit(tx, {
        actorId: actor.id,
        action: "campaign.extend",
        targetType: "Campaign",
        targetId: campaignId,
        before: { perLanguage: campaign.perLanguage, languages: campaign.languages, items: before },
        after: { perLanguage, languages, items: after, added },
      });
      return { added, perLanguage, before, after };
    },
    { timeout: 120_000 },
  );
}

/** Any campaign, for the system actor (the operator CLI), which sees them all. Scope: records:read. */
export async function getCampaignForSystem({
  actor,
  campaignId,
}: {
  actor: SystemActor;
  campaignId: string;
}): Promise<CampaignSummary> {
  assertCan(actor, "records:read");
  const row = await prisma().campaign.findUnique({ where: { id: campaignId }, select: campaignSelect });
  if (!row) throw new AppError("NOT_FOUND", "No such campaign.");
  return toSummary(row);
}

/** Campaigns the actor can see: all for admins and reviewers, those sharing a language for annotators. Scope: records:read. */
export async function listCampaigns({ actor }: { actor: Actor }): Promise<CampaignSummary[]> {
  assertCan(actor, "records:read");
  const rows = await prisma().campaign.findMany({
    where: visibleCampaignWhere(actor),
    orderBy: { createdAt: "desc" },
    select: campaignSelect,
  });
  return rows.map((row) => asSeenBy(actor, toSummary(row)));
}

/** One campaign, scoped like listCampaigns (an annotator without a shared language gets NOT_FOUND). */
export async function getCampaign({
  actor,
  campaignId,
}: {
  actor: Actor;
  campaignId: string;
}): Promise<CampaignSummary> {
  assertCan(actor, "records:read");
  const row = await prisma().campaign.findFirst({
    where: { id: campaignId, ...visibleCampaignWhere(actor) },
    select: campaignSelect,
  });
  if (!row) throw new AppError("NOT_FOUND", "No such campaign.");
  return asSeenBy(actor, toSummary(row));
}

/** Changes a campaign's guidelines and note rule, with an audit row. Scope: campaigns:admin. */
export async function updateCampaignGuidelines({
  actor,
  input,
}: {
  actor: Actor;
  input: CampaignGuidelinesInput;
}): Promise<void> {
  assertCan(actor, "campaigns:admin");
  await prisma().$transaction(async (tx) => {
    const before = await tx.campaign.findUnique({
      where: { id: input.campaignId },
      select: { guidelines: true, requireInvalidNote: true },
    });
    if (!before) throw new AppError("NOT_FOUND", "No such campaign.");
    await tx.campaign.update({
      where: { id: input.campaignId },
      data: { guidelines: input.guidelines, requireInvalidNote: input.requireInvalidNote },
    });
    await writeAudit(tx, {
      actorId: actor.id,
      action: "campaign.settings",
      targetType: "Campaign",
      targetId: input.campaignId,
      before,
      after: { guidelines: input.guidelines, requireInvalidNote: input.requireInvalidNote },
    });
  });
}

/** A campaign's error taxonomy in display order; empty for a campaign the actor may not see. Scope: records:read. */
export async function listCategories({ actor, campaignId }: { actor: Actor; campaignId: string }) {
  assertCan(actor, "records:read");
  return prisma().errorCategory.findMany({
    where: { campaignId, campaign: visibleCampaignWhere(actor) },
    orderBy: { position: "asc" },
    select: { key: true, label: true, description: true, invalidating: true, criticRule: true },
  });
}

/**
 * Progress of a campaign overall, per language, and for the actor. Gold items never count in the
 * figures admins and reviewers see. An annotator sees the campaign as if their own gold items were
 * sample items (asSeenByAnnotator), so no count moves differently after a gold item. Scope:
 * records:read (campaign visible to the actor).
 */
export async function getCampaignProgress({
  actor,
  campaignId,
}: {
  actor: Actor;
  campaignId: string;
}): Promise<CampaignProgress> {
  await getCampaign({ actor, campaignId });
  const [byLanguageRows, mineRows, activeLeases, sampleLeft] = await Promise.all([
    queryProgressCounts([campaignId]),
    prisma().assignment.groupBy({
      by: ["status"],
      where: { userId: actor.id, item: { campaignId } },
      _count: { _all: true },
    }),
    prisma().assignment.count({
      where: { status: "ACTIVE", leaseExpiresAt: { gt: new Date() }, item: { campaignId } },
    }),
    countAvailableSample({ actor, campaignId }),
  ]);
  const gold = await forecastGold({ actor, campaignId, sampleLeft });
  const mineCount = (status: string) => mineRows.find((row) => row.status === status)?._count._all ?? 0;
  const progress: CampaignProgress = {
    ...sumProgressCounts(byLanguageRows),
    activeLeases,
    mine: {
      submitted: mineCount("SUBMITTED"),
      skipped: mineCount("SKIPPED"),
      active: mineCount("ACTIVE"),
      // What the queue will still hand out: the sample items left for them, and the gold items it
      // will mix in before those run out.
      available: sampleLeft + gold.count,
    },
  };
  return canSeeGoldAnswers(actor)
    ? progress
    : asSeenByAnnotator(progress, await ownGoldItems({ actor, campaignId }), gold);
}

type ProgressCounts = CampaignListProgress & Pick<CampaignProgress, "byLanguage">;

/** A campaign's totals and per-language figures from its rows of queryProgressCounts. */
function sumProgressCounts(rows: ProgressCountRow[]): ProgressCounts {
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
function asSeenByAnnotator<P extends ProgressCounts>(progress: P, own: OwnGold, ahead: GoldForecast): P {
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
async function annotatorGold({ actor, campaignId }: { actor: Actor; campaignId: string }) {
  const sampleLeft = await countAvailableSample({ actor, campaignId });
  const [own, ahead] = await Promise.all([
    ownGoldItems({ actor, campaignId }),
    forecastGold({ actor, campaignId, sampleLeft }),
  ]);
  return { own, ahead };
}

/** Sample items the actor could still claim: a free slot, one of their languages, never held by them. */
async function countAvailableSample({ actor, campaignId }: { actor: Actor; campaignId: string }): Promise<number> {
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
async function queryProgressCounts(campaignIds: string[]) {
  return prisma().$queryRawUnsafe<ProgressCountRow[]>(
    `SELECT campaign_id AS "campaignId", language, count(*)::int AS items, sum(target)::int AS wanted,
            sum(n)::int AS done, (count(*) FILTER (WHERE n >= target))::int AS complete
     FROM ${finalLabelsOf("$1::text[]")} GROUP BY 1, 2`,
    campaignIds,
  );
}

/**
 * Progress of many campaigns at once, for the campaign list: one query over the item counters, and
 * for an annotator each campaign as asSeenByAnnotator shows it (the same figures as its page, so a
 * gold label moves the list's bar as a sample label does). Scope: records:read; only campaigns the
 * actor may see are counted (others are left out).
 */
export async function listCampaignProgress({
  actor,
  campaignIds,
}: {
  actor: Actor;
  campaignIds: string[];
}): Promise<Map<string, CampaignListProgress>> {
  assertCan(actor, "records:read");
  const visible = await prisma().campaign.findMany({
    where: { id: { in: campaignIds }, ...visibleCampaignWhere(actor) },
    select: { id: true },
  });
  const rows = await queryProgressCounts(visible.map(({ id }) => id));
  const isAnnotator = !canSeeGoldAnswers(actor);
  const entries = await Promise.all(
    visible.map(async ({ id }): Promise<[string, CampaignListProgress]> => {
      const counts = sumProgressCounts(rows.filter((row) => row.campaignId === id));
      const seen = isAnnotator
        ? await annotatorGold({ actor, campaignId: id }).then(({ own, ahead }) => asSeenByAnnotator(counts, own, ahead))
        : counts;
      const { byLanguage: _, ...totals } = seen;
      return [id, totals];
    }),
  );
  return new Map(entries);
}
