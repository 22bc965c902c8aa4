-- The final label of every counted campaign item, as one relation every reader that lists items
-- pages through (review queues, adjudication previous/next, agreement, reports, exports, progress).
-- lib/metrics/final-label.ts states the rule; these functions are its SQL engine, and
-- lib/server/db/final-labels.int.test.ts holds every reader equal to `finalLabel`.

-- finalVerdict's verdict: an adjudication wins; otherwise the campaign's rule over the label counts.
CREATE FUNCTION verity_final_valid(rule text, n integer, n_valid integer, adj_valid boolean) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN adj_valid IS NOT NULL THEN adj_valid
    WHEN n = 0 THEN NULL
    WHEN n_valid = n THEN true
    WHEN n_valid = 0 THEN false
    WHEN rule = 'majority' AND n_valid * 2 > n THEN true
    WHEN rule = 'majority' AND (n - n_valid) * 2 > n THEN false
    WHEN rule = 'strict' THEN false
  END
$$;

-- finalVerdict's decidedBy, beside the verdict above.
CREATE FUNCTION verity_decided_by(rule text, n integer, n_valid integer, adj_valid boolean) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN adj_valid IS NOT NULL THEN 'adjudication'
    WHEN n = 0 THEN NULL
    WHEN n_valid = n OR n_valid = 0 THEN 'unanimous'
    WHEN rule = 'majority' AND (n_valid * 2 > n OR (n - n_valid) * 2 > n) THEN 'majority'
    WHEN rule = 'strict' THEN 'strict'
  END
$$;

-- One row per counted item (gold items only measure annotators and never count) of the given
-- campaigns. An SQL function PostgreSQL inlines into the calling query: its predicates reach the
-- item index, and a column the caller does not read (the final categories, the flag) costs nothing.
CREATE FUNCTION verity_final_labels(campaign_ids text[]) RETURNS TABLE (
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
  flagged boolean
)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
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
         EXISTS (SELECT 1 FROM "Annotation" a WHERE a."itemId" = i.id AND a."needsReview")
  FROM "CampaignItem" i
  JOIN "Campaign" c ON c.id = i."campaignId"
  LEFT JOIN "Adjudication" adj ON adj."itemId" = i.id
  LEFT JOIN "Record" r ON r.id = i."recordId"
  LEFT JOIN "CriticVerdict" cv ON cv."recordId" = i."recordId"
  WHERE i."campaignId" = ANY(campaign_ids) AND NOT i.gold
$$;

-- The relation reads three small columns of every item's record; an index holding them spares
-- reading the records themselves (their statements and code make them 2–3 kB each).
CREATE INDEX "Record_evidence_idx" ON "Record" (id) INCLUDE ("executableValid", "verificationOutcome", difficulty);

-- The flagged review queue looks for a flag on every labelled item; flags are rare, so a partial
-- index answers each look-up without reading the item's labels.
CREATE INDEX "Annotation_needs_review_idx" ON "Annotation" ("itemId") WHERE "needsReview";
