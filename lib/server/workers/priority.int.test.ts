// Work a person starts runs before work Verity queued on its own: after `npm start` the demo's
// solver runs (queued by the start-up, first in the queue) no longer hold a person's verification
// behind them. The jobs are taken from the real queue as a worker takes them (pg-boss's fetch).
import { afterAll, describe, expect, it } from "vitest";

import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { importAndRunSolutions } from "@/lib/server/solvers/jobs";
import { getVerificationProgress } from "@/lib/server/verification/batches";
import { startVerification } from "@/lib/server/verification/jobs";
import { VERIFY_QUEUE } from "@/lib/server/verification/queue";
import { getBoss, stopBoss } from "@/lib/server/workers/boss";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { JOB_PRIORITY, jobPriority } from "./priority";
import { jobsAhead } from "./queue-position";

afterAll(() => stopBoss());

describe("the order of queued work", () => {
  it("gives the CLI and people the person's priority, and Verity's own starts the background one", () => {
    expect(jobPriority(SYSTEM_ACTOR.cli)).toBe(JOB_PRIORITY.person);
    expect(jobPriority(SYSTEM_ACTOR.startup)).toBe(JOB_PRIORITY.background);
    expect(jobPriority(SYSTEM_ACTOR.worker)).toBe(JOB_PRIORITY.background);
    expect(JOB_PRIORITY.person).toBeGreaterThan(JOB_PRIORITY.background);
  });

  it("hands a person's verification to the workers before solver runs the start-up queued earlier", async () => {
    const admin = await makeUser("ADMIN");
    const dataset = uniqueName("order");
    const seed = dataset.replaceAll("-", "_");
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl([0, 1, 2].map((n) => makeRecord(`order_${seed}_${n}`)))),
      skipInvalid: false,
      origin: "api",
    });
    const records = await prisma().record.findMany({ where: { dataset: { name: dataset } }, select: { key: true } });
    // What the demo does at start-up: every record's model solutions queued by the system.
    const solutions = await importAndRunSolutions({
      actor: SYSTEM_ACTOR.startup,
      datasetName: dataset,
      source: chunks(
        records
          .flatMap(({ key }) => ["a", "b"].map((model) => JSON.stringify({ key, model, code: "print(1)\n" })))
          .join("\n"),
      ),
      defaultModel: null,
      origin: "demo",
      fileName: "solutions.jsonl",
    });
    expect(solutions.toRun).toBe(6);
    const verification = await startVerification({ actor: admin, datasetName: dataset, force: true });
    // The start-up's solver runs, queued first, are not ahead of it.
    const waiting = await getVerificationProgress({ actor: admin, batchId: verification.batchId });
    expect(waiting.queuedAhead).toBe(await jobsAhead({ queue: VERIFY_QUEUE, batchId: verification.batchId }));
    expect(await jobsAhead({ queue: VERIFY_QUEUE, batchId: solutions.batchId })).toBeGreaterThanOrEqual(3);

    // One at a time, as the workers take them (batchSize 1): a batch's rows come back in no set order.
    const boss = await getBoss();
    const taken: { id: string; data: { batchId: string } }[] = [];
    for (let job = await fetchOne(); job; job = await fetchOne()) taken.push(job);
    try {
      // Other files' jobs may share the queue: only this test's two batches are compared.
      const ours = taken.filter((job) => [solutions.batchId, verification.batchId].includes(job.data.batchId));
      expect(ours.map((job) => job.data.batchId)).toEqual([
        ...Array<string>(3).fill(verification.batchId),
        ...Array<string>(6).fill(solutions.batchId),
      ]);
    } finally {
      await boss.cancel(
        VERIFY_QUEUE,
        taken.map((job) => job.id),
      );
    }

    async function fetchOne() {
      const [job] = await boss.fetch<{ batchId: string }>(VERIFY_QUEUE, { batchSize: 1 });
      return job;
    }
  });

  it("counts the jobs a worker takes before a batch's next one: running ones, higher priority, older at the same", async () => {
    const boss = await getBoss();
    const queue = uniqueName("order-queue");
    await boss.createQueue(queue);
    const put = (batchId: string, count: number, priority: number) =>
      boss.insert(Array.from({ length: count }, () => ({ name: queue, data: { batchId }, priority })));
    // One insert each, so each batch's jobs are younger than the one before.
    await put("a", 2, JOB_PRIORITY.background);
    await put("b", 2, JOB_PRIORITY.person);
    await put("c", 1, JOB_PRIORITY.background);
    const ahead = async () =>
      Object.fromEntries(
        await Promise.all(
          ["a", "b", "c", "none"].map(async (batchId) => [batchId, await jobsAhead({ queue, batchId })]),
        ),
      );
    expect(await ahead()).toEqual({ a: 2, b: 0, c: 4, none: 0 });
    // A worker takes b's first job: b runs (nothing ahead), the running job still holds the others back.
    const [running] = await boss.fetch<{ batchId: string }>(queue, { batchSize: 1 });
    expect(running.data.batchId).toBe("b");
    expect(await ahead()).toEqual({ a: 2, b: 0, c: 4, none: 0 });
    await boss.complete(queue, running.id);
    expect(await ahead()).toEqual({ a: 1, b: 0, c: 3, none: 0 });
  });
});
