-- Keeps "Record"."evidenceReasons" when a record is inserted or its mutation score, flakiness or
-- execution result is written. A new record has no critic verdict or solution yet (they reference
-- it), so its mask reads its own columns only.
-- Fired by triggers/Record.Record_keep_evidence.sql.
CREATE OR REPLACE FUNCTION verity_keep_record_evidence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW."evidenceReasons" := verity_evidence_reasons(NEW."mutationScore", NEW.flaky, NEW."executableValid", NULL, 0, 0);
  ELSE
    NEW."evidenceReasons" := verity_record_evidence_reasons(NEW.id, NEW."mutationScore", NEW.flaky, NEW."executableValid");
  END IF;
  RETURN NEW;
END
$$;
