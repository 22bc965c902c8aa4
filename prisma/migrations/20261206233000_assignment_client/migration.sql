-- AlterTable
ALTER TABLE "Assignment" ADD COLUMN     "client" TEXT NOT NULL DEFAULT '';
