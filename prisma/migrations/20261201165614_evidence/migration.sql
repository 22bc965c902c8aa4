-- CreateEnum
CREATE TYPE "PreLabelVisibility" AS ENUM ('NOTHING', 'EXECUTION', 'ALL_BUT_CRITIC', 'ALL');

-- AlterTable
ALTER TABLE "Record" ADD COLUMN     "flaky" BOOLEAN,
ADD COLUMN     "mutationScore" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "visibility" "PreLabelVisibility" NOT NULL DEFAULT 'ALL';

-- Blind mode hid exactly the critic before an annotator's first label: a blind campaign keeps that meaning.
UPDATE "Campaign" SET "visibility" = 'ALL_BUT_CRITIC' WHERE "blind";

-- CreateTable
CREATE TABLE "EvidenceBatch" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "language" TEXT,
    "mutants" INTEGER NOT NULL,
    "repeat" INTEGER NOT NULL,
    "status" "JobStatus" NOT NULL DEFAULT 'RUNNING',
    "total" INTEGER NOT NULL,
    "done" INTEGER NOT NULL DEFAULT 0,
    "errored" INTEGER NOT NULL DEFAULT 0,
    "stopReason" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "EvidenceBatch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MutationAnalysis" (
    "id" TEXT NOT NULL,
    "recordId" INTEGER NOT NULL,
    "batchId" TEXT,
    "requested" INTEGER NOT NULL,
    "generated" INTEGER NOT NULL,
    "viable" INTEGER NOT NULL,
    "killed" INTEGER NOT NULL,
    "demoKilled" INTEGER NOT NULL,
    "fullKilled" INTEGER NOT NULL,
    "stillborn" INTEGER NOT NULL,
    "score" DOUBLE PRECISION,
    "notApplicable" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MutationAnalysis_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Mutant" (
    "id" TEXT NOT NULL,
    "analysisId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "operator" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "column" INTEGER NOT NULL,
    "original" TEXT NOT NULL,
    "replacement" TEXT NOT NULL,
    "before" TEXT NOT NULL,
    "after" TEXT NOT NULL,
    "demoOutcome" TEXT,
    "fullOutcome" TEXT,
    "status" TEXT NOT NULL,

    CONSTRAINT "Mutant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FlakyCheck" (
    "id" TEXT NOT NULL,
    "recordId" INTEGER NOT NULL,
    "batchId" TEXT,
    "repeats" INTEGER NOT NULL,
    "outcomes" TEXT[],
    "flaky" BOOLEAN,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FlakyCheck_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "EvidenceBatch_datasetId_createdAt_idx" ON "EvidenceBatch"("datasetId", "createdAt");

-- CreateIndex
CREATE INDEX "MutationAnalysis_recordId_createdAt_idx" ON "MutationAnalysis"("recordId", "createdAt");

-- CreateIndex
CREATE INDEX "MutationAnalysis_batchId_recordId_idx" ON "MutationAnalysis"("batchId", "recordId");

-- CreateIndex
CREATE UNIQUE INDEX "Mutant_analysisId_position_key" ON "Mutant"("analysisId", "position");

-- CreateIndex
CREATE INDEX "FlakyCheck_recordId_createdAt_idx" ON "FlakyCheck"("recordId", "createdAt");

-- CreateIndex
CREATE INDEX "FlakyCheck_batchId_recordId_idx" ON "FlakyCheck"("batchId", "recordId");

-- CreateIndex
CREATE INDEX "Record_datasetId_flaky_id_idx" ON "Record"("datasetId", "flaky", "id");

-- AddForeignKey
ALTER TABLE "EvidenceBatch" ADD CONSTRAINT "EvidenceBatch_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MutationAnalysis" ADD CONSTRAINT "MutationAnalysis_recordId_fkey" FOREIGN KEY ("recordId") REFERENCES "Record"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MutationAnalysis" ADD CONSTRAINT "MutationAnalysis_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "EvidenceBatch"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Mutant" ADD CONSTRAINT "Mutant_analysisId_fkey" FOREIGN KEY ("analysisId") REFERENCES "MutationAnalysis"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FlakyCheck" ADD CONSTRAINT "FlakyCheck_recordId_fkey" FOREIGN KEY ("recordId") REFERENCES "Record"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FlakyCheck" ADD CONSTRAINT "FlakyCheck_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "EvidenceBatch"("id") ON DELETE SET NULL ON UPDATE CASCADE;
