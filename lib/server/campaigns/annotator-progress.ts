import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";

import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { prisma } from "@/lib/server/db/client";
import { campaignGoldAccuracy } from "@/lib/server/gold/gold";

export type AnnotatorProgress = {
  userId: string;
  email: string;
  name: string | null;
  /** Items labelled, gold items not included (they are in `gold`). */
  labelled: number;
  skipped: number;
  /** Items they hold under a lease that has not run out. */
  inLease: number;
  /** Median active time per labelled item (all revisions summed); null before the first label. */
  medianActiveMs: number | null;
  /** Gold items labelled and how many matched the gold verdict, overall and per language. */
  gold: { n: number; correct: number; byLanguage: { language: string; n: number; correct: number }[] };
};

/**
 * Each person's progress in a campaign: items labelled (gold items left out: they are counted in
 * the gold column, and beside a campaign's item count they made "Labelled" exceed it) and skipped,
 * leases held now, the median active time per labelled item (gold included: time is work), and their gold
 * accuracy (a label matching the gold verdict counts as correct); everyone who took an item,
 * ordered by email. Scope: reports:export
 * (admins and reviewers; an annotator sees only their own figures, on the campaign page).
 */
export async function listAnnotatorProgress({
  actor,
  campaignId,
}: {
  actor: Actor;
  campaignId: string;
}): Promise<AnnotatorProgress[]> {
  assertCan(actor, "reports:export");
  await getCampaign({ actor, campaignId });
  const [rows, accuracy] = await Promise.all([
    prisma().$queryRaw<Omit<AnnotatorProgress, "gold">[]>`
    WITH labels AS (
      SELECT a."userId", (count(*) FILTER (WHERE NOT i.gold))::int AS labelled, percentile_cont(0.5) WITHIN GROUP (ORDER BY a."activeMs") AS "medianActiveMs"
      FROM "Annotation" a JOIN "CampaignItem" i ON i.id = a."itemId"
      WHERE i."campaignId" = ${campaignId}
      GROUP BY a."userId"
    ), holds AS (
      SELECT s."userId",
             count(*) FILTER (WHERE s.status = 'SKIPPED')::int AS skipped,
             count(*) FILTER (WHERE s.status = 'ACTIVE' AND s."leaseExpiresAt" > now())::int AS "inLease"
      FROM "Assignment" s JOIN "CampaignItem" i ON i.id = s."itemId"
      WHERE i."campaignId" = ${campaignId}
      GROUP BY s."userId"
    )
    SELECT u.id AS "userId", u.email, u.name, coalesce(l.labelled, 0) AS labelled, coalesce(h.skipped, 0) AS skipped,
           coalesce(h."inLease", 0) AS "inLease", l."medianActiveMs"
    FROM labels l FULL JOIN holds h ON h."userId" = l."userId"
    JOIN "User" u ON u.id = coalesce(l."userId", h."userId")
    ORDER BY u.email`,
    campaignGoldAccuracy(campaignId),
  ]);
  return rows.map((row) => {
    const byLanguage = accuracy
      .filter((entry) => entry.userId === row.userId)
      .map(({ language, n, correct }) => ({ language, n, correct }));
    const gold = {
      n: byLanguage.reduce((sum, entry) => sum + entry.n, 0),
      correct: byLanguage.reduce((sum, entry) => sum + entry.correct, 0),
      byLanguage,
    };
    return { ...row, medianActiveMs: row.medianActiveMs === null ? null : Number(row.medianActiveMs), gold };
  });
}
