// The app itself killed (SIGKILL) mid-job, as on a single machine where `npm start` also drains the
// queues (in-app workers, the default): a third app instance with its own workers starts a batch
// verification over REST, is killed while its workers hold the batch's jobs, and is started again.
// Nobody resumes anything: the batch finishes, every record has exactly one demo and one full
// result, and each equals what an uninterrupted batch over the same records gives.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";

import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";

import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import { type Service, startService, waitUntilHealthy } from "./processes";
import {
  callApi,
  cluster,
  importDataset,
  instanceA,
  makePerson,
  pythonRecords,
  pythonUnavailable,
  waitFor,
} from "./support";

const RECORDS = 10;
// After instance A and B and the balancer (global-setup.ts).
const PORT = Number(new URL(instanceA).port) + 3;
const appUrl = `http://127.0.0.1:${PORT}`;
type Progress = {
  batchId: string;
  status: string;
  total: number;
  done: number;
  executableValid: number;
  failed: number;
  errored: number;
};
type Outcome = { recordId: number; demo: string; full: string };

const dataDir = mkdtempSync(join(tmpdir(), "verity-app-kill-"));
const apps: Service[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
  rmSync(dataDir, { recursive: true, force: true });
});

/** `verity serve` with its in-app workers on (what `npm start` runs on one machine). */
async function startApp(name: string): Promise<Service> {
  const app = startService({
    name,
    args: ["scripts/verity.mjs", "serve"],
    env: {
      DATABASE_URL: inject("databaseUrl"),
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      VERITY_PUBLIC_URL: appUrl,
      VERITY_IN_APP_WORKERS: "1",
      VERITY_WORKER_CONCURRENCY: "2",
      VERITY_DEMO: "0",
      VERITY_DATA_DIR: dataDir,
      PORT: String(PORT),
    },
    logDir: cluster.logDir,
  });
  apps.push(app);
  await waitUntilHealthy(`${appUrl}/api/health`, app);
  return app;
}

/** The process ids in a service's process group (the app's server process is one of them, not the leader). */
function groupPids(service: Service): number[] {
  try {
    return execFileSync("pgrep", ["-g", String(service.pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

describe("the app killed mid-job", async () => {
  const whyNot = await pythonUnavailable();
  it.skipIf(skipWithoutSandbox(whyNot))(
    `a batch its workers held finishes after a restart, each record verified once, as uninterrupted${whyNot ? ` (skipped: ${whyNot})` : ""}`,
    async () => {
      const first = await startApp("app-with-workers");
      const admin = await makePerson("ADMIN", { languages: [] });
      // Each test sleeps, so the batch lasts long enough to kill the app in the middle; every third
      // record's full test fails, so an outcome that came out differently would show.
      const slow = (seed: string, expected: number) =>
        `import time\ntime.sleep(0.4)\nassert add_${seed}(2, 3) == ${expected}\n`;
      const dataset = await importDataset(
        appUrl,
        admin,
        pythonRecords(RECORDS, `appkill${Date.now()}`, (index, seed) => ({
          demo_test_func: slow(seed, 5),
          full_test_func: slow(seed, index % 3 === 0 ? 6 : 5),
        })),
      );
      const client = new pg.Client({ connectionString: inject("databaseUrl") });
      await client.connect();
      const startBatch = async (body: { force?: boolean }) => {
        const started = await callApi<{ batchId: string }>(
          appUrl,
          admin.token,
          "POST",
          `/datasets/${dataset}/verifications`,
          body,
        );
        expect(started.status).toBe(202);
        return started.body.batchId;
      };
      const progressOf = async (batchId: string) =>
        (await callApi<Progress>(appUrl, admin.token, "GET", `/verifications/${batchId}`)).body;
      const finished = (batchId: string) =>
        waitFor(`batch ${batchId} to finish`, async () => {
          const now = await progressOf(batchId);
          return now.status === "RUNNING" ? null : now;
        });
      const outcomesOf = async (batchId: string) => {
        const { rows } = await client.query<{ recordId: number; kind: string; outcome: string; count: number }>(
          `SELECT "recordId", kind::text, min(outcome::text) AS outcome, count(*)::int AS count
             FROM "RunResult" WHERE "batchId" = $1 GROUP BY "recordId", kind ORDER BY "recordId", kind`,
          [batchId],
        );
        // Exactly one result of each kind per record.
        for (const row of rows) expect(row.count, `record ${row.recordId} ${row.kind}`).toBe(1);
        const byRecord = new Map<number, Outcome>();
        for (const row of rows) {
          const entry = byRecord.get(row.recordId) ?? { recordId: row.recordId, demo: "", full: "" };
          entry[row.kind === "DEMO" ? "demo" : "full"] = row.outcome;
          byRecord.set(row.recordId, entry);
        }
        return [...byRecord.values()];
      };
      try {
        const interrupted = await startBatch({});
        // Killed only once the app's own workers hold jobs of the batch.
        const held = await waitFor("the app's workers to hold jobs of the batch", async () => {
          const { rows } = await client.query<{ held: number }>(
            `SELECT count(*)::int AS held FROM "WorkerJob" j JOIN "Worker" w ON w.id = j."workerId" WHERE w.pid = ANY($1::int[])`,
            [groupPids(first)],
          );
          return rows[0].held > 0 ? rows[0].held : null;
        });
        const atKill = await progressOf(interrupted);
        expect(atKill.status).toBe("RUNNING");
        expect(atKill.done).toBeLessThan(RECORDS);
        await first.stop("SIGKILL");

        await startApp("app-with-workers-restarted");
        expect(await finished(interrupted)).toMatchObject({
          status: "SUCCEEDED",
          total: RECORDS,
          done: RECORDS,
          executableValid: RECORDS - Math.ceil(RECORDS / 3),
          errored: 0,
        });
        const afterKill = await outcomesOf(interrupted);
        expect(afterKill).toHaveLength(RECORDS);

        // The same records again, every one of them, with nobody killed.
        const uninterrupted = await startBatch({ force: true });
        expect(await finished(uninterrupted)).toMatchObject({ status: "SUCCEEDED", done: RECORDS, errored: 0 });
        expect(afterKill).toEqual(await outcomesOf(uninterrupted));
        console.log(
          `[cluster] batch verification of ${RECORDS} records: the app killed after ${atKill.done} with ${held} jobs held by its workers; restarted, each record verified once, as uninterrupted`,
        );
      } finally {
        await client.end();
      }
    },
  );
});
