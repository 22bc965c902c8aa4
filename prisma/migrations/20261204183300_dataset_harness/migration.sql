-- AlterTable
ALTER TABLE "Dataset" ADD COLUMN     "harness" JSONB NOT NULL DEFAULT '{}';
