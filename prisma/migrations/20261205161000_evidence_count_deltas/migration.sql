-- CreateTable
CREATE TABLE "EvidenceCountDelta" (
    "id" BIGSERIAL NOT NULL,
    "datasetId" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "reasons" INTEGER NOT NULL,
    "delta" INTEGER NOT NULL,

    CONSTRAINT "EvidenceCountDelta_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CampaignEvidenceCountDelta" (
    "id" BIGSERIAL NOT NULL,
    "campaignId" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "reasons" INTEGER NOT NULL,
    "delta" INTEGER NOT NULL,

    CONSTRAINT "CampaignEvidenceCountDelta_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "EvidenceCountDelta_datasetId_language_idx" ON "EvidenceCountDelta"("datasetId", "language");

-- CreateIndex
CREATE INDEX "CampaignEvidenceCountDelta_campaignId_language_idx" ON "CampaignEvidenceCountDelta"("campaignId", "language");

-- AddForeignKey
ALTER TABLE "EvidenceCountDelta" ADD CONSTRAINT "EvidenceCountDelta_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CampaignEvidenceCountDelta" ADD CONSTRAINT "CampaignEvidenceCountDelta_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;
