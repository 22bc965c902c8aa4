-- Covering indexes (Prisma has no WHERE or INCLUDE on indexes) for a campaign's report, which counts
-- every item by its language, labels and final verdict beside its record's critic verdict: both are
-- now index-only scans of a few hundred pages instead of scans of the wide rows (the critic's raw
-- answer and reasoning are most of "CriticVerdict"), and the verdicts are hashed once for all of the
-- report's parallel workers instead of once by each. Campaign progress reads the same index as before.
DROP INDEX "CampaignItem_progress_idx";
CREATE INDEX "CampaignItem_progress_idx" ON "CampaignItem" ("campaignId", language)
  INCLUDE (target, "labelCount", "recordId", "validCount", "finalValid") WHERE NOT gold;
CREATE INDEX "CriticVerdict_pass_idx" ON "CriticVerdict" ("recordId") INCLUDE ("overallPass");
