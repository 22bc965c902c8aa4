import "server-only";

import { prisma } from "@/lib/server/db/client";

// Where a batch stands in its job queue (pg-boss's table, schema "pgboss"), so a page can say why
// nothing of it has run yet: the jobs a worker takes before its next one.

/** The most jobs ahead counted one by one; beyond it the count says "at least" (a queue this long is read rarely). */
const MOST_COUNTED_AHEAD = 10_000;

/**
 * How many jobs of `queue` come before `batchId`'s next one: those running (for other work, since
 * none of the batch's own runs), and those waiting that a worker takes first (pg-boss takes the
 * highest priority, then the oldest), at most MOST_COUNTED_AHEAD of these. 0 while one of the
 * batch's own jobs runs, or when none of them waits.
 */
export async function jobsAhead({ queue, batchId }: { queue: string; batchId: string }): Promise<number> {
  // The waiting jobs ahead are counted from pg-boss's own index of waiting jobs (name, start_after,
  // with priority and created_on): none of the batch's own can be older than its oldest or of higher
  // priority than its own, so the count needs no look at each job's data.
  const [row] = await prisma().$queryRaw<{ ahead: number }[]>`
    WITH ours AS (
      SELECT bool_or(state = 'active') AS running,
             min(created_on) FILTER (WHERE state < 'active') AS first,
             max(priority) FILTER (WHERE state < 'active') AS priority
      FROM pgboss.job WHERE name = ${queue} AND state <= 'active' AND data->>'batchId' = ${batchId}
    )
    SELECT CASE WHEN coalesce(ours.running, false) OR ours.first IS NULL THEN 0 ELSE
      (SELECT count(*)::int FROM (
        SELECT 1 FROM pgboss.job j
        WHERE j.name = ${queue} AND j.state < 'active'
          AND (j.priority > ours.priority OR (j.priority = ours.priority AND j.created_on < ours.first))
        LIMIT ${MOST_COUNTED_AHEAD}) waiting)
      + (SELECT count(*)::int FROM pgboss.job j WHERE j.name = ${queue} AND j.state = 'active')
    END AS ahead
    FROM ours`;
  return row?.ahead ?? 0;
}

/**
 * `jobsAhead` for a batch's progress: asked only while the batch runs and nothing of it has run yet,
 * when "0 done" needs saying why; 0 otherwise, without reading the queue.
 */
export function queuedAheadOf(queue: string, batch: { id: string; status: string; done: number }): Promise<number> {
  const isWaiting = batch.status === "RUNNING" && batch.done === 0;
  return isWaiting ? jobsAhead({ queue, batchId: batch.id }) : Promise.resolve(0);
}
