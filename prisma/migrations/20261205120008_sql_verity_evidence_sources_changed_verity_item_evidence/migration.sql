-- Written by `npm run db:sql-migration` from prisma/sql, which holds each rule's current definition.

-- prisma/sql/functions/verity_evidence_sources_changed.sql
-- Critic verdicts or solutions changed: keeps "Record"."evidenceReasons" of their records (only
-- where the mask moves, so most solver results write nothing but a row lock). Statement by statement, so a bulk
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
  -- Lock the records first (in id order), then read their verdicts and solutions in the next
  -- statement, whose snapshot is taken once the locks are held: a writer that wrote another verdict,
  -- solution or column of one of them has committed by then and is seen. Without the lock two
  -- transactions each adding a solution of one record computed its mask from their own solution
  -- alone, and the last to write kept a wrong mask (evidence-counts.int.test.ts).
  PERFORM 1 FROM "Record" WHERE id = ANY(record_ids) ORDER BY id FOR NO KEY UPDATE;
  UPDATE "Record" r
     SET "evidenceReasons" = verity_record_evidence_reasons(r.id, r."mutationScore", r.flaky, r."executableValid")
   WHERE r.id = ANY(record_ids)
     AND r."evidenceReasons" <> verity_record_evidence_reasons(r.id, r."mutationScore", r.flaky, r."executableValid");
  RETURN NULL;
END
$$;

-- prisma/sql/functions/verity_item_evidence.sql
-- A new campaign item takes its record's evidence reasons ("Record"."evidenceReasons").
-- Fired by triggers/CampaignItem.CampaignItem_keep_evidence.sql.
CREATE OR REPLACE FUNCTION verity_item_evidence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- FOR SHARE: a transaction writing the record's evidence has committed before this reads its
  -- mask, and one that starts later waits for this item, then updates it too
  -- (functions/verity_record_evidence_changed.sql). A plain read took the mask from before a
  -- concurrent write, which then missed the new item (evidence-counts.int.test.ts).
  NEW."evidenceReasons" := coalesce((SELECT "evidenceReasons" FROM "Record" WHERE id = NEW."recordId" FOR SHARE), 0);
  RETURN NEW;
END
$$;
