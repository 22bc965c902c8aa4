-- The final-label definition is now stated over item ids, and the whole-campaign form reads it.
-- Keeping an item's row used to filter the campaign's relation by the item's id, so the planner
-- chose between the item's key and the campaign's index by its statistics. For a campaign created
-- after the last ANALYZE (a new campaign in a large database: autovacuum re-analyses only after 10%
-- of the table changes) it estimated one item and walked the campaign's index, every item of it,
-- on every label: hundreds of milliseconds per submit on a new 100,000-item campaign. Looked up by
-- key only, the plan no longer depends on what the statistics know.

CREATE FUNCTION verity_final_labels_of_items(item_ids text[]) RETURNS TABLE (
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
  SELECT f.*, verity_reason_count(f.reasons) FROM (
    SELECT i.id, i."campaignId", i."recordId", i.language, i.position, i."labelCount", i."validCount", i.target,
           adj.valid, adj.categories,
           verity_final_valid(c."finalRule", i."labelCount", i."validCount", adj.valid),
           verity_decided_by(c."finalRule", i."labelCount", i."validCount", adj.valid),
           -- categorySource: the adjudicator's categories, those of the annotators who said Invalid, or none.
           CASE
             WHEN adj.valid IS NOT NULL THEN 'adjudication'
             WHEN verity_final_valid(c."finalRule", i."labelCount", i."validCount", adj.valid) = false THEN 'invalid-labels'
           END,
           -- evidenceStrength: which campaign's label a record keeps across campaigns.
           CASE
             WHEN verity_final_valid(c."finalRule", i."labelCount", i."validCount", adj.valid) IS NULL THEN
               CASE WHEN i."labelCount" > 0 THEN 1 ELSE 0 END
             ELSE CASE WHEN adj.valid IS NOT NULL THEN 2000000 ELSE 1000000 END
                  + CASE WHEN verity_final_valid(c."finalRule", i."labelCount", i."validCount", adj.valid)
                         THEN i."validCount" ELSE i."labelCount" - i."validCount" END
           END,
           -- finalLabel's categories: the adjudicator's as given; else, on an Invalid verdict, the sorted
           -- union of the invalidating categories of the Invalid labels.
           CASE
             WHEN adj.valid IS NOT NULL THEN adj.categories
             WHEN verity_final_valid(c."finalRule", i."labelCount", i."validCount", adj.valid) = false THEN
               ARRAY(SELECT DISTINCT k.key COLLATE "C" FROM "Annotation" a CROSS JOIN unnest(a.categories) AS k(key)
                     JOIN "ErrorCategory" ec ON ec."campaignId" = i."campaignId" AND ec.key = k.key AND ec.invalidating
                     WHERE a."itemId" = i.id AND NOT a.valid ORDER BY 1)
             ELSE '{}'::text[]
           END,
           r.difficulty, cv."overallPass", cv."failedRules", r."executableValid",
           r."verificationOutcome" = 'UNAVAILABLE',
           EXISTS (SELECT 1 FROM "Annotation" a WHERE a."itemId" = i.id AND a."needsReview"),
           verity_review_reasons(i."labelCount", i."validCount", adj.valid,
                                 verity_final_valid(c."finalRule", i."labelCount", i."validCount", adj.valid),
                                 cv."overallPass", r."executableValid",
                                 EXISTS (SELECT 1 FROM "Annotation" a WHERE a."itemId" = i.id AND a."needsReview"))
    FROM "CampaignItem" i
    JOIN "Campaign" c ON c.id = i."campaignId"
    LEFT JOIN "Adjudication" adj ON adj."itemId" = i.id
    LEFT JOIN "Record" r ON r.id = i."recordId"
    LEFT JOIN "CriticVerdict" cv ON cv."recordId" = i."recordId"
    WHERE i.id = ANY(item_ids) AND NOT i.gold
  ) f(item_id, campaign_id, record_id, language, "position", n, n_valid, target, adj_valid, adj_categories,
      final_valid, decided_by, category_source, strength, final_categories, difficulty, critic_pass,
      critic_failed_rules, exec_valid, exec_unavailable, flagged, reasons)
$$;

-- The definition for whole campaigns: what the property tests compare the kept rows with.
CREATE OR REPLACE FUNCTION verity_final_labels(campaign_ids text[]) RETURNS TABLE (
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
  SELECT * FROM verity_final_labels_of_items(ARRAY(
    SELECT id FROM "CampaignItem" WHERE "campaignId" = ANY(campaign_ids)))
$$;

CREATE OR REPLACE FUNCTION verity_keep_final_labels(item_ids text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  locked text[];
BEGIN
  IF item_ids IS NULL OR cardinality(item_ids) = 0 THEN RETURN; END IF;
  locked := ARRAY(SELECT id FROM "CampaignItem" WHERE id = ANY(item_ids) ORDER BY id FOR UPDATE);
  IF cardinality(locked) = 0 THEN RETURN; END IF;
  UPDATE "CampaignItem" i
  SET "finalValid" = f.final_valid, "decidedBy" = f.decided_by, "categorySource" = f.category_source,
      strength = f.strength, "finalCategories" = f.final_categories, flagged = f.flagged,
      "reviewReasons" = f.review_reasons, "reviewReasonCount" = f.review_reason_count
  FROM verity_final_labels_of_items(locked) f
  WHERE f.item_id = i.id AND i.id = ANY(locked)
    AND (i."finalValid", i."decidedBy", i."categorySource", i.strength, i."finalCategories", i.flagged,
         i."reviewReasons", i."reviewReasonCount")
        IS DISTINCT FROM (f.final_valid, f.decided_by, f.category_source, f.strength, f.final_categories,
                          f.flagged, f.review_reasons, f.review_reason_count);
  UPDATE "CampaignItem" i
  SET "finalValid" = NULL, "decidedBy" = NULL, "categorySource" = NULL, strength = 0, "finalCategories" = '{}',
      flagged = false, "reviewReasons" = 0, "reviewReasonCount" = 0
  WHERE i.id = ANY(locked) AND i.gold
    AND (i."finalValid" IS NOT NULL OR i."decidedBy" IS NOT NULL OR i."categorySource" IS NOT NULL OR i.strength <> 0
         OR i."finalCategories" <> '{}' OR i.flagged OR i."reviewReasons" <> 0);
END
$$;
