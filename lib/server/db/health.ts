import "server-only";

import { prisma } from "./client";

/** Whether the database answers a trivial query, with its latency. Public (health checks). */
export async function checkDatabase(): Promise<{ ok: boolean; latencyMs: number; error?: string }> {
  const started = performance.now();
  try {
    await prisma().$queryRaw`SELECT 1`;
    return { ok: true, latencyMs: Math.round(performance.now() - started) };
  } catch {
    return { ok: false, latencyMs: Math.round(performance.now() - started), error: "The database does not answer." };
  }
}

/** The PostgreSQL server's version, e.g. "18.1" (benchmarks print it). */
export async function getServerVersion(): Promise<string> {
  return (await prisma().$queryRaw<{ server_version: string }[]>`SHOW server_version`)[0].server_version;
}

export type QueueHealth = {
  ok: boolean;
  /** Jobs waiting for a worker (new or to be retried). */
  depth: number | null;
  /** How long the oldest waiting job has waited; null when none waits. */
  oldestWaitingSeconds: number | null;
  active: number | null;
  /** Active jobs whose worker stopped beating (killed): the next live worker retries them. */
  heldByDeadWorkers: number | null;
  error?: string;
};

/**
 * The verification queue, read from pg-boss's tables (absent until a worker first started): depth,
 * the oldest waiting job, active jobs and those held by workers silent for `deadAfterMs`. Public
 * (health checks): counts only.
 */
export async function checkQueue({ queue, deadAfterMs }: { queue: string; deadAfterMs: number }): Promise<QueueHealth> {
  try {
    const [exists] = await prisma().$queryRaw<
      { present: boolean }[]
    >`SELECT to_regclass('pgboss.job') IS NOT NULL AS present`;
    if (!exists.present) return { ok: true, depth: 0, oldestWaitingSeconds: null, active: 0, heldByDeadWorkers: 0 };
    const [row] = await prisma().$queryRaw<{ depth: bigint; oldest: number | null; active: bigint; held: bigint }[]>`
      SELECT count(*) FILTER (WHERE state IN ('created', 'retry')) AS depth,
             EXTRACT(EPOCH FROM clock_timestamp() - min(created_on) FILTER (WHERE state IN ('created', 'retry')))::float8 AS oldest,
             count(*) FILTER (WHERE state = 'active') AS active,
             count(*) FILTER (WHERE state = 'active' AND id IN (
               SELECT j."jobId" FROM "WorkerJob" j JOIN "Worker" w ON w.id = j."workerId"
               WHERE w."lastBeatAt" < clock_timestamp() - ${deadAfterMs}::int * interval '1 millisecond')) AS held
      FROM pgboss.job WHERE name = ${queue} AND state < 'completed'`;
    return {
      ok: true,
      depth: Number(row.depth),
      oldestWaitingSeconds: row.oldest === null ? null : Math.round(row.oldest),
      active: Number(row.active),
      heldByDeadWorkers: Number(row.held),
    };
  } catch {
    return {
      ok: false,
      depth: null,
      oldestWaitingSeconds: null,
      active: null,
      heldByDeadWorkers: null,
      error: "The job queue cannot be read.",
    };
  }
}
