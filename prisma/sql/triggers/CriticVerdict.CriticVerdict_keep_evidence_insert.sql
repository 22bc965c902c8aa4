-- After INSERT on "CriticVerdict" (each statement): keeps the evidence reasons of their records. Runs
-- functions/verity_evidence_sources_changed.sql.
CREATE TRIGGER "CriticVerdict_keep_evidence_insert" AFTER INSERT ON "CriticVerdict"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_evidence_sources_changed();
