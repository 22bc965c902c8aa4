-- A kept count names the changes it includes by its transaction's snapshot instead of by how many
-- CampaignChange rows there were, so that storing a count can delete the rows it saw: the log then
-- holds only the changes since the last count, however long a campaign runs. The kept counts are a
-- cache; the next read counts again.
DELETE FROM "AgreementCounts";

-- AlterTable
ALTER TABLE "AgreementCounts" DROP COLUMN "changes",
ADD COLUMN     "snapshot" TEXT NOT NULL;

-- Whether snapshot `later` sees every transaction `earlier` sees, so a count taken in `later` may
-- replace one taken in `earlier`: nothing `later` cannot see (in progress at it, or from its xmax on)
-- is visible in `earlier`. Of two snapshots, the one taken second always covers the first.
CREATE FUNCTION verity_snapshot_covers(later pg_snapshot, earlier pg_snapshot) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT pg_snapshot_xmax(later) >= pg_snapshot_xmax(earlier)
     AND NOT EXISTS (SELECT 1 FROM pg_snapshot_xip(later) AS running(xid) WHERE pg_visible_in_snapshot(running.xid, earlier))
$$;
