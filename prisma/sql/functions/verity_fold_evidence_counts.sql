-- Moves a dataset's rows of "EvidenceCountDelta" into its kept counts ("EvidenceCount"), in one
-- statement: the delta rows its snapshot sees are deleted and their sums per language and mask added
-- to the kept rows, so a read (one statement too) sees the counts before the fold or after it, never
-- half. Delta rows inserted meanwhile are not seen and wait for the next fold. Folds of one dataset
-- are serialised by a transaction-level advisory lock; one that finds it taken returns false at once
-- (the other is folding). Only folds write "EvidenceCount", so writers of records never wait here.
-- Called by lib/server/evidence/reasons.ts when a count read summed many delta rows.
CREATE OR REPLACE FUNCTION verity_fold_evidence_counts(dataset_id text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  -- Lock class 0x56454331 ('VEC1'): folds of dataset counts.
  IF NOT pg_try_advisory_xact_lock(1447379761, hashtext(dataset_id)) THEN
    RETURN false;
  END IF;
  WITH folded AS (
    DELETE FROM "EvidenceCountDelta" WHERE "datasetId" = dataset_id RETURNING language, reasons, delta
  )
  INSERT INTO "EvidenceCount" ("datasetId", language, reasons, records)
  SELECT dataset_id, language, reasons, sum(delta) FROM folded
  GROUP BY language, reasons HAVING sum(delta) <> 0 ORDER BY language, reasons
  ON CONFLICT ("datasetId", language, reasons) DO UPDATE SET records = "EvidenceCount".records + EXCLUDED.records;
  RETURN true;
END
$$;
