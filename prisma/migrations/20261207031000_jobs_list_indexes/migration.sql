-- The Jobs list (lib/server/jobs) reads each kind newest first by keyset (createdAt, id) with a LIMIT.
-- CreateIndex
CREATE INDEX "ImportJob_createdAt_id_idx" ON "ImportJob"("createdAt", "id");

-- CreateIndex
CREATE INDEX "VerificationBatch_createdAt_id_idx" ON "VerificationBatch"("createdAt", "id");

-- CreateIndex
CREATE INDEX "EvidenceBatch_createdAt_id_idx" ON "EvidenceBatch"("createdAt", "id");

-- CreateIndex
CREATE INDEX "SolutionBatch_createdAt_id_idx" ON "SolutionBatch"("createdAt", "id");

-- CreateIndex
CREATE INDEX "CriticRun_createdAt_id_idx" ON "CriticRun"("createdAt", "id");
