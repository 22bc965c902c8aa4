-- CreateEnum
CREATE TYPE "RevisionStatus" AS ENUM ('ORIGINAL', 'PROPOSED', 'ACCEPTED', 'REJECTED');

-- AlterTable
ALTER TABLE "Record" ADD COLUMN     "revision" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "Annotation" ADD COLUMN     "recordRevision" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "Adjudication" ADD COLUMN     "recordRevision" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "RecordRevision" (
    "id" TEXT NOT NULL,
    "recordId" INTEGER NOT NULL,
    "number" INTEGER NOT NULL,
    "status" "RevisionStatus" NOT NULL,
    "baseNumber" INTEGER,
    "question" TEXT NOT NULL,
    "canonicalSolution" TEXT NOT NULL,
    "demoTestFunc" TEXT NOT NULL,
    "fullTestFunc" TEXT NOT NULL,
    "changedFields" TEXT[],
    "reason" TEXT,
    "categories" TEXT[],
    "authorId" TEXT,
    "demoOutcome" TEXT,
    "fullOutcome" TEXT,
    "executableValid" BOOLEAN,
    "evidenceBackend" TEXT,
    "evidenceToolchain" TEXT,
    "evidenceAt" TIMESTAMP(3),
    "checkerId" TEXT,
    "checkValid" BOOLEAN,
    "checkCategories" TEXT[],
    "checkNote" TEXT,
    "checkedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RecordRevision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Release" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "rule" JSONB NOT NULL,
    "validity" JSONB NOT NULL,
    "disclosure" JSONB NOT NULL,
    "records" INTEGER NOT NULL,
    "excluded" INTEGER NOT NULL,
    "revised" INTEGER NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Release_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReleaseEntry" (
    "releaseId" TEXT NOT NULL,
    "recordId" INTEGER NOT NULL,
    "revision" INTEGER NOT NULL,
    "included" BOOLEAN NOT NULL,
    "reason" JSONB NOT NULL,

    CONSTRAINT "ReleaseEntry_pkey" PRIMARY KEY ("releaseId","recordId")
);

-- CreateIndex
CREATE INDEX "RecordRevision_status_createdAt_idx" ON "RecordRevision"("status", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "RecordRevision_recordId_number_key" ON "RecordRevision"("recordId", "number");

-- CreateIndex
CREATE UNIQUE INDEX "Release_datasetId_name_key" ON "Release"("datasetId", "name");

-- AddForeignKey
ALTER TABLE "RecordRevision" ADD CONSTRAINT "RecordRevision_recordId_fkey" FOREIGN KEY ("recordId") REFERENCES "Record"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RecordRevision" ADD CONSTRAINT "RecordRevision_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RecordRevision" ADD CONSTRAINT "RecordRevision_checkerId_fkey" FOREIGN KEY ("checkerId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Release" ADD CONSTRAINT "Release_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReleaseEntry" ADD CONSTRAINT "ReleaseEntry_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "Release"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReleaseEntry" ADD CONSTRAINT "ReleaseEntry_recordId_fkey" FOREIGN KEY ("recordId") REFERENCES "Record"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A record has at most one repair waiting for its second check: a second proposal would be checked
-- against content that is about to change.
CREATE UNIQUE INDEX "RecordRevision_one_proposed_idx" ON "RecordRevision"("recordId") WHERE status = 'PROPOSED';
