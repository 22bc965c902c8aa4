-- AlterTable
ALTER TABLE "VerificationBatch" ADD COLUMN     "stopReason" TEXT;
