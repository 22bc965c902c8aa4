-- Critic verdicts or solutions changed: keeps "Record"."evidenceReasons" of their records (only
-- where the mask moves, so most solver results write nothing). Statement by statement, so a bulk
-- import of verdicts or a solver batch's results update each record once.
-- Fired by triggers/CriticVerdict.CriticVerdict_keep_evidence_{insert,update,delete}.sql and
-- triggers/Solution.Solution_keep_evidence_{insert,update,delete}.sql.
CREATE OR REPLACE FUNCTION verity_evidence_sources_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  record_ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    record_ids := ARRAY(SELECT DISTINCT "recordId" FROM new_rows);
  ELSIF TG_OP = 'UPDATE' THEN
    record_ids := ARRAY(SELECT "recordId" FROM new_rows UNION SELECT "recordId" FROM old_rows);
  ELSE
    record_ids := ARRAY(SELECT DISTINCT "recordId" FROM old_rows);
  END IF;
  UPDATE "Record" r
     SET "evidenceReasons" = verity_record_evidence_reasons(r.id, r."mutationScore", r.flaky, r."executableValid")
   WHERE r.id = ANY(record_ids)
     AND r."evidenceReasons" <> verity_record_evidence_reasons(r.id, r."mutationScore", r.flaky, r."executableValid");
  RETURN NULL;
END
$$;
