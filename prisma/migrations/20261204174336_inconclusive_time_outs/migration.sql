-- Time-outs that, run again alone, still cannot be told from a busy machine are INCONCLUSIVE: each
-- run keeps how long it waited for a slot, the machine's load and why its verdict is not the
-- program's; batches and analyses count such records apart from failed ones.

-- AlterTable
ALTER TABLE "RunResult" ADD COLUMN     "loadAverage" DOUBLE PRECISION,
ADD COLUMN     "verdictNote" TEXT,
ADD COLUMN     "waitMs" INTEGER;

-- AlterTable
ALTER TABLE "VerificationBatch" ADD COLUMN     "inconclusive" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "MutationAnalysis" ADD COLUMN     "inconclusive" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "SolutionBatch" ADD COLUMN     "inconclusive" INTEGER NOT NULL DEFAULT 0;
