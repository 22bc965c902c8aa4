-- AlterTable
ALTER TABLE "VerificationBatch" ADD COLUMN     "cancelledAt" TIMESTAMP(3),
ADD COLUMN     "pausedAt" TIMESTAMP(3);
