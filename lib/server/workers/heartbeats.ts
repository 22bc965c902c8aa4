import "server-only";

import { prisma } from "@/lib/server/db/client";

export type WorkerIdentity = { id: string; host: string; pid: number; backend: string; concurrency: number };

export type WorkerRow = WorkerIdentity & {
  startedAt: Date;
  lastBeatAt: Date;
  secondsSinceBeat: number;
  isLive: boolean;
  jobs: number;
};

/** Writes a worker's heartbeat (registering it if it is new, or was taken for dead meanwhile). */
export async function beatWorker(worker: WorkerIdentity): Promise<void> {
  await prisma().$executeRaw`
    INSERT INTO "Worker" (id, host, pid, backend, concurrency, "startedAt", "lastBeatAt")
    VALUES (${worker.id}, ${worker.host}, ${worker.pid}, ${worker.backend}, ${worker.concurrency}, clock_timestamp(), clock_timestamp())
    ON CONFLICT (id) DO UPDATE SET "lastBeatAt" = clock_timestamp()`;
}

/**
 * A worker stopped cleanly: it is forgotten. If it still holds jobs (they did not finish in time)
 * it is marked dead instead, so the next live worker retries them at once.
 */
export async function removeWorker(id: string): Promise<void> {
  const deleted = await prisma()
    .$executeRaw`DELETE FROM "Worker" w WHERE id = ${id} AND NOT EXISTS (SELECT 1 FROM "WorkerJob" j WHERE j."workerId" = w.id)`;
  if (deleted === 0) await prisma().worker.updateMany({ where: { id }, data: { lastBeatAt: new Date(0) } });
}

/** Records that a worker started a queue job (so its job is known if the worker dies). */
export async function holdJob({ workerId, jobId }: { workerId: string; jobId: string }): Promise<void> {
  await prisma().$executeRaw`
    INSERT INTO "WorkerJob" ("jobId", "workerId") VALUES (${jobId}::uuid, ${workerId})
    ON CONFLICT ("jobId") DO UPDATE SET "workerId" = EXCLUDED."workerId", "startedAt" = clock_timestamp()`;
}

/** A job ended (done, failed or given up): nobody holds it any more. */
export async function releaseJob(jobId: string): Promise<void> {
  await prisma().$executeRaw`DELETE FROM "WorkerJob" WHERE "jobId" = ${jobId}::uuid`;
}

/**
 * Forgets the workers whose last beat is older than `deadAfterMs` and returns the jobs they held,
 * for the caller to hand back to the queue. Two callers at once split the dead between them.
 */
export async function reapDeadWorkers(deadAfterMs: number): Promise<{ workers: string[]; jobIds: string[] }> {
  const rows = await prisma().$queryRaw<{ workerId: string; jobId: string | null }[]>`
    WITH dead AS (
      DELETE FROM "Worker" WHERE "lastBeatAt" < clock_timestamp() - ${deadAfterMs}::int * interval '1 millisecond' RETURNING id
    ),
    held AS (
      DELETE FROM "WorkerJob" WHERE "workerId" IN (SELECT id FROM dead) RETURNING "workerId", "jobId"::text
    )
    SELECT dead.id AS "workerId", held."jobId" FROM dead LEFT JOIN held ON held."workerId" = dead.id`;
  return {
    workers: [...new Set(rows.map((row) => row.workerId))],
    jobIds: rows.flatMap((row) => (row.jobId ? [row.jobId] : [])),
  };
}

/**
 * The active jobs of `queues` that no worker holds although they were taken from the queue more
 * than `graceMs` ago. A worker records a job it holds only once it has taken it, so a worker killed
 * in between leaves such a job behind, held by nobody: pg-boss would hand it out again only when it
 * expires, minutes later. A job is also unheld for the moment between its worker's release and
 * pg-boss marking it complete, so callers retry only jobs found unheld on two beats in a row.
 */
export async function findUnheldJobs(queues: string[], graceMs: number): Promise<string[]> {
  const rows = await prisma().$queryRaw<{ id: string }[]>`
    SELECT j.id::text AS id FROM pgboss.job j
    WHERE j.name = ANY(${queues}::text[]) AND j.state = 'active'
      AND j.started_on < clock_timestamp() - ${graceMs}::int * interval '1 millisecond'
      AND NOT EXISTS (SELECT 1 FROM "WorkerJob" w WHERE w."jobId" = j.id)`;
  return rows.map((row) => row.id);
}

/**
 * Every registered worker, live (a beat within `deadAfterMs`) or not yet forgotten, with the jobs it
 * holds; newest first. Host and pid are operator detail: callers show them to admins only.
 */
export async function listWorkers(deadAfterMs: number): Promise<WorkerRow[]> {
  const rows = await prisma().$queryRaw<
    (WorkerIdentity & { startedAt: Date; lastBeatAt: Date; secondsSinceBeat: number; jobs: bigint })[]
  >`
    SELECT w.id, w.host, w.pid, w.backend, w.concurrency, w."startedAt", w."lastBeatAt",
           EXTRACT(EPOCH FROM clock_timestamp() - w."lastBeatAt")::float8 AS "secondsSinceBeat",
           (SELECT count(*) FROM "WorkerJob" j WHERE j."workerId" = w.id) AS jobs
    FROM "Worker" w ORDER BY w."startedAt" DESC LIMIT 100`;
  return rows.map((row) => ({ ...row, jobs: Number(row.jobs), isLive: row.secondsSinceBeat * 1000 < deadAfterMs }));
}
