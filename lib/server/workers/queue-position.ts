import "server-only";

import { prisma } from "@/lib/server/db/client";

// Where a batch stands in its job queue (pg-boss's table, schema "pgboss"), so a page can say why
// nothing of it has run yet: the jobs a worker takes before its next one.

/**
 * How many jobs of `queue` come before `batchId`'s next one: those running for other work, and
 * those waiting that a worker takes first (pg-boss takes the highest priority, then the oldest).
 * 0 while one of the batch's own jobs runs, or when none of them waits.
 */
export async function jobsAhead({ queue, batchId }: { queue: string; batchId: string }): Promise<number> {
  const [row] = await prisma().$queryRaw<{ ahead: number }[]>`
    WITH ours AS (
      SELECT bool_or(state = 'active') AS running,
             min(created_on) FILTER (WHERE state < 'active') AS first,
             max(priority) FILTER (WHERE state < 'active') AS priority
      FROM pgboss.job WHERE name = ${queue} AND state <= 'active' AND data->>'batchId' = ${batchId}
    )
    SELECT CASE WHEN coalesce(ours.running, false) OR ours.first IS NULL THEN 0 ELSE (
      SELECT count(*)::int FROM pgboss.job j
      WHERE j.name = ${queue} AND j.data->>'batchId' IS DISTINCT FROM ${batchId}
        AND (j.state = 'active'
          OR (j.state < 'active' AND (j.priority > ours.priority OR (j.priority = ours.priority AND j.created_on < ours.first))))
    ) END AS ahead
    FROM ours`;
  return row?.ahead ?? 0;
}
