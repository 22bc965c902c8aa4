-- CreateTable
CREATE TABLE "Solution" (
    "id" TEXT NOT NULL,
    "recordId" INTEGER NOT NULL,
    "model" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "reply" TEXT,
    "batchId" TEXT,
    "outcome" TEXT,
    "demoOutcome" TEXT,
    "fullOutcome" TEXT,
    "passed" BOOLEAN,
    "detail" TEXT,
    "timeMs" INTEGER,
    "ranAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Solution_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SolutionBatch" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "status" "JobStatus" NOT NULL DEFAULT 'RUNNING',
    "origin" TEXT NOT NULL,
    "fileName" TEXT,
    "models" TEXT[],
    "total" INTEGER NOT NULL,
    "done" INTEGER NOT NULL DEFAULT 0,
    "passed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "unavailable" INTEGER NOT NULL DEFAULT 0,
    "errored" INTEGER NOT NULL DEFAULT 0,
    "stopReason" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "SolutionBatch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Solution_batchId_idx" ON "Solution"("batchId");

-- CreateIndex
CREATE UNIQUE INDEX "Solution_recordId_model_key" ON "Solution"("recordId", "model");

-- CreateIndex
CREATE INDEX "SolutionBatch_datasetId_createdAt_idx" ON "SolutionBatch"("datasetId", "createdAt");

-- AddForeignKey
ALTER TABLE "Solution" ADD CONSTRAINT "Solution_recordId_fkey" FOREIGN KEY ("recordId") REFERENCES "Record"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Solution" ADD CONSTRAINT "Solution_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "SolutionBatch"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SolutionBatch" ADD CONSTRAINT "SolutionBatch_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;
