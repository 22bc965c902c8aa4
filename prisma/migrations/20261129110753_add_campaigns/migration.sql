-- CreateEnum
CREATE TYPE "AssignmentStatus" AS ENUM ('ACTIVE', 'SUBMITTED', 'SKIPPED', 'EXPIRED');

-- AlterTable
ALTER TABLE "RunResult" ADD COLUMN     "annotationId" TEXT;

-- CreateTable
CREATE TABLE "Campaign" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "languages" TEXT[],
    "perLanguage" INTEGER,
    "seed" TEXT NOT NULL,
    "overlap" INTEGER NOT NULL DEFAULT 1,
    "agreementFraction" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "blind" BOOLEAN NOT NULL DEFAULT false,
    "finalRule" TEXT NOT NULL DEFAULT 'consensus',
    "leaseMinutes" INTEGER NOT NULL DEFAULT 30,
    "itemCount" INTEGER NOT NULL DEFAULT 0,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Campaign_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ErrorCategory" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "invalidating" BOOLEAN NOT NULL,
    "criticRule" TEXT,
    "position" INTEGER NOT NULL,

    CONSTRAINT "ErrorCategory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CampaignItem" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "recordId" INTEGER NOT NULL,
    "language" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "target" INTEGER NOT NULL,
    "slotsTaken" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CampaignItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Assignment" (
    "id" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "status" "AssignmentStatus" NOT NULL DEFAULT 'ACTIVE',
    "leaseExpiresAt" TIMESTAMP(3) NOT NULL,
    "skipReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Assignment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Annotation" (
    "id" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "valid" BOOLEAN NOT NULL,
    "categories" TEXT[],
    "note" TEXT,
    "testLine" INTEGER,
    "needsReview" BOOLEAN NOT NULL DEFAULT false,
    "activeMs" INTEGER NOT NULL DEFAULT 0,
    "preRevealValid" BOOLEAN,
    "preRevealCategories" TEXT[],
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Annotation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnnotationRevision" (
    "id" TEXT NOT NULL,
    "annotationId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "valid" BOOLEAN NOT NULL,
    "categories" TEXT[],
    "note" TEXT,
    "testLine" INTEGER,
    "needsReview" BOOLEAN NOT NULL,
    "activeMs" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AnnotationRevision_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Campaign_name_key" ON "Campaign"("name");

-- CreateIndex
CREATE UNIQUE INDEX "ErrorCategory_campaignId_key_key" ON "ErrorCategory"("campaignId", "key");

-- CreateIndex
CREATE INDEX "CampaignItem_campaignId_language_position_idx" ON "CampaignItem"("campaignId", "language", "position");

-- CreateIndex
CREATE UNIQUE INDEX "CampaignItem_campaignId_recordId_key" ON "CampaignItem"("campaignId", "recordId");

-- CreateIndex
CREATE INDEX "Assignment_status_leaseExpiresAt_idx" ON "Assignment"("status", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "Assignment_userId_status_idx" ON "Assignment"("userId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Assignment_itemId_userId_key" ON "Assignment"("itemId", "userId");

-- CreateIndex
CREATE INDEX "Annotation_userId_updatedAt_idx" ON "Annotation"("userId", "updatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Annotation_itemId_userId_key" ON "Annotation"("itemId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "AnnotationRevision_annotationId_revision_key" ON "AnnotationRevision"("annotationId", "revision");

-- AddForeignKey
ALTER TABLE "RunResult" ADD CONSTRAINT "RunResult_annotationId_fkey" FOREIGN KEY ("annotationId") REFERENCES "Annotation"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Campaign" ADD CONSTRAINT "Campaign_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ErrorCategory" ADD CONSTRAINT "ErrorCategory_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CampaignItem" ADD CONSTRAINT "CampaignItem_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CampaignItem" ADD CONSTRAINT "CampaignItem_recordId_fkey" FOREIGN KEY ("recordId") REFERENCES "Record"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "CampaignItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Annotation" ADD CONSTRAINT "Annotation_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "CampaignItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Annotation" ADD CONSTRAINT "Annotation_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnnotationRevision" ADD CONSTRAINT "AnnotationRevision_annotationId_fkey" FOREIGN KEY ("annotationId") REFERENCES "Annotation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Claiming scans only items with a free slot, in campaign order, however full the campaign is.
CREATE INDEX "CampaignItem_open_slots_idx" ON "CampaignItem" ("campaignId", "position") WHERE "slotsTaken" < "target";
