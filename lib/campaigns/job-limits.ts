// When adding records to a campaign or deleting one is left to a job rather than done inside the
// request (lib/server/campaigns/extend-campaign.ts and delete-campaign.ts decide; the API catalog says it).

/**
 * The most items a request deletes with their campaign itself: each item's removal runs the
 * CampaignItem delete triggers, so the time grows with them (4–9 s at 100,000 items). Over more, the
 * campaign is marked DELETING (gone from lists and claims at once) and a job removes it. Measured by
 * `npm run bench:campaign-create` (docs/benchmarks.md, issue 36).
 */
export const ITEMS_DELETED_IN_REQUEST = 2_000;
