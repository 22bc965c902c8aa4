-- The final-label relation, one row per counted (non-gold) item of the given ids: the item's
-- labels, adjudication, critic verdict, execution result and flag, its final verdict and
-- categories, and the review queues it is in. The one definition of a final label;
-- functions/verity_keep_final_labels.sql copies its rows onto "CampaignItem", and
-- lib/server/review/kept-final-labels.int.test.ts compares the kept rows with it. Looked up by key
-- only, so the plan does not depend on what the statistics know.
CREATE OR REPLACE FUNCTION verity_final_labels_of_items(item_ids text[]) RETURNS TABLE (
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
