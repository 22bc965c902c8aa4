-- CreateTable
CREATE TABLE "Adjudication" (
    "id" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "valid" BOOLEAN NOT NULL,
    "categories" TEXT[],
    "reason" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Adjudication_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AdjudicationRevision" (
    "id" TEXT NOT NULL,
    "adjudicationId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "valid" BOOLEAN NOT NULL,
    "categories" TEXT[],
    "reason" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AdjudicationRevision_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Adjudication_itemId_key" ON "Adjudication"("itemId");

-- CreateIndex
CREATE UNIQUE INDEX "AdjudicationRevision_adjudicationId_revision_key" ON "AdjudicationRevision"("adjudicationId", "revision");

-- AddForeignKey
ALTER TABLE "Adjudication" ADD CONSTRAINT "Adjudication_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "CampaignItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Adjudication" ADD CONSTRAINT "Adjudication_reviewerId_fkey" FOREIGN KEY ("reviewerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AdjudicationRevision" ADD CONSTRAINT "AdjudicationRevision_adjudicationId_fkey" FOREIGN KEY ("adjudicationId") REFERENCES "Adjudication"("id") ON DELETE CASCADE ON UPDATE CASCADE;
