-- CreateTable
CREATE TABLE "CampaignChange" (
    "campaignId" TEXT NOT NULL,
    "txid" BIGINT NOT NULL,

    CONSTRAINT "CampaignChange_pkey" PRIMARY KEY ("campaignId","txid")
);

-- CreateTable
CREATE TABLE "AgreementCounts" (
    "campaignId" TEXT NOT NULL,
    "changes" INTEGER NOT NULL,
    "countedAt" TIMESTAMP(3) NOT NULL,
    "counts" JSONB NOT NULL,

    CONSTRAINT "AgreementCounts_pkey" PRIMARY KEY ("campaignId")
);

-- AddForeignKey
ALTER TABLE "CampaignChange" ADD CONSTRAINT "CampaignChange_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgreementCounts" ADD CONSTRAINT "AgreementCounts_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The campaigns whose agreement figures a transaction changed, once each per transaction.
-- Only campaigns that still exist: a campaign's delete cascades to its items and labels, whose
-- triggers then find no campaign to note.
CREATE FUNCTION verity_note_campaign_changes(campaign_ids text[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "CampaignChange" ("campaignId", txid)
  SELECT c.id, pg_current_xact_id()::text::bigint FROM "Campaign" c WHERE c.id = ANY(campaign_ids)
  ON CONFLICT DO NOTHING;
$$;

-- Labels: any change, their timing and pre-reveal verdicts included (annotator statistics count them).
CREATE FUNCTION verity_note_annotation_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM verity_note_campaign_changes(ARRAY(
      SELECT DISTINCT i."campaignId" FROM "CampaignItem" i WHERE i.id IN (SELECT "itemId" FROM new_rows)));
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM verity_note_campaign_changes(ARRAY(
      SELECT DISTINCT i."campaignId" FROM "CampaignItem" i WHERE i.id IN (SELECT "itemId" FROM old_rows)));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "Annotation_note_changes_insert" AFTER INSERT ON "Annotation"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_annotation_changes();
CREATE TRIGGER "Annotation_note_changes_update" AFTER UPDATE ON "Annotation"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_annotation_changes();
CREATE TRIGGER "Annotation_note_changes_delete" AFTER DELETE ON "Annotation"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_annotation_changes();

-- The critic's verdicts: whether a record passes and which rules it fails (rule precision and recall).
CREATE FUNCTION verity_note_critic_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM verity_note_campaign_changes(ARRAY(
      SELECT DISTINCT i."campaignId" FROM "CampaignItem" i WHERE i."recordId" IN (SELECT "recordId" FROM new_rows)));
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM verity_note_campaign_changes(ARRAY(
      SELECT DISTINCT i."campaignId" FROM "CampaignItem" i WHERE i."recordId" IN (SELECT "recordId" FROM old_rows)));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "CriticVerdict_note_changes_insert" AFTER INSERT ON "CriticVerdict"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_critic_changes();
CREATE TRIGGER "CriticVerdict_note_changes_update" AFTER UPDATE ON "CriticVerdict"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_critic_changes();
CREATE TRIGGER "CriticVerdict_note_changes_delete" AFTER DELETE ON "CriticVerdict"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_critic_changes();

-- A record's execution result. Row by row with a WHEN: records are wide and most updates leave it.
CREATE FUNCTION verity_note_execution_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verity_note_campaign_changes(ARRAY(SELECT DISTINCT "campaignId" FROM "CampaignItem" WHERE "recordId" = NEW.id));
  RETURN NULL;
END
$$;
CREATE TRIGGER "Record_note_changes" AFTER UPDATE OF "executableValid" ON "Record"
  FOR EACH ROW WHEN (OLD."executableValid" IS DISTINCT FROM NEW."executableValid")
  EXECUTE FUNCTION verity_note_execution_changes();

-- Items: added or removed, and their kept final labels, gold flag and language (an adjudication or
-- a rule change reaches the figures through these). Row by row with a WHEN: claims update items all
-- the time without touching any of it.
CREATE FUNCTION verity_note_item_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM verity_note_campaign_changes(ARRAY[NEW."campaignId", OLD."campaignId"]);
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM verity_note_campaign_changes(ARRAY(SELECT DISTINCT "campaignId" FROM new_rows));
  ELSE
    PERFORM verity_note_campaign_changes(ARRAY(SELECT DISTINCT "campaignId" FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "CampaignItem_note_changes_insert" AFTER INSERT ON "CampaignItem"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_item_changes();
CREATE TRIGGER "CampaignItem_note_changes_delete" AFTER DELETE ON "CampaignItem"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_item_changes();
CREATE TRIGGER "CampaignItem_note_changes_update" AFTER UPDATE ON "CampaignItem"
  FOR EACH ROW WHEN ((OLD."finalValid", OLD."finalCategories", OLD.gold, OLD.language, OLD."campaignId")
                     IS DISTINCT FROM (NEW."finalValid", NEW."finalCategories", NEW.gold, NEW.language, NEW."campaignId"))
  EXECUTE FUNCTION verity_note_item_changes();

-- The taxonomy: which category a critic rule maps to.
CREATE FUNCTION verity_note_category_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM verity_note_campaign_changes(ARRAY(SELECT DISTINCT "campaignId" FROM new_rows));
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM verity_note_campaign_changes(ARRAY(SELECT DISTINCT "campaignId" FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "ErrorCategory_note_changes_insert" AFTER INSERT ON "ErrorCategory"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_category_changes();
CREATE TRIGGER "ErrorCategory_note_changes_update" AFTER UPDATE ON "ErrorCategory"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_category_changes();
CREATE TRIGGER "ErrorCategory_note_changes_delete" AFTER DELETE ON "ErrorCategory"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_note_category_changes();
