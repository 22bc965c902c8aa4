-- AlterTable
ALTER TABLE "CampaignItem" ADD COLUMN     "labelCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "validCount" INTEGER NOT NULL DEFAULT 0;

-- Backfill the counters from the annotations already there.
UPDATE "CampaignItem" i SET "labelCount" = a.n, "validCount" = a.n_valid
FROM (SELECT "itemId", count(*)::int AS n, (count(*) FILTER (WHERE valid))::int AS n_valid FROM "Annotation" GROUP BY "itemId") a
WHERE a."itemId" = i.id;
