-- Records inserted or deleted: their datasets' kept counts ("EvidenceCount") per language and mask
-- gain or lose them. Statement by statement, so an import of 100,000 records writes a few rows. A
-- deleted dataset's count rows go with it (cascade): only existing rows lose records.
-- Fired by triggers/Record.Record_count_evidence_{insert,delete}.sql.
CREATE OR REPLACE FUNCTION verity_count_records_evidence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "EvidenceCount" ("datasetId", language, reasons, records)
    SELECT "datasetId", language, "evidenceReasons", count(*) FROM new_rows
    WHERE "evidenceReasons" <> 0 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("datasetId", language, reasons) DO UPDATE SET records = "EvidenceCount".records + EXCLUDED.records;
  ELSE
    UPDATE "EvidenceCount" c SET records = c.records - gone.n
    FROM (SELECT "datasetId", language, "evidenceReasons" AS reasons, count(*) AS n FROM old_rows
          WHERE "evidenceReasons" <> 0 GROUP BY 1, 2, 3) gone
    WHERE c."datasetId" = gone."datasetId" AND c.language = gone.language AND c.reasons = gone.reasons;
  END IF;
  RETURN NULL;
END
$$;
