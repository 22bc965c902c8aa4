-- A partial covering index (Prisma has no WHERE or INCLUDE on indexes): a report's final categories
-- are those of the items finally Invalid, a range of this index instead of a scan of every item.
CREATE INDEX "CampaignItem_invalid_idx" ON "CampaignItem" ("campaignId", language) INCLUDE ("finalCategories")
  WHERE "finalValid" = false AND NOT gold;
