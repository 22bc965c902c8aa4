-- CreateEnum
CREATE TYPE "RunKind" AS ENUM ('DEMO', 'FULL', 'SCRATCH');

-- AlterTable
ALTER TABLE "Record" ADD COLUMN     "executableValid" BOOLEAN,
ADD COLUMN     "verifiedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "RunResult" (
    "id" TEXT NOT NULL,
    "recordId" INTEGER NOT NULL,
    "userId" TEXT,
    "batchId" TEXT,
    "kind" "RunKind" NOT NULL,
    "backend" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "exitCode" INTEGER,
    "signal" TEXT,
    "stdout" TEXT NOT NULL,
    "stderr" TEXT NOT NULL,
    "compileOutput" TEXT,
    "timeMs" INTEGER NOT NULL,
    "memoryKb" INTEGER,
    "limit" TEXT,
    "stdoutTruncated" BOOLEAN NOT NULL DEFAULT false,
    "stderrTruncated" BOOLEAN NOT NULL DEFAULT false,
    "program" TEXT NOT NULL,
    "solution" TEXT,
    "test" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VerificationBatch" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "language" TEXT,
    "force" BOOLEAN NOT NULL DEFAULT false,
    "status" "JobStatus" NOT NULL DEFAULT 'RUNNING',
    "total" INTEGER NOT NULL,
    "done" INTEGER NOT NULL DEFAULT 0,
    "executableValid" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "unavailable" INTEGER NOT NULL DEFAULT 0,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "VerificationBatch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RunResult_recordId_createdAt_idx" ON "RunResult"("recordId", "createdAt");

-- CreateIndex
CREATE INDEX "RunResult_batchId_recordId_idx" ON "RunResult"("batchId", "recordId");

-- CreateIndex
CREATE INDEX "VerificationBatch_datasetId_createdAt_idx" ON "VerificationBatch"("datasetId", "createdAt");

-- AddForeignKey
ALTER TABLE "RunResult" ADD CONSTRAINT "RunResult_recordId_fkey" FOREIGN KEY ("recordId") REFERENCES "Record"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunResult" ADD CONSTRAINT "RunResult_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunResult" ADD CONSTRAINT "RunResult_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "VerificationBatch"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VerificationBatch" ADD CONSTRAINT "VerificationBatch_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;
