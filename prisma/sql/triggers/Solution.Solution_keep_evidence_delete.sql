-- After DELETE on "Solution" (each statement): keeps the evidence reasons of their records. Runs
-- functions/verity_evidence_sources_changed.sql.
CREATE TRIGGER "Solution_keep_evidence_delete" AFTER DELETE ON "Solution"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_evidence_sources_changed();
