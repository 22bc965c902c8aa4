import "server-only";

import { isGoldTurn } from "@/lib/annotation/gold-draw";
import { Prisma } from "@/lib/generated/prisma/client";

import { prisma } from "./client";

type Tx = Prisma.TransactionClient;

/**
 * A gold item's target: overlap does not apply, every annotator may take it. slotsTaken still counts
 * its holders, so leases, skips and expiry work exactly as on any other item.
 */
const GOLD_ITEM_TARGET = 2_147_483_647;

type GoldCampaign = { id: string; datasetId: string; seed: string; languages: string[]; goldShare: number };
type Annotator = { id: string; languages: string[] };

async function loadGoldCampaign(tx: Tx, campaignId: string): Promise<GoldCampaign> {
  return tx.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: { id: true, datasetId: true, seed: true, languages: true, goldShare: true },
  });
}

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

/** How many gold items the annotator could still be served (0 when the campaign mixes none in). */
export async function countAvailableGold({
  actor,
  campaignId,
}: {
  actor: Annotator;
  campaignId: string;
}): Promise<number> {
  const campaign = await loadGoldCampaign(prisma(), campaignId);
  if (campaign.goldShare <= 0) return 0;
  const [row] = await prisma().$queryRaw<
    { n: number }[]
  >`SELECT count(*)::int AS n ${goldCandidatesSql(campaign, actor)}`;
  return row.n;
}

/**
 * Inside a claim's transaction: whether this claim is the annotator's turn for a gold item (by the
 * campaign's seed and how many items they held before), and a function that finds that gold item.
 */
export async function goldTurn(
  tx: Tx,
  { actor, campaignId }: { actor: Annotator; campaignId: string },
): Promise<{
  isTurn: boolean;
  mixesGold: boolean;
  takeGoldItem: () => Promise<{ id: string; recordId: number } | null>;
}> {
  const campaign = await loadGoldCampaign(tx, campaignId);
  const mixesGold = campaign.goldShare > 0;
  const claimIndex = mixesGold ? await tx.assignment.count({ where: { userId: actor.id, item: { campaignId } } }) : 0;
  return {
    isTurn: isGoldTurn({ seed: campaign.seed, userId: actor.id, claimIndex, share: campaign.goldShare }),
    mixesGold,
    takeGoldItem: () => takeGoldItem(tx, campaign, actor),
  };
}

/**
 * Picks the annotator's next gold record (an order of their own, from the seed) and returns its
 * campaign item, created on first use with an id shaped like every other item's, or null.
 */
async function takeGoldItem(
  tx: Tx,
  campaign: GoldCampaign,
  actor: Annotator,
): Promise<{ id: string; recordId: number } | null> {
  const [record] = await tx.$queryRaw<{ id: number; language: string }[]>`
    SELECT r.id, r.language ${goldCandidatesSql(campaign, actor)}
    ORDER BY md5(${campaign.seed} || ':gold:' || ${actor.id} || ':' || r.key)
    LIMIT 1`;
  if (!record) return null;
  await tx.$executeRaw`
    INSERT INTO "CampaignItem" (id, "campaignId", "recordId", language, position, target, gold)
    VALUES ('itm_' || replace(gen_random_uuid()::text, '-', ''), ${campaign.id}, ${record.id}, ${record.language}, 0, ${GOLD_ITEM_TARGET}, true)
    ON CONFLICT ("campaignId", "recordId") DO NOTHING`;
  const [item] = await tx.$queryRaw<{ id: string; recordId: number }[]>`
    SELECT id, "recordId" FROM "CampaignItem" WHERE "campaignId" = ${campaign.id} AND "recordId" = ${record.id} AND gold FOR UPDATE`;
  return item ?? null;
}
