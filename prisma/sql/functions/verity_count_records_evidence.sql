-- Records inserted or deleted: their datasets' kept counts gain or lose them, as rows of
-- "EvidenceCountDelta" per language and mask (inserted, never updated, so writers never wait on each
-- other; functions/verity_fold_evidence_counts.sql moves them into "EvidenceCount"). Statement by
-- statement, so an import of 100,000 records writes a few rows. A deleted dataset's counts go with
-- it (cascade): records deleted with it write none.
-- Fired by triggers/Record.Record_count_evidence_{insert,delete}.sql.
CREATE OR REPLACE FUNCTION verity_count_records_evidence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "EvidenceCountDelta" ("datasetId", language, reasons, delta)
    SELECT "datasetId", language, "evidenceReasons", count(*) FROM new_rows
    WHERE "evidenceReasons" <> 0 GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO "EvidenceCountDelta" ("datasetId", language, reasons, delta)
    SELECT o."datasetId", o.language, o."evidenceReasons", -count(*) FROM old_rows o
    WHERE o."evidenceReasons" <> 0 AND EXISTS (SELECT 1 FROM "Dataset" d WHERE d.id = o."datasetId")
    GROUP BY 1, 2, 3;
  END IF;
  RETURN NULL;
END
$$;
