-- Whether snapshot `later` sees every transaction `earlier` sees, so a kept agreement count taken in
-- `later` may replace one taken in `earlier`: nothing `later` cannot see (in progress at it, or from
-- its xmax on) is visible in `earlier`. Of two snapshots, the one taken second always covers the
-- first. Called by lib/server/review/agreement.ts.
CREATE OR REPLACE FUNCTION verity_snapshot_covers(later pg_snapshot, earlier pg_snapshot) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT pg_snapshot_xmax(later) >= pg_snapshot_xmax(earlier)
     AND NOT EXISTS (SELECT 1 FROM pg_snapshot_xip(later) AS running(xid) WHERE pg_visible_in_snapshot(running.xid, earlier))
$$;
