import "server-only";

import { storedVisibility, visibilityFromInput } from "@/lib/evidence/visibility";
import type { CampaignSummary } from "@/lib/campaigns/types";
import { createHmac, randomBytes } from "node:crypto";
import { DEFAULT_CATEGORIES } from "@/lib/annotation/categories";
import { assertCan } from "@/lib/server/auth/guard";
import { queueDrawKey } from "@/lib/server/auth/secrets";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import type { CreateCampaignInput } from "@/lib/validation/campaigns";
import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import { campaignSelect, toSummary, sampleLanguages, insertSample } from "@/lib/server/campaigns/queries";

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
