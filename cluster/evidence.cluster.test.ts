// Mutation analysis across processes, with a worker killed (SIGKILL) in the middle: two standalone
// workers share an evidence batch started over REST, one is killed while both hold its jobs, and
// the other finishes the batch without anyone resuming it. Every record then has exactly one
// analysis in the batch, and each equals what an uninterrupted batch over the same records finds.
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

const RECORDS = 8;
const MUTANTS = 3;
type Progress = { batchId: string; status: string; total: number; done: number; errored: number };
type Analysis = { recordId: number; generated: number; viable: number; killed: number; outcomes: string };

const workers: Service[] = [];
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
});

describe("mutation analysis with a worker killed mid-batch", async () => {
  const whyNot = await pythonUnavailable();
  it.skipIf(skipWithoutSandbox(whyNot))(
    `each record analysed once, as an uninterrupted batch analyses it${whyNot ? ` (skipped: ${whyNot})` : ""}`,
    async () => {
      const [first, second] = await Promise.all(
        ["evidence-worker-1", "evidence-worker-2"].map((name) =>
          startWorker({ databaseUrl: inject("databaseUrl"), name, logDir: cluster.logDir }),
        ),
      );
      workers.push(first, second);
      const admin = await makePerson("ADMIN", { languages: [] });
      // Each test sleeps, so the batch lasts long enough to kill a worker in the middle of it.
      const slow = (seed: string, name: string) =>
        `import time\ntime.sleep(0.3)\nassert add_${seed}(2, 3) == 5\nprint("${name}")\n`;
      const dataset = await importDataset(
        instanceA,
        admin,
        pythonRecords(RECORDS, `mutate${Date.now()}`, (_, seed) => ({
          demo_test_func: slow(seed, "demo"),
          full_test_func: slow(seed, "full"),
        })),
      );
      const client = new pg.Client({ connectionString: inject("databaseUrl") });
      await client.connect();
      const startBatch = async () => {
        const started = await callApi<{ batchId: string }>(
          instanceA,
          admin.token,
          "POST",
          `/datasets/${dataset}/evidence`,
          { mutants: MUTANTS, repeat: 0 },
        );
        expect(started.status).toBe(202);
        return started.body.batchId;
      };
      const progressOf = async (batchId: string) =>
        (await callApi<Progress>(instanceB, admin.token, "GET", `/evidence/${batchId}`)).body;
      const finished = (batchId: string) =>
        waitFor(`evidence batch ${batchId} to finish`, async () => {
          const now = await progressOf(batchId);
          return now.status === "RUNNING" ? null : now;
        });
      const analysesOf = async (batchId: string) =>
        (
          await client.query<Analysis>(
            `SELECT a."recordId", a.generated, a.viable, a.killed,
                    string_agg(m.position || ':' || coalesce(m."demoOutcome", '') || '/' || coalesce(m."fullOutcome", ''), ' ' ORDER BY m.position) AS outcomes
               FROM "MutationAnalysis" a LEFT JOIN "Mutant" m ON m."analysisId" = a.id
              WHERE a."batchId" = $1 GROUP BY a.id ORDER BY a."recordId"`,
            [batchId],
          )
        ).rows;
      try {
        const interrupted = await startBatch();
        const holders = new Set<string>();
        await waitFor("both workers to hold jobs of the batch", async () => {
          const { rows } = await client.query<{ workerId: string }>(`SELECT DISTINCT "workerId" FROM "WorkerJob"`);
          for (const row of rows) holders.add(row.workerId);
          return holders.size >= 2 ? true : null;
        });
        const atKill = await progressOf(interrupted);
        expect(atKill.status).toBe("RUNNING");
        expect(atKill.done).toBeLessThan(RECORDS);
        await first.stop("SIGKILL");
        expect(await finished(interrupted)).toMatchObject({
          status: "SUCCEEDED",
          total: RECORDS,
          done: RECORDS,
          errored: 0,
        });
        const afterKill = await analysesOf(interrupted);
        expect(afterKill).toHaveLength(RECORDS);
        expect(new Set(afterKill.map((row) => row.recordId)).size).toBe(RECORDS);

        // The same records again, with nobody killed: the same mutants with the same outcomes.
        const uninterrupted = await startBatch();
        expect(await finished(uninterrupted)).toMatchObject({ status: "SUCCEEDED", done: RECORDS, errored: 0 });
        expect(afterKill).toEqual(await analysesOf(uninterrupted));
        for (const row of afterKill) expect(row.viable, `record ${row.recordId}`).toBeGreaterThan(0);
        console.log(
          `[cluster] mutation analysis of ${RECORDS} records over two workers, one killed after ${atKill.done}: each record analysed once, as uninterrupted`,
        );
      } finally {
        await client.end();
      }
    },
  );
});
