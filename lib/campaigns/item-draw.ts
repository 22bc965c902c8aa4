// When a campaign's items are drawn by a job rather than inside the request that creates it
// (lib/server/campaigns/insert-campaign.ts decides; the API catalog and the form say it).

/**
 * The most records a request draws a sample from itself: drawing ranks every record of the chosen
 * languages (suspicion scores them all), whatever the sample's size, so its time grows with them.
 * Over more, a job draws the items and the request answers at once. Measured by `npm run
 * bench:campaign-create` (docs/benchmarks.md, "Campaign creation at 100k (issue 36)").
 */
export const RECORDS_DRAWN_IN_REQUEST = 2_000;
