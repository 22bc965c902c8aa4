-- CreateTable
CREATE TABLE "Critic" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL DEFAULT '',
    "apiKeyEnv" TEXT,
    "apiKeySealed" TEXT,
    "concurrency" INTEGER NOT NULL DEFAULT 4,
    "timeoutMs" INTEGER NOT NULL DEFAULT 60000,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Critic_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CriticVersion" (
    "id" TEXT NOT NULL,
    "criticId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "model" TEXT NOT NULL DEFAULT '',
    "temperature" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "maxTokens" INTEGER NOT NULL DEFAULT 2048,
    "template" TEXT NOT NULL DEFAULT '',
    "usedAt" TIMESTAMP(3),
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CriticVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CriticRun" (
    "id" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "language" TEXT,
    "campaignId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'RUNNING',
    "total" INTEGER NOT NULL,
    "done" INTEGER NOT NULL DEFAULT 0,
    "parsed" INTEGER NOT NULL DEFAULT 0,
    "unreadable" INTEGER NOT NULL DEFAULT 0,
    "pass" INTEGER NOT NULL DEFAULT 0,
    "fail" INTEGER NOT NULL DEFAULT 0,
    "errored" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "stopReason" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "CriticRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CriticResult" (
    "id" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "runId" TEXT,
    "recordId" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "overallPass" BOOLEAN,
    "failedRules" TEXT[],
    "rules" JSONB NOT NULL DEFAULT '[]',
    "confidence" DOUBLE PRECISION,
    "raw" TEXT NOT NULL,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 1,
    "latencyMs" INTEGER,
    "promptTokens" INTEGER,
    "completionTokens" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CriticResult_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Critic_name_key" ON "Critic"("name");

-- CreateIndex
CREATE UNIQUE INDEX "CriticVersion_criticId_number_key" ON "CriticVersion"("criticId", "number");

-- CreateIndex
CREATE INDEX "CriticRun_datasetId_createdAt_idx" ON "CriticRun"("datasetId", "createdAt");

-- CreateIndex
CREATE INDEX "CriticResult_runId_id_idx" ON "CriticResult"("runId", "id");

-- CreateIndex
CREATE INDEX "CriticResult_recordId_idx" ON "CriticResult"("recordId");

-- CreateIndex
CREATE UNIQUE INDEX "CriticResult_versionId_recordId_key" ON "CriticResult"("versionId", "recordId");

-- AddForeignKey
ALTER TABLE "CriticVersion" ADD CONSTRAINT "CriticVersion_criticId_fkey" FOREIGN KEY ("criticId") REFERENCES "Critic"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CriticRun" ADD CONSTRAINT "CriticRun_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "CriticVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CriticRun" ADD CONSTRAINT "CriticRun_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CriticResult" ADD CONSTRAINT "CriticResult_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "CriticVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CriticResult" ADD CONSTRAINT "CriticResult_runId_fkey" FOREIGN KEY ("runId") REFERENCES "CriticRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CriticResult" ADD CONSTRAINT "CriticResult_recordId_fkey" FOREIGN KEY ("recordId") REFERENCES "Record"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The verdicts that came in the record files stay where they are, in "CriticVerdict" (one per
-- record), which every existing figure reads: nothing is copied or lost. They are one more critic
-- version, the built-in "imported" v1, made up when read (lib/server/critics/critics.ts,
-- IMPORTED_CRITIC) rather than stored, so a fresh database holds no rows and a backup restores into it.
