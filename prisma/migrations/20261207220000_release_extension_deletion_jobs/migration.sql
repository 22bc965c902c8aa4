-- Issue 36: cutting a release, adding records to a campaign and deleting a campaign as jobs. A
-- release is BUILDING until a job stores its entries (existing releases are READY); a campaign marked
-- DELETING is gone from lists and claims until a job removes it; an extension and a deletion each
-- have a row the Jobs list reads.
-- CreateEnum
CREATE TYPE "ReleaseStatus" AS ENUM ('BUILDING', 'READY', 'FAILED');

-- AlterEnum
ALTER TYPE "CampaignStatus" ADD VALUE 'DELETING';

-- AlterTable
ALTER TABLE "Release" ADD COLUMN     "failureReason" TEXT,
ADD COLUMN     "finishedAt" TIMESTAMP(3),
ADD COLUMN     "status" "ReleaseStatus" NOT NULL DEFAULT 'READY',
ALTER COLUMN "validity" DROP NOT NULL,
ALTER COLUMN "disclosure" DROP NOT NULL;

-- CreateTable
CREATE TABLE "CampaignExtension" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "perLanguage" INTEGER,
    "languages" TEXT[],
    "status" "JobStatus" NOT NULL DEFAULT 'RUNNING',
    "total" INTEGER NOT NULL,
    "added" INTEGER,
    "stopReason" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "CampaignExtension_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CampaignDeletion" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "campaignName" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "languages" TEXT[],
    "items" INTEGER NOT NULL,
    "status" "JobStatus" NOT NULL DEFAULT 'RUNNING',
    "stopReason" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "CampaignDeletion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CampaignExtension_campaignId_status_idx" ON "CampaignExtension"("campaignId", "status");

-- CreateIndex
CREATE INDEX "CampaignExtension_createdAt_id_idx" ON "CampaignExtension"("createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "CampaignDeletion_campaignId_key" ON "CampaignDeletion"("campaignId");

-- CreateIndex
CREATE INDEX "CampaignDeletion_createdAt_id_idx" ON "CampaignDeletion"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Release_createdAt_id_idx" ON "Release"("createdAt", "id");

-- AddForeignKey
ALTER TABLE "CampaignExtension" ADD CONSTRAINT "CampaignExtension_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CampaignDeletion" ADD CONSTRAINT "CampaignDeletion_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;
