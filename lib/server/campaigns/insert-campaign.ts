import "server-only";

import { storedVisibility, visibilityFromInput } from "@/lib/evidence/visibility";
import { suspicionOrderRefusal } from "@/lib/evidence/suspicion";
import type { CampaignSummary } from "@/lib/campaigns/types";
import { createHmac, randomBytes } from "node:crypto";
import { DEFAULT_CATEGORIES } from "@/lib/annotation/categories";
import { RECORDS_DRAWN_IN_REQUEST } from "@/lib/campaigns/item-draw";
import { assertCan } from "@/lib/server/auth/guard";
import { queueDrawKey } from "@/lib/server/auth/secrets";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import type { CreateCampaignInput } from "@/lib/validation/campaigns";
import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import {
  campaignSelect,
  countSampleRecords,
  insertSample,
  sampleLanguages,
  toSummary,
} from "@/lib/server/campaigns/queries";

/**
 * The key a campaign's sample is drawn under: an HMAC of its seed under a key derived from the
 * server secret. The seed alone, however guessable ("42"), then predicts nothing an annotator can
 * check against the items they are served; the same seed on this install draws the same sample.
 */
function sampleKeyOf(seed: string): string {
  return createHmac("sha256", queueDrawKey("sample-seed")).update(seed).digest("hex");
}

/**
 * Stores a new campaign over a dataset with its error taxonomy, in one transaction: a stratified
 * random sample of `perLanguage` records per language (or all), ranked by md5(sample key, record key),
 * the sample key an HMAC of the seed under the server secret (stored, so the same seed always gives
 * the same items). A sample over at most RECORDS_DRAWN_IN_REQUEST records (those of its languages: the
 * draw ranks them all, whatever perLanguage) is inserted here; a larger one gets a RUNNING item draw instead (itemDraw in the answer), for the caller to queue
 * (create-campaign.ts). Scope: campaigns:admin.
 */
export async function insertCampaign({
  actor,
  input,
}: {
  actor: Actor | SystemActor;
  input: CreateCampaignInput;
}): Promise<CampaignSummary & { seed: string }> {
  assertCan(actor, "campaigns:admin");
  const seed = input.seed ?? randomBytes(6).toString("hex");
  const sampleKey = sampleKeyOf(seed);
  const visibility = storedVisibility(visibilityFromInput(input));
  // Refused before anything is stored: a job must not be left to find out.
  const refusal = input.sampling === "suspicion" ? suspicionOrderRefusal(visibilityFromInput(input)) : null;
  if (refusal) throw new AppError("INVALID_INPUT", refusal, { sampling: [refusal] });
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
      const perLanguage = input.perLanguage ?? null;
      const records = await countSampleRecords(tx, { datasetId: dataset.id, languages, perLanguage });
      const isDrawnByJob = records.ranked > RECORDS_DRAWN_IN_REQUEST;

      // SQL rules run by the categories' insert (prisma/sql): triggers/ErrorCategory.*_insert.sql, running
      // functions/verity_categories_changed.sql and verity_note_category_changes.sql (nothing labelled yet).
      const campaign = await tx.campaign.create({
        data: {
          name: input.name,
          datasetId: dataset.id,
          languages,
          perLanguage,
          seed,
          sampleKey,
          overlap: input.overlap,
          agreementFraction: input.overlap === 1 ? input.agreementFraction : 0,
          // blind keeps meaning "the critic is hidden before the first label" for every reader of it.
          visibility,
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
          ...(isDrawnByJob ? { itemDraw: { create: { total: records.sampled, createdById: personIdOf(actor) } } } : {}),
        },
        select: { id: true },
      });
      const itemCount = isDrawnByJob
        ? 0
        : await insertSample(tx, {
            campaignId: campaign.id,
            datasetId: dataset.id,
            drawKey: sampleKey,
            languages,
            perLanguage,
            overlap: input.overlap,
            agreementFraction: input.overlap === 1 ? input.agreementFraction : 0,
            sampling: input.sampling ?? "random",
            visibility,
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
          perLanguage,
          seed,
          overlap: input.overlap,
          goldShare: input.goldShare ?? 0,
          sampling: input.sampling ?? "random",
          // A job draws a large sample: its count is audited when it is drawn (campaign.items_drawn).
          ...(isDrawnByJob ? { itemsDrawnByJob: records.sampled } : { itemCount }),
        },
      });
      return toSummary(created);
    },
    { timeout: 120_000 },
  );
}
