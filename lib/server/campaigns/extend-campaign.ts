import "server-only";

import type { PreLabelVisibility } from "@/lib/generated/prisma/enums";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor } from "@/lib/server/auth/permissions";
import type { CampaignSampling, CampaignStatus } from "@/lib/generated/prisma/enums";
import { AppError } from "@/lib/server/errors";
import type { ExtendCampaignInput } from "@/lib/validation/campaigns";
import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import { type Tx, sampleLanguages, insertSample } from "@/lib/server/campaigns/queries";
import { assertItemsDrawn } from "@/lib/server/campaigns/lifecycle";

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
      // Its first sample still being drawn by a job: adding to it now would race that job.
      assertItemsDrawn(
        (await tx.campaignItemDraw.findUnique({ where: { campaignId }, select: { status: true } }))?.status,
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
