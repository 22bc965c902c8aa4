-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "guidelines" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "requireInvalidNote" BOOLEAN NOT NULL DEFAULT false;
