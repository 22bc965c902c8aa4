// Batch verification across processes: started on instance A (REST), drained by the standalone
// worker, its progress read on instance B. The worker is killed (SIGKILL) mid-batch; another one
// is started and the batch is resumed on B, as an operator would, and it finishes with each
// record's results written exactly once. Then two workers share one batch, one of them is killed,
// and the other finishes it alone, with nobody resuming anything.
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";

import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import type { Service } from "./processes";
import {
  callApi,
  cluster,
  importDataset,
  instanceA,
  instanceB,
  makePerson,
  pythonRecords,
  pythonUnavailable,
  waitFor,
} from "./support";
import { startWorker } from "./worker";

const RECORDS = 12;
type Progress = {
  batchId: string;
  status: string;
  total: number;
  done: number;
  executableValid: number;
  failed: number;
  unavailable: number;
  errored: number;
};

const replacements: Service[] = [];
afterAll(async () => {
  await Promise.all(replacements.map((worker) => worker.stop()));
});

describe("batch verification across instances and workers", async () => {
  const whyNot = await pythonUnavailable();
  it.skipIf(skipWithoutSandbox(whyNot))(
    `a batch started on A is drained by the worker and read on B; a worker killed mid-batch is replaced and the batch ends with each record written once${whyNot ? ` (skipped: ${whyNot})` : ""}`,
    async () => {
      const admin = await makePerson("ADMIN", { languages: [] });
      // Each test sleeps, so the batch lasts long enough to kill its worker in the middle.
      const slow = (seed: string, name: string) =>
        `import time\ntime.sleep(0.4)\nassert add_${seed}(2, 3) == 5\nprint("${name}")\n`;
      const dataset = await importDataset(
        instanceA,
        admin,
        pythonRecords(RECORDS, `verify${Date.now()}`, (_, seed) => ({
          demo_test_func: slow(seed, "demo"),
          full_test_func: slow(seed, "full"),
        })),
      );

      const started = performance.now();
      const batch = await callApi<{ batchId: string; total: number; resumed: boolean }>(
        instanceA,
        admin.token,
        "POST",
        `/datasets/${dataset}/verifications`,
        {},
      );
      expect(batch.status).toBe(202);
      expect(batch.body).toMatchObject({ total: RECORDS, resumed: false });
      const progressOnB = async () => {
        const reply = await callApi<Progress>(instanceB, admin.token, "GET", `/verifications/${batch.body.batchId}`);
        expect(reply.status).toBe(200);
        return reply.body;
      };

      const before = await waitFor("the worker to verify two records", async () => {
        const progress = await progressOnB();
        return progress.done >= 2 ? progress : null;
      });
      expect(before.status).toBe("RUNNING");
      expect(before.done).toBeLessThan(RECORDS);
      process.kill(-cluster.workerPid, "SIGKILL");
      const doneAtKill = (await progressOnB()).done;

      replacements.push(
        await startWorker({ databaseUrl: inject("databaseUrl"), name: "worker-2", logDir: cluster.logDir }),
      );
      // Jobs the killed worker held stay leased until they expire; resuming queues its unfinished records again.
      const resumed = await callApi<{ batchId: string; resumed: boolean }>(
        instanceB,
        admin.token,
        "POST",
        `/datasets/${dataset}/verifications`,
        {},
      );
      expect(resumed.body).toEqual({ batchId: batch.body.batchId, total: RECORDS, resumed: true });
      const after = await waitFor("the batch to finish", async () => {
        const progress = await progressOnB();
        return progress.status === "RUNNING" ? null : progress;
      });
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `[cluster] batch verification: ${RECORDS} records (2 runs each, 0.4 s sleep per run) in ${seconds.toFixed(1)} s with a worker of concurrency 2 killed after ${doneAtKill} and replaced`,
      );

      expect(after).toMatchObject({
        status: "SUCCEEDED",
        total: RECORDS,
        done: RECORDS,
        executableValid: RECORDS,
        failed: 0,
        unavailable: 0,
        errored: 0,
      });
      const client = new pg.Client({ connectionString: inject("databaseUrl") });
      await client.connect();
      try {
        const { rows } = await client.query<{ recordId: number; kinds: string[] }>(
          `SELECT "recordId", array_agg(kind::text ORDER BY kind) AS kinds FROM "RunResult" WHERE "batchId" = $1 GROUP BY "recordId"`,
          [batch.body.batchId],
        );
        expect(rows).toHaveLength(RECORDS);
        for (const row of rows) expect(row.kinds, `record ${row.recordId}`).toEqual(["DEMO", "FULL"]);
        const { rows: records } = await client.query<{ valid: number }>(
          `SELECT count(*)::int AS valid FROM "Record" r JOIN "Dataset" d ON d.id = r."datasetId" WHERE d.name = $1 AND r."executableValid"`,
          [dataset],
        );
        expect(records[0].valid).toBe(RECORDS);
      } finally {
        await client.end();
      }
    },
  );
  it.skipIf(skipWithoutSandbox(whyNot))(
    `two workers share a batch's records; one killed mid-batch, the other takes its jobs back and finishes it, each record written once${whyNot ? ` (skipped: ${whyNot})` : ""}`,
    async () => {
      // This test's two workers drain the queue: the replacement the test before started stops first.
      await Promise.all(replacements.splice(0).map((worker) => worker.stop()));
      const [first, second] = await Promise.all(
        ["worker-3", "worker-4"].map((name) =>
          startWorker({ databaseUrl: inject("databaseUrl"), name, logDir: cluster.logDir }),
        ),
      );
      replacements.push(first, second);
      const admin = await makePerson("ADMIN", { languages: [] });
      const slow = (seed: string, name: string) =>
        `import time\ntime.sleep(0.4)\nassert add_${seed}(2, 3) == 5\nprint("${name}")\n`;
      const records = 16;
      const dataset = await importDataset(
        instanceA,
        admin,
        pythonRecords(records, `spread${Date.now()}`, (_, seed) => ({
          demo_test_func: slow(seed, "demo"),
          full_test_func: slow(seed, "full"),
        })),
      );
      const client = new pg.Client({ connectionString: inject("databaseUrl") });
      await client.connect();
      try {
        const batch = await callApi<{ batchId: string }>(
          instanceA,
          admin.token,
          "POST",
          `/datasets/${dataset}/verifications`,
          {},
        );
        expect(batch.status).toBe(202);
        const progress = async () =>
          (await callApi<Progress>(instanceB, admin.token, "GET", `/verifications/${batch.body.batchId}`)).body;

        // The workers holding this batch's jobs, sampled until both have held some at once.
        const holders = new Set<string>();
        await waitFor("both workers to hold jobs of the batch", async () => {
          const { rows } = await client.query<{ workerId: string }>(`SELECT DISTINCT "workerId" FROM "WorkerJob"`);
          for (const row of rows) holders.add(row.workerId);
          return holders.size >= 2 ? true : null;
        });
        const atKill = await progress();
        expect(atKill.status).toBe("RUNNING");
        expect(atKill.done).toBeLessThan(records);
        await first.stop("SIGKILL");

        // No resume: the live worker finds the dead one by its missed heartbeats and retries its jobs.
        const after = await waitFor("the surviving worker to finish the batch", async () => {
          const now = await progress();
          return now.status === "RUNNING" ? null : now;
        }).catch(async (error: unknown) => {
          const jobs = await client.query(
            `SELECT state, retry_count, count(*)::int AS n FROM pgboss.job WHERE data->>'batchId' = $1 GROUP BY 1, 2`,
            [batch.body.batchId],
          );
          const held = await client.query(`SELECT * FROM "WorkerJob"`);
          const workers = await client.query(`SELECT id, pid, "lastBeatAt" FROM "Worker"`);
          console.error(
            "DEBUG",
            JSON.stringify({ progress: await progress(), jobs: jobs.rows, held: held.rows, workers: workers.rows }),
          );
          throw error;
        });
        expect(after).toMatchObject({
          status: "SUCCEEDED",
          total: records,
          done: records,
          executableValid: records,
          failed: 0,
          errored: 0,
        });
        const { rows } = await client.query<{ recordId: number; kinds: string[] }>(
          `SELECT "recordId", array_agg(kind::text ORDER BY kind) AS kinds FROM "RunResult" WHERE "batchId" = $1 GROUP BY "recordId"`,
          [batch.body.batchId],
        );
        expect(rows).toHaveLength(records);
        for (const row of rows) expect(row.kinds, `record ${row.recordId}`).toEqual(["DEMO", "FULL"]);
        console.log(
          `[cluster] ${records} records over two workers, one killed after ${atKill.done}: finished by the other without a resume`,
        );
      } finally {
        await client.end();
      }
    },
  );
});
