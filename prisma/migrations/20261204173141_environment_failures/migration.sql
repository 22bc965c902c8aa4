-- AlterTable
ALTER TABLE "RunResult" ADD COLUMN     "environmentKind" TEXT,
ADD COLUMN     "environmentMissing" TEXT;

-- AlterTable
ALTER TABLE "VerificationBatch" ADD COLUMN     "environmentFailed" INTEGER NOT NULL DEFAULT 0;
