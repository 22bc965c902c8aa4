import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";

import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";

// A campaign's error taxonomy after creation. Its order gives the workspace its 1–9 keys, so it may
// change only until the first label: after that the keys would change under annotators' hands
// (and a "2" in the shortcut sheet would no longer be the "2" they learnt).

/**
 * Puts a campaign's error categories in the given order (every key of the campaign exactly once)
 * while nothing in it is labelled; CONFLICT after the first label. The campaign row is locked, so
 * two reorders do not interleave. Audited. Scope: campaigns:admin.
 */
export async function reorderCampaignCategories({
  actor,
  campaignId,
  keys,
}: {
  actor: Actor;
  campaignId: string;
  keys: string[];
}): Promise<{ keys: string[] }> {
  assertCan(actor, "campaigns:admin");
  return prisma().$transaction(async (tx) => {
    const [campaign] = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM "Campaign" WHERE id = ${campaignId} FOR UPDATE`;
    if (!campaign) throw new AppError("NOT_FOUND", "No such campaign.");
    const current = (
      await tx.errorCategory.findMany({ where: { campaignId }, orderBy: { position: "asc" }, select: { key: true } })
    ).map((category) => category.key);
    const isSameSet =
      keys.length === current.length &&
      new Set(keys).size === keys.length &&
      keys.every((key) => current.includes(key));
    if (!isSameSet)
      throw new AppError("INVALID_INPUT", "Give every category of this campaign exactly once, in the new order.", {
        keys: ["The categories do not match the campaign's; reload the page."],
      });
    if (keys.every((key, index) => key === current[index])) return { keys };
    if (await tx.annotation.findFirst({ where: { item: { campaignId } }, select: { id: true } }))
      throw new AppError(
        "CONFLICT",
        "The order is fixed once items are labelled: annotators' 1–9 keys must not change under them.",
        { keys: ["Items are labelled already."] },
      );
    // SQL rules run by this update (prisma/sql): triggers/ErrorCategory.*_update.sql, running
    // functions/verity_categories_changed.sql and verity_note_category_changes.sql (nothing is labelled yet).
    await tx.$executeRaw`
      UPDATE "ErrorCategory" c SET position = o.position - 1
      FROM unnest(${keys}::text[]) WITH ORDINALITY AS o(key, position)
      WHERE c."campaignId" = ${campaignId} AND c.key = o.key`;
    await writeAudit(tx, {
      actorId: actor.id,
      action: "campaign.categories.reorder",
      targetType: "Campaign",
      targetId: campaignId,
      before: { order: current },
      after: { order: keys },
    });
    return { keys };
  });
}
