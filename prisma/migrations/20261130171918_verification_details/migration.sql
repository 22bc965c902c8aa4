-- AlterTable
ALTER TABLE "Record" ADD COLUMN     "verificationOutcome" TEXT;

-- AlterTable
ALTER TABLE "RunResult" ADD COLUMN     "compileMs" INTEGER,
ADD COLUMN     "runMs" INTEGER,
ADD COLUMN     "toolchain" TEXT;

-- CreateIndex
CREATE INDEX "Record_datasetId_verificationOutcome_id_idx" ON "Record"("datasetId", "verificationOutcome", "id");

-- Records verified before this column existed: a pass is a pass, the outcome of a failure is
-- unknown until the next verification (it stays null and shows as "fails").
UPDATE "Record" SET "verificationOutcome" = 'PASSED' WHERE "executableValid" = true;
