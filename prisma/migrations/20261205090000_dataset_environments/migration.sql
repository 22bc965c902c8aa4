-- CreateEnum
CREATE TYPE "EnvironmentStatus" AS ENUM ('BUILDING', 'READY', 'FAILED');

-- AlterTable
ALTER TABLE "Dataset" ADD COLUMN     "environmentVersion" INTEGER;

-- AlterTable
ALTER TABLE "RunResult" ADD COLUMN     "environmentVersion" INTEGER;

-- CreateTable
CREATE TABLE "DatasetEnvironment" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "spec" JSONB NOT NULL,
    "lock" JSONB,
    "status" "EnvironmentStatus" NOT NULL DEFAULT 'BUILDING',
    "log" TEXT NOT NULL DEFAULT '',
    "error" TEXT,
    "sizeBytes" BIGINT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "DatasetEnvironment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "DatasetEnvironment_datasetId_version_key" ON "DatasetEnvironment"("datasetId", "version");

-- AddForeignKey
ALTER TABLE "DatasetEnvironment" ADD CONSTRAINT "DatasetEnvironment_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetEnvironment" ADD CONSTRAINT "DatasetEnvironment_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
