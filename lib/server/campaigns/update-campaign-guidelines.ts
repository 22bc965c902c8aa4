import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import { type Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import type { CampaignGuidelinesInput } from "@/lib/validation/campaigns";
import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";

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
