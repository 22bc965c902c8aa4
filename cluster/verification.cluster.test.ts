// Batch verification across processes: started on instance A (REST), drained by the standalone
// worker, its progress read on instance B. The worker is killed (SIGKILL) mid-batch; another one
// is started and the batch is resumed on B, as an operator would, and it finishes with each
// record's results written exactly once.
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";

import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import type { Service } from "./processes";
import { callApi, cluster, importDataset, instanceA, instanceB, makePerson, pythonRecords, waitFor } from "./support";
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

/** Why the sandbox cannot run Python here (from instance A's health check), or null. */
async function pythonUnavailable(): Promise<string | null> {
  const health = (await (await fetch(`${instanceA}/api/health`)).json()) as { sandbox: { available?: string[] } };
  return health.sandbox.available?.includes("python")
    ? null
    : "the local sandbox cannot run Python (npm run sandbox:install)";
}

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
});
