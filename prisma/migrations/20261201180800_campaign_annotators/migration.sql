-- CreateTable
CREATE TABLE "CampaignAnnotator" (
    "campaignId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "labels" INTEGER NOT NULL,

    CONSTRAINT "CampaignAnnotator_pkey" PRIMARY KEY ("campaignId","userId")
);

-- AddForeignKey
ALTER TABLE "CampaignAnnotator" ADD CONSTRAINT "CampaignAnnotator_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CampaignAnnotator" ADD CONSTRAINT "CampaignAnnotator_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Who labelled each campaign's counted items, kept in the transaction of every label (and recounted
-- for a campaign whose items are removed or change their gold flag).
CREATE FUNCTION verity_count_campaign_annotators(campaign_ids text[]) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM "CampaignAnnotator" WHERE "campaignId" = ANY(campaign_ids);
  INSERT INTO "CampaignAnnotator" ("campaignId", "userId", labels)
  SELECT i."campaignId", a."userId", count(*) FROM "Annotation" a JOIN "CampaignItem" i ON i.id = a."itemId"
  WHERE i."campaignId" = ANY(campaign_ids) AND NOT i.gold AND EXISTS (SELECT 1 FROM "Campaign" c WHERE c.id = i."campaignId")
  GROUP BY 1, 2;
$$;

-- Labels added or removed move their (campaign, annotator) count (rows taken in key order).
CREATE FUNCTION verity_annotators_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "CampaignAnnotator" ("campaignId", "userId", labels)
    SELECT i."campaignId", n."userId", count(*) FROM new_rows n JOIN "CampaignItem" i ON i.id = n."itemId"
    WHERE NOT i.gold GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("campaignId", "userId") DO UPDATE SET labels = "CampaignAnnotator".labels + EXCLUDED.labels;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "CampaignAnnotator" k SET labels = k.labels - d.n
    FROM (SELECT i."campaignId", o."userId", count(*)::int AS n FROM old_rows o JOIN "CampaignItem" i ON i.id = o."itemId"
          WHERE NOT i.gold GROUP BY 1, 2) d
    WHERE k."campaignId" = d."campaignId" AND k."userId" = d."userId";
    DELETE FROM "CampaignAnnotator" WHERE labels <= 0;
  ELSIF EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
                WHERE (n."itemId", n."userId") IS DISTINCT FROM (o."itemId", o."userId")) THEN
    -- A label moved to another item or annotator (no writer does this today): recount what it touched.
    PERFORM verity_count_campaign_annotators(ARRAY(
      SELECT DISTINCT i."campaignId" FROM "CampaignItem" i
      WHERE i.id IN (SELECT "itemId" FROM new_rows UNION SELECT "itemId" FROM old_rows)));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "Annotation_count_annotators_insert" AFTER INSERT ON "Annotation"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_annotators_changed();
CREATE TRIGGER "Annotation_count_annotators_update" AFTER UPDATE ON "Annotation"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_annotators_changed();
CREATE TRIGGER "Annotation_count_annotators_delete" AFTER DELETE ON "Annotation"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_annotators_changed();

-- Removing items cascades to their labels after the items are gone, so their campaigns are recounted.
CREATE FUNCTION verity_items_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verity_count_campaign_annotators(ARRAY(SELECT DISTINCT "campaignId" FROM old_rows));
  RETURN NULL;
END
$$;
CREATE TRIGGER "CampaignItem_count_annotators_delete" AFTER DELETE ON "CampaignItem"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION verity_items_removed();

CREATE FUNCTION verity_item_gold_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM verity_count_campaign_annotators(ARRAY[NEW."campaignId"]);
  RETURN NULL;
END
$$;
CREATE TRIGGER "CampaignItem_count_annotators_gold" AFTER UPDATE OF gold ON "CampaignItem"
  FOR EACH ROW WHEN (OLD.gold IS DISTINCT FROM NEW.gold) EXECUTE FUNCTION verity_item_gold_changed();

SELECT verity_count_campaign_annotators(ARRAY(SELECT id FROM "Campaign"));

-- Campaign progress (the campaign list) sums each item's counters: an index holding them answers it.
CREATE INDEX "CampaignItem_progress_idx" ON "CampaignItem" ("campaignId", language) INCLUDE (target, "labelCount", "recordId") WHERE NOT gold;

-- The kept relation reads the adjudication by sub-select instead of a join: a join on the item's id,
-- even one PostgreSQL removes as unused, keeps the id "needed" and so rules out answering the queue
-- counts and progress from their indexes alone. Only the few rows decided again for a hidden critic read it.
CREATE OR REPLACE FUNCTION verity_kept_final_labels(campaign_ids text[]) RETURNS TABLE (
  item_id text,
  campaign_id text,
  record_id integer,
  language text,
  "position" integer,
  n integer,
  n_valid integer,
  target integer,
  adj_valid boolean,
  adj_categories text[],
  final_valid boolean,
  decided_by text,
  category_source text,
  strength integer,
  final_categories text[],
  difficulty text,
  critic_pass boolean,
  critic_failed_rules text[],
  exec_valid boolean,
  exec_unavailable boolean,
  flagged boolean,
  review_reasons integer,
  review_reason_count integer
)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT i.id, i."campaignId", i."recordId", i.language, i.position, i."labelCount", i."validCount", i.target,
         (SELECT adj.valid FROM "Adjudication" adj WHERE adj."itemId" = i.id),
         (SELECT adj.categories FROM "Adjudication" adj WHERE adj."itemId" = i.id),
         i."finalValid", i."decidedBy", i."categorySource", i.strength,
         coalesce(i."finalCategories", '{}'), r.difficulty, cv."overallPass", cv."failedRules", r."executableValid",
         r."verificationOutcome" = 'UNAVAILABLE', i.flagged, i."reviewReasons", i."reviewReasonCount"
  FROM "CampaignItem" i
  LEFT JOIN "Record" r ON r.id = i."recordId"
  LEFT JOIN "CriticVerdict" cv ON cv."recordId" = i."recordId"
  WHERE i."campaignId" = ANY(campaign_ids) AND NOT i.gold
$$;
