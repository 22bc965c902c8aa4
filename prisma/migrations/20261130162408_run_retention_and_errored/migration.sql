-- AlterTable
ALTER TABLE "VerificationBatch" ADD COLUMN     "errored" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "RunResult_userId_kind_createdAt_idx" ON "RunResult"("userId", "kind", "createdAt");

-- CreateIndex
CREATE INDEX "RunResult_kind_createdAt_idx" ON "RunResult"("kind", "createdAt");
