-- The final-label relation of whole campaigns, read through functions/verity_final_labels_of_items.sql:
-- what the property tests compare the kept rows with.
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
