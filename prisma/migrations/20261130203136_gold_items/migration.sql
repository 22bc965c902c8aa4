-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "goldShare" DOUBLE PRECISION NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "CampaignItem" ADD COLUMN     "gold" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "GoldLabel" (
    "recordId" INTEGER NOT NULL,
    "valid" BOOLEAN NOT NULL,
    "categories" TEXT[],
    "note" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GoldLabel_pkey" PRIMARY KEY ("recordId")
);

-- AddForeignKey
ALTER TABLE "GoldLabel" ADD CONSTRAINT "GoldLabel_recordId_fkey" FOREIGN KEY ("recordId") REFERENCES "Record"("id") ON DELETE CASCADE ON UPDATE CASCADE;
