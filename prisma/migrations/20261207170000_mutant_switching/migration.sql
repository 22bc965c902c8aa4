-- Mutant schemata: whether a mutant ran in its record's switched program, and why not.
ALTER TABLE "Mutant" ADD COLUMN "isSwitched" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Mutant" ADD COLUMN "aloneReason" TEXT;
