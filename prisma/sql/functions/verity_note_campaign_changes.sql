-- Notes in "CampaignChange" the campaigns whose agreement figures a transaction changed, once each
-- per transaction; the kept agreement counts are counted again after it. Only campaigns that still
-- exist: a campaign's delete cascades to its items and labels, whose triggers then find none.
CREATE OR REPLACE FUNCTION verity_note_campaign_changes(campaign_ids text[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "CampaignChange" ("campaignId", txid)
  SELECT c.id, pg_current_xact_id()::text::bigint FROM "Campaign" c WHERE c.id = ANY(campaign_ids)
  ON CONFLICT DO NOTHING;
$$;
