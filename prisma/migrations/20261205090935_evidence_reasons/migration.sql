-- AlterTable
ALTER TABLE "Record" ADD COLUMN     "evidenceReasons" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "CampaignItem" ADD COLUMN     "evidenceReasons" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "EvidenceCount" (
    "datasetId" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "reasons" INTEGER NOT NULL,
    "records" INTEGER NOT NULL,

    CONSTRAINT "EvidenceCount_pkey" PRIMARY KEY ("datasetId","language","reasons")
);

-- CreateTable
CREATE TABLE "CampaignEvidenceCount" (
    "campaignId" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "reasons" INTEGER NOT NULL,
    "items" INTEGER NOT NULL,

    CONSTRAINT "CampaignEvidenceCount_pkey" PRIMARY KEY ("campaignId","language","reasons")
);

-- CreateIndex
CREATE INDEX "Record_datasetId_evidenceReasons_language_idx" ON "Record"("datasetId", "evidenceReasons", "language");

-- AddForeignKey
ALTER TABLE "EvidenceCount" ADD CONSTRAINT "EvidenceCount_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CampaignEvidenceCount" ADD CONSTRAINT "CampaignEvidenceCount_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill (hand-written): each record's evidence reasons as functions/verity_evidence_reasons.sql
-- computes them (that function and the triggers that keep all of this come in the next migration),
-- copied to its items, and the kept counts.
UPDATE "Record" r SET "evidenceReasons" = m.reasons
FROM (
  SELECT r2.id,
         (CASE WHEN r2."mutationScore" < 0.5 THEN 1 ELSE 0 END)
       | (CASE WHEN r2.flaky THEN 2 ELSE 0 END)
       | (CASE WHEN s.ran > 0 AND s.passed = 0 THEN 4 ELSE 0 END)
       | (CASE WHEN c."overallPass" IS NOT NULL AND r2."executableValid" IS NOT NULL AND r2.flaky IS NOT TRUE
                    AND c."overallPass" <> r2."executableValid" THEN 8 ELSE 0 END) AS reasons
  FROM "Record" r2
  LEFT JOIN "CriticVerdict" c ON c."recordId" = r2.id
  LEFT JOIN (SELECT "recordId", count(*) AS ran, count(*) FILTER (WHERE passed) AS passed
             FROM "Solution" WHERE passed IS NOT NULL GROUP BY "recordId") s ON s."recordId" = r2.id
) m
WHERE m.id = r.id AND m.reasons <> 0;

UPDATE "CampaignItem" i SET "evidenceReasons" = r."evidenceReasons"
FROM "Record" r WHERE r.id = i."recordId" AND r."evidenceReasons" <> 0;

INSERT INTO "EvidenceCount" ("datasetId", language, reasons, records)
SELECT "datasetId", language, "evidenceReasons", count(*) FROM "Record" WHERE "evidenceReasons" <> 0 GROUP BY 1, 2, 3;

INSERT INTO "CampaignEvidenceCount" ("campaignId", language, reasons, items)
SELECT "campaignId", language, "evidenceReasons", count(*) FROM "CampaignItem" WHERE "evidenceReasons" <> 0 AND NOT gold GROUP BY 1, 2, 3;
