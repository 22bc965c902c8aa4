import "server-only";

import type { PreLabelVisibility } from "@/lib/generated/prisma/enums";
import { RECORDS_DRAWN_IN_REQUEST } from "@/lib/campaigns/item-draw";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor } from "@/lib/server/auth/permissions";
import type { CampaignSampling, CampaignStatus } from "@/lib/generated/prisma/enums";
import { AppError } from "@/lib/server/errors";
import type { ExtendCampaignInput } from "@/lib/validation/campaigns";
import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import { type Tx, countSampleRecords, sampleLanguages, insertSample } from "@/lib/server/campaigns/queries";
import { assertItemsDrawn } from "@/lib/server/campaigns/lifecycle";

// Adding records to a campaign: checked and, when small, inserted inside the request; a larger one is
// recorded as a RUNNING CampaignExtension for a job (extension-queue.ts queues and runs
// addExtensionItems). Workers act as the system: they take no actor.

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

type LockedCampaign = {
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
};

/** Locks the campaign row, so two extensions at once cannot both count the same positions. */
async function lockForExtension(tx: Tx, campaignId: string): Promise<LockedCampaign | undefined> {
  const [campaign] = await tx.$queryRaw<LockedCampaign[]>`
    SELECT status, "datasetId", seed, "sampleKey", languages, "perLanguage", overlap, "agreementFraction", sampling, visibility
    FROM "Campaign" WHERE id = ${campaignId} FOR UPDATE`;
  return campaign;
}

/**
 * Inserts the larger sample's new items and sets the campaign's size and languages, audited as
 * `actorId`: the items are those a campaign created with the new size would hold; labels so far stay,
 * new items queue after the old ones.
 */
async function insertExtension(
  tx: Tx,
  {
    campaignId,
    campaign,
    perLanguage,
    languages,
    actorId,
  }: {
    campaignId: string;
    campaign: LockedCampaign;
    perLanguage: number | null;
    languages: string[];
    actorId: string | null;
  },
): Promise<CampaignExtension> {
  const before = await itemsByLanguage(tx, campaignId);
  // SQL rules run by this insert: see insertSample (CampaignItem's note_changes trigger).
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
    actorId,
    action: "campaign.extend",
    targetType: "Campaign",
    targetId: campaignId,
    before: { perLanguage: campaign.perLanguage, languages: campaign.languages, items: before },
    after: { perLanguage, languages, items: after, added },
  });
  return { added, perLanguage, before, after };
}

/** What an extension request did: added the items inside the call, or recorded a RUNNING extension for a job. */
export type ExtensionOutcome =
  | ({ outcome: "added" } & CampaignExtension)
  | { outcome: "queued"; extensionId: string; perLanguage: number | null; total: number };

/**
 * Adds records to a running campaign: a larger sample per language (or all, null) and optionally
 * more languages, under the campaign's seed. The sample never shrinks. One that ranks at most
 * RECORDS_DRAWN_IN_REQUEST records (those of its languages, as when creating) is inserted inside the
 * call, which returns the items per language before and after; a larger one is recorded as a
 * RUNNING CampaignExtension for the caller to queue (extend-campaign.ts), the campaign unchanged
 * until its job adds the items. Refused while another extension runs. Scope: campaigns:admin.
 */
export async function extendOrRecordExtension({
  actor,
  campaignId,
  input,
}: {
  actor: Actor;
  campaignId: string;
  input: ExtendCampaignInput;
}): Promise<ExtensionOutcome> {
  assertCan(actor, "campaigns:admin");
  return prisma().$transaction(
    async (tx) => {
      const campaign = await lockForExtension(tx, campaignId);
      if (!campaign || campaign.status === "DELETING") throw new AppError("NOT_FOUND", "No such campaign.");
      // An archived campaign is a finished record of its work: it takes no new items.
      if (campaign.status === "ARCHIVED")
        throw new AppError("CONFLICT", "This campaign is archived: unarchive it before adding records.");
      // Its first sample still being drawn by a job: adding to it now would race that job.
      assertItemsDrawn(
        (await tx.campaignItemDraw.findUnique({ where: { campaignId }, select: { status: true } }))?.status,
      );
      if (await tx.campaignExtension.findFirst({ where: { campaignId, status: "RUNNING" }, select: { id: true } }))
        throw new AppError(
          "CONFLICT",
          "Records are being added to this campaign already: try again when its page says they are in.",
        );
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
      const records = await countSampleRecords(tx, { datasetId: campaign.datasetId, languages, perLanguage });
      if (records.ranked <= RECORDS_DRAWN_IN_REQUEST)
        return {
          outcome: "added" as const,
          ...(await insertExtension(tx, { campaignId, campaign, perLanguage, languages, actorId: actor.id })),
        };
      const drawn = await tx.campaignItem.count({ where: { campaignId, gold: false } });
      const extension = await tx.campaignExtension.create({
        data: {
          campaignId,
          perLanguage,
          languages,
          total: Math.max(0, records.sampled - drawn),
          createdById: actor.id,
        },
        select: { id: true, total: true },
      });
      return { outcome: "queued" as const, extensionId: extension.id, perLanguage, total: extension.total };
    },
    { timeout: 120_000 },
  );
}

/** What an extension job found: it added the items, or the extension was not running (a retry, or it was gone). */
export type ExtensionJobOutcome = { outcome: "added"; added: number } | { outcome: "not running" | "refused" };

/**
 * Adds a RUNNING extension's items, exactly as the request would have (insertExtension over the
 * campaign as it is now, with the size and languages asked for), and marks it SUCCEEDED, in one
 * transaction. The extension row is locked first, so a job delivered twice waits for the first and
 * then finds it SUCCEEDED: nothing is inserted twice; a job killed half-way inserted nothing. A
 * campaign archived or marked for deletion meanwhile takes no items: the extension FAILED, saying so.
 */
export async function addExtensionItems({ extensionId }: { extensionId: string }): Promise<ExtensionJobOutcome> {
  return prisma().$transaction(
    async (tx) => {
      const [extension] = await tx.$queryRaw<
        {
          status: string;
          campaignId: string;
          perLanguage: number | null;
          languages: string[];
          createdById: string | null;
        }[]
      >`
        SELECT status, "campaignId", "perLanguage", languages, "createdById"
        FROM "CampaignExtension" WHERE id = ${extensionId} FOR UPDATE`;
      if (!extension || extension.status !== "RUNNING") return { outcome: "not running" as const };
      const campaign = await lockForExtension(tx, extension.campaignId);
      if (!campaign || campaign.status === "ARCHIVED" || campaign.status === "DELETING") {
        await tx.campaignExtension.update({
          where: { id: extensionId },
          data: {
            status: "FAILED",
            stopReason: `the campaign was ${campaign?.status === "ARCHIVED" ? "archived" : "deleted"} before its records were added`,
            finishedAt: new Date(),
          },
        });
        return { outcome: "refused" as const };
      }
      const { added } = await insertExtension(tx, {
        campaignId: extension.campaignId,
        campaign,
        perLanguage: extension.perLanguage,
        languages: extension.languages,
        actorId: extension.createdById,
      });
      await tx.campaignExtension.update({
        where: { id: extensionId },
        data: { status: "SUCCEEDED", added, finishedAt: new Date() },
      });
      return { outcome: "added" as const, added };
    },
    // The insert of 100,000 ranked records takes about half a minute on a loaded two-core machine.
    { timeout: 30 * 60_000 },
  );
}

/**
 * Ends a RUNNING extension as FAILED with the reason (its job failed in a way a retry would repeat,
 * or could not be queued): the campaign is as it was, and its page says so. One that ended meanwhile
 * is left as it is.
 */
export async function failExtension({ extensionId, reason }: { extensionId: string; reason: string }): Promise<void> {
  await prisma().campaignExtension.updateMany({
    where: { id: extensionId, status: "RUNNING" },
    data: { status: "FAILED", stopReason: reason, finishedAt: new Date() },
  });
}

/** The latest extension a job ran on a campaign, as its page shows it. */
export type LatestCampaignExtension = {
  status: "RUNNING" | "SUCCEEDED" | "FAILED";
  perLanguage: number | null;
  total: number;
  added: number | null;
  stopReason: string | null;
};

/**
 * The latest job extension of a campaign the actor sees (null when none ran: a small one is added
 * inside its request). Scope: campaigns:admin, as the form that starts it.
 */
export async function getLatestCampaignExtension({
  actor,
  campaignId,
}: {
  actor: Actor;
  campaignId: string;
}): Promise<LatestCampaignExtension | null> {
  assertCan(actor, "campaigns:admin");
  return prisma().campaignExtension.findFirst({
    where: { campaignId, campaign: { status: { not: "DELETING" } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { status: true, perLanguage: true, total: true, added: true, stopReason: true },
  });
}
