-- AlterTable
ALTER TABLE "VerificationBatch" ADD COLUMN     "flaky" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "repeat" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "FlakyCheck" ADD COLUMN     "verificationBatchId" TEXT;

-- AddForeignKey
ALTER TABLE "FlakyCheck" ADD CONSTRAINT "FlakyCheck_verificationBatchId_fkey" FOREIGN KEY ("verificationBatchId") REFERENCES "VerificationBatch"("id") ON DELETE SET NULL ON UPDATE CASCADE;
