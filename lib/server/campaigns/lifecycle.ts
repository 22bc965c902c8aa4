import "server-only";
import { countOf } from "@/lib/format/count";

import type { Prisma } from "@/lib/generated/prisma/client";
import type { CampaignSampling, CampaignStatus, PreLabelVisibility } from "@/lib/generated/prisma/enums";
import { hidesMore, storedVisibility, visibilityName } from "@/lib/evidence/visibility";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import type {
  CampaignSettingsInput,
  CampaignStatus as ShownCampaignStatus,
  CampaignStatusAction,
} from "@/lib/validation/campaigns";

import { writeAudit } from "@/lib/server/audit/audit";
import type { CampaignSummary } from "@/lib/campaigns/types";
import { ITEMS_DELETED_IN_REQUEST } from "@/lib/campaigns/job-limits";
import { campaignSelect, toSummary } from "@/lib/server/campaigns/queries";
import { prisma } from "@/lib/server/db/client";

type Tx = Prisma.TransactionClient;

/** Which states each action leaves from, and where it goes. */
const TRANSITIONS: Record<CampaignStatusAction, { from: ShownCampaignStatus[]; to: ShownCampaignStatus }> = {
  pause: { from: ["ACTIVE"], to: "PAUSED" },
  resume: { from: ["PAUSED"], to: "ACTIVE" },
  close: { from: ["ACTIVE", "PAUSED"], to: "CLOSED" },
  reopen: { from: ["CLOSED"], to: "ACTIVE" },
  archive: { from: ["CLOSED"], to: "ARCHIVED" },
  unarchive: { from: ["ARCHIVED"], to: "CLOSED" },
};

/** What a claim reads of its campaign under the lock (the gold queue's settings). */
export type CampaignForClaims = { id: string; datasetId: string; languages: string[]; goldShare: number };

/**
 * Inside a claim's transaction: refuses unless the campaign is ACTIVE, and returns what the claim
 * reads of it. The row is share-locked, so a pause either waits for the claim (and then ends its
 * lease) or is seen by it, and a change of the gold share applies to whole claims.
 */
export async function assertOpenForClaims(tx: Tx, campaignId: string): Promise<CampaignForClaims> {
  const [row] = await tx.$queryRaw<
    (CampaignForClaims & { status: CampaignStatus; itemDraw: "RUNNING" | "SUCCEEDED" | "FAILED" | null })[]
  >`
    SELECT c.id, c.status, c."datasetId", c.languages, c."goldShare", d.status AS "itemDraw"
    FROM "Campaign" c LEFT JOIN "CampaignItemDraw" d ON d."campaignId" = c.id
    WHERE c.id = ${campaignId} FOR SHARE OF c`;
  if (!row) throw new AppError("NOT_FOUND", "No such campaign.");
  if (row.status !== "ACTIVE")
    throw new AppError("CONFLICT", `This campaign is ${row.status.toLowerCase()}: no new items are handed out.`);
  assertItemsDrawn(row.itemDraw);
  const { status: _status, itemDraw: _itemDraw, ...campaign } = row;
  return campaign;
}

/**
 * Refuses while a job is still drawing the campaign's items (or could not): there is nothing to
 * hand out or add to yet, and saying so beats "nothing left for you" (draw-items.ts).
 */
export function assertItemsDrawn(itemDraw: "RUNNING" | "SUCCEEDED" | "FAILED" | null | undefined): void {
  if (itemDraw === "RUNNING")
    throw new AppError(
      "CONFLICT",
      "This campaign's items are still being drawn: it has no items yet. Try again in a minute.",
    );
  if (itemDraw === "FAILED")
    throw new AppError(
      "CONFLICT",
      "This campaign's items could not be drawn (see its page): delete it and create it again.",
    );
}

async function hasLabels(tx: Tx, campaignId: string): Promise<boolean> {
  return (await tx.annotation.findFirst({ where: { item: { campaignId } }, select: { id: true } })) !== null;
}

/**
 * Locks the campaign row for a settings or status change; NOT_FOUND when it does not exist or is
 * marked for deletion (unless `isDeletingFound`: deleting it again).
 */
async function lockCampaign(tx: Tx, campaignId: string, { isDeletingFound = false } = {}) {
  const [row] = await tx.$queryRaw<
    {
      name: string;
      status: CampaignStatus;
      overlap: number;
      agreementFraction: number;
      goldShare: number;
      visibility: PreLabelVisibility;
      sampling: CampaignSampling;
    }[]
  >`
    SELECT name, status, overlap, "agreementFraction", "goldShare", visibility, sampling
    FROM "Campaign" WHERE id = ${campaignId} FOR UPDATE`;
  if (!row || (row.status === "DELETING" && !isDeletingFound)) throw new AppError("NOT_FOUND", "No such campaign.");
  return row;
}

/**
 * Renames a campaign, or changes its overlap while nobody has labelled anything (items keep the
 * agreement subset's extra annotator only at overlap 1, as at creation), or what annotators see
 * before their first label while nobody has claimed an item (someone holding one may have read what
 * the new level would hide, and their first label would pass for a pre-reveal one). Audited.
 * Scope: campaigns:admin.
 */
export async function updateCampaignSettings({
  actor,
  campaignId,
  input,
}: {
  actor: Actor;
  campaignId: string;
  input: CampaignSettingsInput;
}): Promise<CampaignSummary> {
  assertCan(actor, "campaigns:admin");
  return prisma().$transaction(async (tx) => {
    const before = await lockCampaign(tx, campaignId);
    const data: Prisma.CampaignUpdateInput = {};
    if (input.name !== undefined && input.name !== before.name) {
      if (await tx.campaign.findUnique({ where: { name: input.name }, select: { id: true } })) {
        throw new AppError("CONFLICT", `A campaign named "${input.name}" exists already.`, {
          name: ["Choose another name."],
        });
      }
      data.name = input.name;
    }
    if (input.overlap !== undefined && input.overlap !== before.overlap) {
      if (await hasLabels(tx, campaignId))
        throw new AppError("CONFLICT", "Overlap cannot change once items are labelled.", {
          overlap: ["Items are labelled already."],
        });
      const overlap = input.overlap;
      // Targets only: the SQL rules on "CampaignItem" (prisma/sql/triggers/CampaignItem.*) run nothing.
      await tx.$executeRaw`
        UPDATE "CampaignItem" SET target = ${overlap}::int + CASE WHEN ${overlap}::int = 1 AND target > ${before.overlap}::int THEN 1 ELSE 0 END
        WHERE "campaignId" = ${campaignId} AND NOT gold`;
      // Someone may hold a lease on an item that now wants fewer annotators.
      const overfull = await tx.campaignItem.count({
        where: { campaignId, slotsTaken: { gt: tx.campaignItem.fields.target } },
      });
      if (overfull > 0)
        throw new AppError(
          "CONFLICT",
          `${countOf(overfull, "item")} ${overfull === 1 ? "has" : "have"} more annotators working on ${overfull === 1 ? "it" : "them"} than the new overlap; pause the campaign first.`,
          { overlap: ["Pause the campaign first."] },
        );
      data.overlap = overlap;
      data.agreementFraction = overlap === 1 ? before.agreementFraction : 0;
    }
    if (input.visibility !== undefined && storedVisibility(input.visibility) !== before.visibility) {
      if (await tx.assignment.findFirst({ where: { item: { campaignId } }, select: { id: true } }))
        throw new AppError("CONFLICT", "What annotators see cannot change once items are claimed.", {
          visibility: ["Items are claimed already."],
        });
      // A suspicion campaign's order was computed from what it showed then: hiding more now would
      // leave annotators an order that tells what they are no longer shown.
      if (before.sampling === "SUSPICION" && hidesMore(input.visibility, visibilityName(before.visibility))) {
        const reason =
          "This campaign's order was computed from what it shows now, so it cannot hide more: create a new campaign instead.";
        throw new AppError("CONFLICT", reason, { visibility: [reason] });
      }
      data.visibility = storedVisibility(input.visibility);
      // blind keeps meaning "the critic is hidden before the first label".
      data.blind = input.visibility !== "all";
    }
    // The gold share may change at any time: it only decides what later claims hand out.
    if (input.goldShare !== undefined && input.goldShare !== before.goldShare) data.goldShare = input.goldShare;
    const updated = await tx.campaign.update({ where: { id: campaignId }, data, select: campaignSelect });
    if (Object.keys(data).length > 0) {
      await writeAudit(tx, {
        actorId: actor.id,
        action: "campaign.update",
        targetType: "Campaign",
        targetId: campaignId,
        before: {
          name: before.name,
          overlap: before.overlap,
          goldShare: before.goldShare,
          visibility: visibilityName(before.visibility),
        },
        after: {
          name: updated.name,
          overlap: updated.overlap,
          goldShare: updated.goldShare,
          visibility: visibilityName(updated.visibility),
        },
      });
    }
    return toSummary(updated);
  });
}

/**
 * Pauses, resumes, closes, reopens, archives or unarchives a campaign. Pausing or closing ends
 * every active lease at once (the slots go back; annotators keep their unsaved work in the
 * browser and may still submit while a slot is free). Audited. Scope: campaigns:admin.
 */
export async function changeCampaignStatus({
  actor,
  campaignId,
  action,
}: {
  actor: Actor;
  campaignId: string;
  action: CampaignStatusAction;
}): Promise<{ status: ShownCampaignStatus; endedLeases: number }> {
  assertCan(actor, "campaigns:admin");
  const { from, to } = TRANSITIONS[action];
  return prisma().$transaction(async (tx) => {
    const before = await lockCampaign(tx, campaignId);
    if (before.status === "DELETING" || !from.includes(before.status))
      throw new AppError("CONFLICT", `The campaign is ${before.status.toLowerCase()}; it cannot ${action}.`);
    await tx.campaign.update({ where: { id: campaignId }, data: { status: to } });
    const endedLeases = to === "ACTIVE" ? 0 : await endActiveLeases(tx, campaignId);
    await writeAudit(tx, {
      actorId: actor.id,
      action: `campaign.status.${action}`,
      targetType: "Campaign",
      targetId: campaignId,
      before: { status: before.status },
      after: { status: to, endedLeases },
    });
    return { status: to, endedLeases };
  });
}

/** Ends every active lease of a campaign now and returns their slots (like an expiry, for all). */
async function endActiveLeases(tx: Tx, campaignId: string): Promise<number> {
  const ended = await tx.$queryRaw<{ itemId: string }[]>`
    UPDATE "Assignment" a SET status = 'EXPIRED', "finishedAt" = now(), "leaseExpiresAt" = least(a."leaseExpiresAt", now())
    FROM "CampaignItem" i
    WHERE a."itemId" = i.id AND i."campaignId" = ${campaignId} AND a.status = 'ACTIVE'
    RETURNING a."itemId"`;
  const ids = ended.map((row) => row.itemId);
  if (ids.length > 0) {
    // Slot counters only: the SQL rules on "CampaignItem" (prisma/sql/triggers/CampaignItem.*) run nothing.
    await tx.$executeRaw`
      UPDATE "CampaignItem" c SET "slotsTaken" = c."slotsTaken" - e.n
      FROM (SELECT id, count(*)::int AS n FROM unnest(${ids}::text[]) AS id GROUP BY id) e
      WHERE c.id = e.id`;
  }
  return ids.length;
}

/** What a deletion did: the campaign is gone, or marked DELETING for a job to remove (its items). */
export type CampaignDeletionOutcome = { outcome: "deleted" } | { outcome: "marked"; items: number };

/**
 * Deletes a campaign and its items while nobody has labelled anything: inside the call when it has at
 * most ITEMS_DELETED_IN_REQUEST items (drawn, or still to be drawn), else marks it DELETING, in the
 * same transaction ending its leases and recording a RUNNING CampaignDeletion, for the caller to
 * queue (delete-campaign.ts). A marked campaign is gone from every list and claim at once
 * (visibleCampaignWhere, assertOpenForClaims). Deleting a campaign marked already answers "marked"
 * again, and retries a removal that FAILED. Audited once. Scope: campaigns:admin.
 */
export async function deleteOrMarkCampaign({
  actor,
  campaignId,
}: {
  actor: Actor;
  campaignId: string;
}): Promise<CampaignDeletionOutcome> {
  assertCan(actor, "campaigns:admin");
  return prisma().$transaction(async (tx) => {
    const before = await lockCampaign(tx, campaignId, { isDeletingFound: true });
    if (before.status === "DELETING") {
      const deletion = await tx.campaignDeletion.update({
        where: { campaignId },
        data: { status: "RUNNING", stopReason: null, finishedAt: null },
        select: { items: true },
      });
      return { outcome: "marked" as const, items: deletion.items };
    }
    if (await hasLabels(tx, campaignId))
      throw new AppError("CONFLICT", "This campaign has labels; close or archive it instead of deleting it.");
    const [size] = await tx.$queryRaw<{ items: number; datasetId: string; languages: string[] }[]>`
      SELECT greatest(c."itemCount", CASE WHEN d.status = 'RUNNING' THEN d.total ELSE 0 END)::int AS items,
             c."datasetId", c.languages
      FROM "Campaign" c LEFT JOIN "CampaignItemDraw" d ON d."campaignId" = c.id WHERE c.id = ${campaignId}`;
    const isRemovedByJob = size.items > ITEMS_DELETED_IN_REQUEST;
    await writeAudit(tx, {
      actorId: actor.id,
      action: "campaign.delete",
      targetType: "Campaign",
      targetId: campaignId,
      before: { name: before.name, status: before.status },
      ...(isRemovedByJob ? { after: { status: "DELETING", itemsRemovedByJob: size.items } } : {}),
    });
    if (!isRemovedByJob) {
      // SQL rules run by the cascade to items and categories (prisma/sql): see removeCampaign (remove-campaign.ts).
      await tx.campaign.delete({ where: { id: campaignId } });
      return { outcome: "deleted" as const };
    }
    await tx.campaign.update({ where: { id: campaignId }, data: { status: "DELETING" } });
    await endActiveLeases(tx, campaignId);
    await tx.campaignDeletion.create({
      data: {
        campaignId,
        campaignName: before.name,
        datasetId: size.datasetId,
        languages: size.languages,
        items: size.items,
        createdById: actor.id,
      },
    });
    return { outcome: "marked" as const, items: size.items };
  });
}
