import "server-only";

import { goldTurnsAhead, isGoldTurn } from "@/lib/annotation/gold-draw";
import { Prisma } from "@/lib/generated/prisma/client";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { queueDrawKey } from "@/lib/server/auth/secrets";

import { prisma } from "@/lib/server/db/client";
import { hmacSql } from "@/lib/server/labelling/keyed-order";

type Tx = Prisma.TransactionClient;

/**
 * A gold item's target: overlap does not apply, every annotator may take it. slotsTaken still counts
 * its holders, so leases, skips and expiry work exactly as on any other item.
 */
const GOLD_ITEM_TARGET = 2_147_483_647;

type GoldCampaign = { id: string; datasetId: string; languages: string[]; goldShare: number };
type Annotator = { id: string; languages: string[] };

async function loadGoldCampaign(tx: Tx, campaignId: string): Promise<GoldCampaign> {
  return tx.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: { id: true, datasetId: true, languages: true, goldShare: true },
  });
}

// Both keys are secret and per annotator: the seed, user ids and record keys an annotator can
// read say nothing about when their gold items come or which ones.
const turnKey = (campaignId: string, userId: string) => queueDrawKey("gold-turn", campaignId, userId);
const orderKey = (campaignId: string, userId: string) => queueDrawKey("gold-order", campaignId, userId);

/**
 * Gold records the annotator could still be served in a campaign: in the campaign's dataset and
 * languages and theirs, not in its regular sample, and not yet held by them as a gold item.
 */
function goldCandidatesSql(campaign: GoldCampaign, actor: Annotator): Prisma.Sql {
  return Prisma.sql`
    FROM "GoldLabel" g JOIN "Record" r ON r.id = g."recordId"
    WHERE r."datasetId" = ${campaign.datasetId} AND r.language = ANY(${campaign.languages}::text[]) AND r.language = ANY(${actor.languages}::text[])
      AND NOT EXISTS (
        SELECT 1 FROM "CampaignItem" i WHERE i."campaignId" = ${campaign.id} AND i."recordId" = r.id
          AND (NOT i.gold OR EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = i.id AND a."userId" = ${actor.id})))`;
}

/** The annotator's next gold records, in the order the queue will serve them (their own secret order). */
function goldInOrderSql(campaign: GoldCampaign, actor: Annotator, limit: number): Prisma.Sql {
  return Prisma.sql`
    SELECT r.id, r.language ${goldCandidatesSql(campaign, actor)}
    ORDER BY ${hmacSql(orderKey(campaign.id, actor.id), Prisma.sql`r.key`)}
    LIMIT ${limit}`;
}

export type GoldForecast = { count: number; byLanguage: Record<string, number> };

/**
 * The gold items the annotator will still be served while `sampleLeft` sample items remain for
 * them: how many (the gold turns ahead, at most the gold left) and in which languages. The queue
 * serves exactly these, so "still available" and the campaign's totals move by one per claim
 * whether it was gold or not. Nothing when the campaign mixes in no gold.
 */
export async function forecastGold({
  actor,
  campaignId,
  sampleLeft,
}: {
  actor: Actor;
  campaignId: string;
  sampleLeft: number;
}): Promise<GoldForecast> {
  assertCan(actor, "records:read");
  const campaign = await loadGoldCampaign(prisma(), campaignId);
  if (campaign.goldShare <= 0 || sampleLeft <= 0) return { count: 0, byLanguage: {} };
  const [[candidates], claimIndex] = await Promise.all([
    prisma().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n ${goldCandidatesSql(campaign, actor)}`,
    prisma().assignment.count({ where: { userId: actor.id, item: { campaignId } } }),
  ]);
  const count = goldTurnsAhead({
    key: turnKey(campaignId, actor.id),
    fromIndex: claimIndex,
    sampleLeft,
    goldLeft: candidates.n,
    share: campaign.goldShare,
  });
  if (count === 0) return { count, byLanguage: {} };
  const next = await prisma().$queryRaw<{ language: string }[]>(goldInOrderSql(campaign, actor, count));
  const byLanguage: Record<string, number> = {};
  for (const { language } of next) byLanguage[language] = (byLanguage[language] ?? 0) + 1;
  return { count, byLanguage };
}

/**
 * Inside a claim's transaction: whether this claim is the annotator's turn for a gold item (a
 * secret draw for how many items they held before), and a function that takes that gold item. The
 * campaign is as the claim read it under its lock (assertOpenForClaims).
 */
export async function goldTurn(
  tx: Tx,
  { actor, campaign }: { actor: Actor; campaign: GoldCampaign },
): Promise<{ isTurn: boolean; takeGoldItem: () => Promise<{ id: string; recordId: number } | null> }> {
  assertCan(actor, "labels:write");
  if (campaign.goldShare <= 0) return { isTurn: false, takeGoldItem: async () => null };
  const claimIndex = await tx.assignment.count({ where: { userId: actor.id, item: { campaignId: campaign.id } } });
  return {
    isTurn: isGoldTurn({ key: turnKey(campaign.id, actor.id), claimIndex, share: campaign.goldShare }),
    takeGoldItem: () => takeGoldItem(tx, campaign, actor),
  };
}

/**
 * Takes the annotator's next gold record (their secret order) and returns its campaign item,
 * created on first use with an id shaped like every other item's, or null.
 */
async function takeGoldItem(
  tx: Tx,
  campaign: GoldCampaign,
  actor: Annotator,
): Promise<{ id: string; recordId: number } | null> {
  const [record] = await tx.$queryRaw<{ id: number; language: string }[]>(goldInOrderSql(campaign, actor, 1));
  if (!record) return null;
  // SQL rules run by this insert (prisma/sql): triggers/CampaignItem.CampaignItem_note_changes_insert.sql,
  // running functions/verity_note_item_changes.sql (CampaignChange).
  await tx.$executeRaw`
    INSERT INTO "CampaignItem" (id, "campaignId", "recordId", language, position, target, gold)
    VALUES ('itm_' || replace(gen_random_uuid()::text, '-', ''), ${campaign.id}, ${record.id}, ${record.language}, 0, ${GOLD_ITEM_TARGET}, true)
    ON CONFLICT ("campaignId", "recordId") DO NOTHING`;
  const [item] = await tx.$queryRaw<{ id: string; recordId: number }[]>`
    SELECT id, "recordId" FROM "CampaignItem" WHERE "campaignId" = ${campaign.id} AND "recordId" = ${record.id} AND gold FOR UPDATE`;
  return item ?? null;
}

export type OwnGold = Record<string, { held: number; labelled: number }>;

/**
 * Per language, the gold items of a campaign the annotator holds or held (any lease, skipped too)
 * and those they labelled. Scope: labels:write.
 */
export async function ownGoldItems({ actor, campaignId }: { actor: Actor; campaignId: string }): Promise<OwnGold> {
  assertCan(actor, "labels:write");
  const rows = await prisma().$queryRaw<{ language: string; held: number; labelled: number }[]>`
    SELECT i.language, count(*)::int AS held, count(*) FILTER (WHERE a.status = 'SUBMITTED')::int AS labelled
    FROM "Assignment" a JOIN "CampaignItem" i ON i.id = a."itemId"
    WHERE a."userId" = ${actor.id} AND i."campaignId" = ${campaignId} AND i.gold
    GROUP BY i.language`;
  return Object.fromEntries(rows.map(({ language, held, labelled }) => [language, { held, labelled }]));
}
