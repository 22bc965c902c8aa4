-- After UPDATE on "CriticVerdict" (each statement): keeps the evidence reasons of their records. Runs
-- functions/verity_evidence_sources_changed.sql.
CREATE TRIGGER "CriticVerdict_keep_evidence_update" AFTER UPDATE ON "CriticVerdict"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_evidence_sources_changed();
