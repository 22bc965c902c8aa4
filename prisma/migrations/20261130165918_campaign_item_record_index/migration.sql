-- CreateIndex
CREATE INDEX "CampaignItem_recordId_idx" ON "CampaignItem"("recordId");
