-- The drawing of a large campaign's items as a job (issue 36): the request creates the campaign and
-- this row, a worker inserts the items.
-- CreateTable
CREATE TABLE "CampaignItemDraw" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "status" "JobStatus" NOT NULL DEFAULT 'RUNNING',
    "total" INTEGER NOT NULL,
    "stopReason" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "CampaignItemDraw_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CampaignItemDraw_campaignId_key" ON "CampaignItemDraw"("campaignId");

-- CreateIndex
CREATE INDEX "CampaignItemDraw_createdAt_id_idx" ON "CampaignItemDraw"("createdAt", "id");

-- AddForeignKey
ALTER TABLE "CampaignItemDraw" ADD CONSTRAINT "CampaignItemDraw_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;
