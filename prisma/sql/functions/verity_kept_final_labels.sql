-- The final-label relation of whole campaigns as kept on "CampaignItem" (by the triggers that run
-- functions/verity_keep_final_labels.sql): what readers page through. It reads the adjudication by
-- sub-select instead of a join, so queue counts and progress are answered from indexes alone.
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
