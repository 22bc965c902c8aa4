// The verification workers' pace: a worker that has just finished a job takes the next one at once,
// instead of idling out pg-boss's polling interval (0.5 s) after every quick record.
// Integration: serial — it bounds a worker's pace in wall-clock seconds (20 jobs in under 5 s).
import { setTimeout as sleep } from "node:timers/promises";

import { afterAll, describe, expect, it } from "vitest";

import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { getBoss, stopBoss } from "@/lib/server/workers/boss";
import {
  startVerification,
  startVerificationWorkers,
  storeVerification,
  VERIFY_QUEUE,
} from "@/lib/server/verification/jobs";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

afterAll(async () => {
  await stopBoss();
});

async function completedJobs(batchId: string): Promise<number> {
  const rows = await prisma().$queryRaw<
    { n: bigint }[]
  >`SELECT count(*) AS n FROM pgboss.job WHERE name = ${VERIFY_QUEUE} AND data->>'batchId' = ${batchId} AND state = 'completed'`;
  return Number(rows[0].n);
}

describe("verification workers", () => {
  it("one worker drains quick jobs back to back, not one per polling interval", async () => {
    const admin = await makeUser("ADMIN");
    const dataset = uniqueName("verify-pace");
    const count = 20;
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl(Array.from({ length: count }, (_, index) => makeRecord(`pace${index}`)))),
      skipInvalid: false,
      origin: "api",
    });
    const { batchId } = await startVerification({ actor: admin, datasetName: dataset, force: false });
    // Every record's result is already stored, so each job is a few milliseconds of database work:
    // what remains is the time the worker spends between jobs.
    const records = await prisma().record.findMany({ where: { dataset: { name: dataset } }, select: { id: true } });
    for (const { id } of records) await storeVerification({ batchId, recordId: id, verdict: { kind: "unavailable" } });

    const started = performance.now();
    await startVerificationWorkers(1);
    while ((await completedJobs(batchId)) < count && performance.now() - started < 30_000) await sleep(50);
    const seconds = (performance.now() - started) / 1000;
    await (await getBoss()).offWork(VERIFY_QUEUE);

    expect(await completedJobs(batchId)).toBe(count);
    // Idling the 0.5 s interval after each job would take at least 20 × 0.5 s = 10 s.
    expect(seconds).toBeLessThan(5);
  });
});
