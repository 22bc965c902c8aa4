-- After INSERT on "Solution" (each statement): keeps the evidence reasons of their records. Runs
-- functions/verity_evidence_sources_changed.sql.
CREATE TRIGGER "Solution_keep_evidence_insert" AFTER INSERT ON "Solution"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_evidence_sources_changed();
