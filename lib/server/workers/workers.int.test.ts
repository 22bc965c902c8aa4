// Worker health: workers beat in PostgreSQL; a killed worker's jobs are visible as held by a dead
// worker and are handed back to the queue by the next live worker's beat, long before they expire.
import { randomUUID } from "node:crypto";

import { afterAll, describe, expect, it } from "vitest";

import { GET as health } from "@/app/api/health/route";
import { prisma } from "@/lib/server/db/client";
import { checkQueue } from "@/lib/server/db/health";
import { beatWorker, holdJob, listWorkers, removeWorker, type WorkerIdentity } from "@/lib/server/workers/heartbeats";
import { getSandboxStatus } from "@/lib/server/workers/status";
import { makeUser, uniqueName } from "@/lib/testing/factories";

import { getBoss, stopBoss } from "@/lib/server/workers/boss";
import { beat, DEAD_AFTER_MS, retryUnheldJobs } from "@/lib/server/workers/workers";

afterAll(() => stopBoss(1_000));

const someWorker = (): WorkerIdentity => ({
  id: randomUUID(),
  host: "worker-host.internal",
  pid: 4242,
  backend: "local",
  concurrency: 2,
});

/** A queue of its own with one job taken by a worker: what a worker holds mid-run. */
async function queueWithActiveJob() {
  const boss = await getBoss();
  const queue = uniqueName("test-queue").replace(/[^\w-]/g, "-");
  await boss.createQueue(queue, { name: queue, retryLimit: 3, retryDelay: 0, expireInSeconds: 3600 });
  await boss.send(queue, { n: 1 });
  const [job] = await boss.fetch(queue);
  return { boss, queue, jobId: job.id };
}

describe("worker heartbeats", () => {
  it("show a killed worker's job as held by a dead worker, then retry it at the next live beat", async () => {
    const { boss, queue, jobId } = await queueWithActiveJob();
    const killed = someWorker();
    await beatWorker(killed);
    await holdJob({ workerId: killed.id, jobId });
    expect(await checkQueue({ queue, deadAfterMs: DEAD_AFTER_MS })).toMatchObject({
      depth: 0,
      active: 1,
      heldByDeadWorkers: 0,
    });

    // Its beats stop: three intervals later it is dead, and its job is visible as such.
    await prisma().worker.update({
      where: { id: killed.id },
      data: { lastBeatAt: new Date(Date.now() - DEAD_AFTER_MS - 1_000) },
    });
    expect(await checkQueue({ queue, deadAfterMs: DEAD_AFTER_MS })).toMatchObject({ active: 1, heldByDeadWorkers: 1 });
    expect((await listWorkers(DEAD_AFTER_MS)).find((worker) => worker.id === killed.id)).toMatchObject({
      isLive: false,
      jobs: 1,
    });

    // A live worker's beat hands the job back to the queue at once.
    const live = someWorker();
    await beat(live, (jobIds) => boss.fail(queue, jobIds));
    expect(await checkQueue({ queue, deadAfterMs: DEAD_AFTER_MS })).toMatchObject({
      depth: 1,
      active: 0,
      heldByDeadWorkers: 0,
    });
    expect((await listWorkers(DEAD_AFTER_MS)).map((worker) => worker.id)).not.toContain(killed.id);
    const [again] = await boss.fetch(queue);
    expect(again.id).toBe(jobId);
    await removeWorker(live.id);
  });

  it("retry a job a worker took but died before holding, once two beats in a row found it held by nobody", async () => {
    const { boss, queue, jobId } = await queueWithActiveJob();
    const held = await queueWithActiveJob();
    const live = someWorker();
    await beatWorker(live);
    await holdJob({ workerId: live.id, jobId: held.jobId });
    // Both were taken a minute ago; only the second is held (its worker recorded it).
    await prisma()
      .$executeRaw`UPDATE pgboss.job SET started_on = now() - interval '1 minute' WHERE id IN (${jobId}::uuid, ${held.jobId}::uuid)`;
    const retried: string[] = [];
    const duties = {
      queues: [queue, held.queue],
      retry: async (jobIds: string[]) => {
        retried.push(...jobIds);
        await boss.fail(queue, jobIds);
      },
    };

    // The first beat only suspects it: a job is unheld for a moment between its release and completion.
    const suspects = await retryUnheldJobs(duties, new Set());
    expect([...suspects]).toEqual([jobId]);
    expect(retried).toEqual([]);
    // The next beat finds it still unheld and hands it back; the held job stays with its worker.
    expect([...(await retryUnheldJobs(duties, suspects))]).toEqual([]);
    expect(retried).toEqual([jobId]);
    const [again] = await boss.fetch(queue);
    expect(again.id).toBe(jobId);
    expect(await checkQueue({ queue: held.queue, deadAfterMs: DEAD_AFTER_MS })).toMatchObject({ active: 1 });
    await removeWorker(live.id);
  });

  it("forget a worker that stops cleanly, but keep one whose jobs did not finish for the next beat to retry", async () => {
    const { jobId } = await queueWithActiveJob();
    const clean = someWorker();
    await beatWorker(clean);
    await removeWorker(clean.id);
    const unfinished = someWorker();
    await beatWorker(unfinished);
    await holdJob({ workerId: unfinished.id, jobId });
    await removeWorker(unfinished.id);
    const workers = await listWorkers(DEAD_AFTER_MS);
    expect(workers.map((worker) => worker.id)).not.toContain(clean.id);
    expect(workers.find((worker) => worker.id === unfinished.id)).toMatchObject({ isLive: false });
    await prisma().worker.delete({ where: { id: unfinished.id } });
  });

  it("lists live workers and the queue in /api/health, without host names", async () => {
    const worker = someWorker();
    await beatWorker(worker);
    const body = (await (await health()).json()) as {
      queue: Record<string, unknown>;
      workers: Record<string, unknown>[];
    };
    expect(body.queue).toMatchObject({
      ok: true,
      depth: expect.any(Number),
      active: expect.any(Number),
      heldByDeadWorkers: expect.any(Number),
    });
    expect(body.queue).toHaveProperty("oldestWaitingSeconds");
    expect(body.workers).toContainEqual({
      lastBeatSecondsAgo: expect.any(Number),
      concurrency: 2,
      backend: "local",
      jobs: 0,
    });
    expect(JSON.stringify(body)).not.toContain("worker-host.internal");
    await removeWorker(worker.id);
  });

  it("lists every worker with its host for the admin's sandbox page", async () => {
    const worker = someWorker();
    await beatWorker(worker);
    const status = await getSandboxStatus({ actor: await makeUser("ADMIN") });
    expect(status.workers.find((row) => row.id === worker.id)).toMatchObject({
      host: "worker-host.internal",
      pid: 4242,
      isLive: true,
      concurrency: 2,
    });
    expect(status.queue.ok).toBe(true);
    await expect(getSandboxStatus({ actor: await makeUser("REVIEWER") })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await removeWorker(worker.id);
  });
});
