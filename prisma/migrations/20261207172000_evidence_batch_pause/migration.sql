-- Evidence batches a person pauses, resumes and cancels (issue 36: long work in people's hands).
ALTER TABLE "EvidenceBatch" ADD COLUMN "pausedAt" TIMESTAMP(3);
ALTER TABLE "EvidenceBatch" ADD COLUMN "cancelledAt" TIMESTAMP(3);
