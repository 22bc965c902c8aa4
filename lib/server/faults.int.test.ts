// Fault tests: a killed import leaves nothing behind; a sandbox that is down gives a clear message
// while labels still submit; a redelivered verification job adds no duplicate results; PostgreSQL
// restarting under annotators fails requests cleanly, then recovers without losing a label.
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { setEnv } from "@/lib/testing/env";

// The sandbox is pointed at an acb service that is not there (nothing listens on port 9).
setEnv({ VERITY_SANDBOX: "acb" });
setEnv({ VERITY_SANDBOX_URL: "http://127.0.0.1:9" });

const { createCampaign } = await import("@/lib/server/campaigns/create-campaign");
const { disconnectPrisma, prisma } = await import("@/lib/server/db/client");
const { startEmbeddedPostgres } = await import("@/lib/server/db/embedded-postgres");
const { importRecords } = await import("@/lib/server/imports/imports");
const { applyMigrations } = await import("@/lib/server/db/migrate");
const { closePgPool } = await import("@/lib/server/db/pool");
const { claimNextItem } = await import("@/lib/server/labelling/claim-next-item");
const { submitAnnotation } = await import("@/lib/server/labelling/submit-annotation");
const { runRecord } = await import("@/lib/server/runs/run-record");
const { verifyRecord } = await import("@/lib/server/verification/jobs");

let admin: Actor;
const testDatabaseUrl = process.env.DATABASE_URL!;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
});

afterAll(() => {
  setEnv({ DATABASE_URL: testDatabaseUrl });
});

async function smallCampaign(records: number, overlap = 1) {
  const dataset = uniqueName("fault");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(
      toJsonl(Array.from({ length: records }, (_, i) => makeRecord(`f${i}_${dataset.replaceAll("-", "_")}`))),
    ),
    skipInvalid: false,
    origin: "api",
  });
  return {
    dataset,
    campaign: await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("fault"),
        overlap,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    }),
  };
}

describe("faults", () => {
  it("leaves no partial import when the importing process is killed", async () => {
    const file = join(tmpdir(), `verity-kill-${Date.now()}.jsonl`);
    const filler = "x".repeat(1500);
    writeFileSync(
      file,
      Array.from({ length: 20_000 }, (_, i) =>
        JSON.stringify(makeRecord(`k${i}`, { question: `${filler} ${i}` })),
      ).join("\n"),
    );
    const dataset = uniqueName("killed");
    const child = spawn(process.execPath, ["scripts/verity.mjs", "import", file, "--dataset", dataset], {
      env: { ...process.env, DATABASE_URL: testDatabaseUrl },
      stdio: "ignore",
      detached: true,
    });
    const exitSignal = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once("exit", (_code, signal) => resolve(signal)),
    );
    try {
      // Wait until the import is visibly under way, then kill the whole process group without warning.
      let linesRead = 0;
      for (let attempt = 0; attempt < 300 && linesRead <= 2000; attempt++) {
        const job = await prisma().importJob.findFirst({
          where: { datasetName: dataset },
          select: { linesRead: true },
        });
        linesRead = job?.linesRead ?? 0;
        if (linesRead <= 2000) await sleep(100);
      }
      // An import that never started (or already finished) would leave nothing behind too; make sure
      // this one was killed in the middle.
      expect(linesRead, "lines the import had read when it was killed").toBeGreaterThan(2000);
      process.kill(-child.pid!, "SIGKILL");
      expect(await exitSignal).toBe("SIGKILL");
      expect(await prisma().dataset.count({ where: { name: dataset } })).toBe(0);
      expect(await prisma().record.count({ where: { dataset: { name: dataset } } })).toBe(0);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it("says plainly that the language cannot run (no operator detail), and labels still submit", async () => {
    const { campaign } = await smallCampaign(1);
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: annotator, campaignId: campaign.id });
    const error = await runRecord({ actor: annotator, recordId: claim!.recordId, kind: "both" }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "SANDBOX_FAILED" });
    // The operator's detail (the unreachable address) goes to the server log, not to the annotator.
    expect((error as Error).message).toBe("Python can't run right now; your admin has been told.");
    await expect(
      submitAnnotation({
        actor: annotator,
        itemId: claim!.itemId,
        input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
      }),
    ).resolves.toMatchObject({ created: true });
  });

  it("adds no duplicate results when a verification job is delivered twice", async () => {
    const { dataset } = await smallCampaign(1);
    const record = await prisma().record.findFirstOrThrow({
      where: { dataset: { name: dataset } },
      select: { id: true, datasetId: true },
    });
    const batch = await prisma().verificationBatch.create({
      data: { datasetId: record.datasetId, total: 1 },
      select: { id: true },
    });
    await verifyRecord({ batchId: batch.id, recordId: record.id });
    await verifyRecord({ batchId: batch.id, recordId: record.id });
    expect(await prisma().runResult.count({ where: { batchId: batch.id } })).toBe(1);
    expect(
      await prisma().verificationBatch.findUniqueOrThrow({
        where: { id: batch.id },
        select: { done: true, unavailable: true, status: true },
      }),
    ).toEqual({ done: 1, unavailable: 1, status: "SUCCEEDED" });
  });

  it("fails submissions cleanly while PostgreSQL restarts, recovers, and loses no acknowledged label", async () => {
    const dataDir = join(process.cwd(), ".data", `test-restart-${Date.now()}`);
    // Ten above the run's own server: CI runs a second integration run beside this one, 100 ports up.
    const port = Number(process.env.VERITY_TEST_DB_PORT ?? 54339) + 10 + (Date.now() % 7);
    let server = await startEmbeddedPostgres({ dataDir, port });
    try {
      await applyMigrations(server.url);
      await disconnectPrisma();
      await closePgPool();
      setEnv({ DATABASE_URL: server.url });
      const owner = await makeUser("ADMIN");
      admin = owner;
      const { campaign } = await smallCampaign(60);
      const annotators = await Promise.all([0, 1, 2].map(() => makeUser("ANNOTATOR", ["python"])));
      const acknowledged: string[] = [];
      let failures = 0;
      let isStopped = false;
      const work = annotators.map(async (annotator) => {
        for (let round = 0; round < 200; round++) {
          try {
            const claim = await claimNextItem({ actor: annotator, campaignId: campaign.id });
            if (!claim) return;
            const saved = await submitAnnotation({
              actor: annotator,
              itemId: claim.itemId,
              input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
            });
            acknowledged.push(saved.id);
          } catch (error) {
            // A clean failure: an Error the request layer turns into a message, never a hang.
            expect(error).toBeInstanceOf(Error);
            failures += 1;
            await sleep(isStopped ? 200 : 20);
          }
        }
      });
      await sleep(300);
      isStopped = true;
      await server.stop();
      await sleep(1500);
      server = await startEmbeddedPostgres({ dataDir, port: Number(new URL(server.url).port) });
      isStopped = false;
      await Promise.all(work);
      expect(failures).toBeGreaterThan(0);
      const stored = await prisma().annotation.findMany({ where: { id: { in: acknowledged } }, select: { id: true } });
      expect(stored).toHaveLength(acknowledged.length);
      expect(await prisma().annotation.count({ where: { item: { campaignId: campaign.id } } })).toBe(60);
    } finally {
      await disconnectPrisma();
      await closePgPool();
      setEnv({ DATABASE_URL: testDatabaseUrl });
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
