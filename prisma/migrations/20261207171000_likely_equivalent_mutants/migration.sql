-- Likely-equivalent survivors, kept apart from real ones.
ALTER TABLE "Mutant" ADD COLUMN "equivalentReason" TEXT;
ALTER TABLE "MutationAnalysis" ADD COLUMN "likelyEquivalent" INTEGER NOT NULL DEFAULT 0;
