// An import whose process dies mid-way must not stay RUNNING forever: a job is alive exactly while its
// importing database session holds the job's lock, so a crashed process's job is marked FAILED, while
// an import still running on any app instance is left alone.
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { prisma } from "@/lib/server/db/client";
import { failInterruptedImports, findImportJob, importRecords, listImportJobs } from "@/lib/server/imports/imports";

let admin: Actor;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
});

/** A source that yields `first`, then waits until `release()` before yielding `rest`. */
function pausedSource(first: string, rest: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  async function* source(): AsyncGenerator<string> {
    yield first;
    await released;
    yield rest;
  }
  return { source: source(), release };
}

async function waitForJob(datasetName: string, isReady: (job: { linesRead: number }) => boolean) {
  for (let attempt = 0; attempt < 600; attempt++) {
    const job = await prisma().importJob.findFirst({ where: { datasetName }, select: { id: true, linesRead: true } });
    if (job && isReady(job)) return job.id;
    await sleep(100);
  }
  throw new Error(`the import of ${datasetName} never got under way`);
}

describe("interrupted imports", () => {
  it("reports a job whose importing process was killed as FAILED, with the reason, instead of RUNNING forever", async () => {
    const file = join(tmpdir(), `verity-interrupted-${Date.now()}.jsonl`);
    const filler = "x".repeat(1500);
    writeFileSync(
      file,
      toJsonl(Array.from({ length: 20_000 }, (_, i) => makeRecord(`int${i}`, { question: `${filler} ${i}` }))),
    );
    const dataset = uniqueName("killed");
    const child = spawn(process.execPath, ["scripts/verity.mjs", "import", file, "--dataset", dataset], {
      env: { ...process.env },
      stdio: "ignore",
      detached: true,
    });
    try {
      const jobId = await waitForJob(dataset, (job) => job.linesRead > 1000);
      process.kill(-child.pid!, "SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));

      // PostgreSQL ends the dead client's session (and frees the lock) once the statement in flight is done.
      let job = await findImportJob({ actor: admin, jobId });
      for (let attempt = 0; attempt < 100 && job.status === "RUNNING"; attempt++) {
        await sleep(100);
        job = await findImportJob({ actor: admin, jobId });
      }
      expect(job.status).toBe("FAILED");
      expect(job.message).toMatch(/interrupted.*nothing was imported/i);
      expect(job.imported).toBe(0);
      expect(await prisma().record.count({ where: { dataset: { name: dataset } } })).toBe(0);
      const listed = (await listImportJobs({ actor: admin })).find((entry) => entry.id === jobId);
      expect(listed).toMatchObject({ status: "FAILED", message: job.message });
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
      rmSync(file, { force: true });
    }
  });

  it("at start-up marks FAILED every job left RUNNING by a process that is gone", async () => {
    // What a crashed process leaves behind: the row says RUNNING and no session holds its lock.
    const orphan = await prisma().importJob.create({
      data: { datasetName: uniqueName("orphan"), source: "api", linesRead: 3000, imported: 3000 },
      select: { id: true },
    });
    expect(await failInterruptedImports()).toBeGreaterThanOrEqual(1);
    const job = await prisma().importJob.findUniqueOrThrow({
      where: { id: orphan.id },
      select: { status: true, message: true, finishedAt: true },
    });
    expect(job.status).toBe("FAILED");
    expect(job.message).toMatch(/interrupted/);
    expect(job.finishedAt).not.toBeNull();
  });

  it("leaves an import that is still running alone, wherever it runs, and it then finishes normally", async () => {
    const dataset = uniqueName("alive");
    const seed = dataset.replaceAll("-", "_");
    const paused = pausedSource(toJsonl([makeRecord(`${seed}_a`)]), toJsonl([makeRecord(`${seed}_b`)]));
    const running = importRecords({
      actor: admin,
      datasetName: dataset,
      source: paused.source,
      skipInvalid: false,
      origin: "api",
    });
    const jobId = await waitForJob(dataset, () => true);

    await failInterruptedImports();
    expect((await findImportJob({ actor: admin, jobId })).status).toBe("RUNNING");

    paused.release();
    const summary = await running;
    expect(summary).toMatchObject({ ok: true, imported: 2 });
    expect(await findImportJob({ actor: admin, jobId })).toMatchObject({
      status: "SUCCEEDED",
      imported: 2,
      message: null,
    });
  });

  it('keeps the real reason of a rejected file, not "interrupted"', async () => {
    const summary = await importRecords({
      actor: admin,
      datasetName: uniqueName("rejected"),
      source: (async function* () {
        yield "{bad\n";
      })(),
      skipInvalid: false,
      origin: "api",
    });
    await failInterruptedImports();
    expect(await findImportJob({ actor: admin, jobId: summary.jobId })).toMatchObject({
      status: "FAILED",
      message: "1 bad line; nothing was imported.",
    });
  });
});
