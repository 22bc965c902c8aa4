import "server-only";

import { storedCriticRules } from "@/lib/records/critic";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";

import type { Prisma } from "@/lib/generated/prisma/client";
import { prisma } from "@/lib/server/db/client";
import { recordViewSelect } from "@/lib/server/records/records";
import { criticAsSeen, executionAsSeen, hiddenRecordIds, whyCriticHidden } from "@/lib/server/auth/visibility";

/**
 * What the annotator's record view needs for one item: the record, the campaign's taxonomy, the
 * actor's lease and label with its revisions. The critic is left out while blind mode hides it from
 * the actor, and the execution columns while a campaign showing "nothing" does (visibility.ts), so
 * they never reach the browser early. Scoped to items the actor
 * holds or held: anything else is NOT_FOUND. Scope: labels:write.
 */
export async function getWorkItem({ actor, itemId }: { actor: Actor; itemId: string }) {
  assertCan(actor, "labels:write");
  const item = await prisma().campaignItem.findFirst({
    where: { id: itemId, assignments: { some: { userId: actor.id } } },
    select: {
      id: true,
      language: true,
      campaign: {
        select: {
          id: true,
          name: true,
          blind: true,
          leaseMinutes: true,
          guidelines: true,
          requireInvalidNote: true,
          categories: {
            orderBy: { position: "asc" },
            select: { key: true, label: true, description: true, invalidating: true },
          },
        },
      },
      assignments: { where: { userId: actor.id }, select: { status: true, leaseExpiresAt: true } },
      annotations: {
        where: { userId: actor.id },
        select: {
          id: true,
          valid: true,
          categories: true,
          note: true,
          testLine: true,
          needsReview: true,
          revision: true,
          preRevealValid: true,
          preRevealCategories: true,
          activeMs: true,
          revisions: {
            orderBy: { revision: "desc" },
            select: { revision: true, valid: true, categories: true, note: true, createdAt: true },
          },
        },
      },
      record: { select: recordViewSelect },
    },
  });
  if (!item) throw new AppError("NOT_FOUND", "No such item.");
  const annotation = item.annotations[0] ?? null;
  const { record, ...visible } = await recordAsSeen(actor, item.record, item.campaign.id);
  return {
    itemId: item.id,
    campaign: item.campaign,
    assignment: item.assignments[0] ?? null,
    annotation,
    ...visible,
    record,
  };
}

type WorkRecord = Prisma.RecordGetPayload<{ select: typeof recordViewSelect }>;

/**
 * An item's record as the actor may see it: the critic left out while a blind campaign hides it
 * (with why, for the workspace to say), the execution columns while a campaign showing "nothing"
 * does, and whether its evidence may show (visibility.ts). Scope: labels:write (the workspace's and
 * the claim's reads).
 */
export async function recordAsSeen(actor: Actor, item: WorkRecord, campaignId: string) {
  assertCan(actor, "labels:write");
  const hidden = await hiddenRecordIds({ actor, recordIds: [item.id] });
  const isCriticVisible = !hidden.critic.has(item.id);
  // The workspace says why: a label here shows it only when this campaign alone hides it.
  const criticHiddenBy = isCriticVisible ? null : await whyCriticHidden({ actor, recordId: item.id, campaignId });
  const isExecutionVisible = !hidden.execution.has(item.id);
  const { critic: stored, ...record } = executionAsSeen(item, !isExecutionVisible);
  const critic = criticAsSeen(stored, !isCriticVisible);
  return {
    isCriticVisible,
    criticHiddenBy,
    isExecutionVisible,
    isEvidenceVisible: !hidden.evidence.has(item.id),
    record: { ...record, critic: critic ? { ...critic, rules: storedCriticRules(critic.rules) } : null },
  };
}
