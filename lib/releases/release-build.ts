// When a release is built by a job rather than inside the request that cuts it
// (lib/server/releases/cut-release.ts decides; the API catalog says it).

/**
 * The most records a request builds a release of itself: a release stores an entry per record of
 * the dataset and its validity table, so its time grows with them (16.5 s at 100,000 records).
 * Over more, a job builds it and the request answers at once. The same limit as drawing a
 * campaign's items in the request (lib/campaigns/item-draw.ts). Measured by `npm run bench:release`.
 */
export const RECORDS_RELEASED_IN_REQUEST = 2_000;
