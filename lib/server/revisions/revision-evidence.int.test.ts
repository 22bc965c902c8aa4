// Evidence recomputed for an accepted repair, on a real PostgreSQL and the real sandbox: accepting
// the revision queues the record's mutation analysis on the evidence queue and moves its imported
// solutions into a new batch; running those jobs measures the repaired record, so a model that had
// learnt the wrong expected value (fact(5) == 121) now fails and the right one still passes.
import { existsSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type Actor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { EVIDENCE_QUEUE, measureRevisionMutants } from "@/lib/server/evidence/jobs";
import { importRecords } from "@/lib/server/imports/imports";
import { runSolution } from "@/lib/server/solvers/jobs";
import { importSolutions } from "@/lib/server/solvers/import-solutions";
import { chunks, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";
import { VERIFY_QUEUE } from "@/lib/server/verification/queue";
import { getBoss, stopBoss } from "@/lib/server/workers/boss";

import { checkRecordRevision } from "./propose-revision";
import { proposeRevision } from "./queries";

const hasBwrap = !skipWithoutSandbox(existsSync("/usr/bin/bwrap") ? null : "bubblewrap is not installed");

const WRONG_TEST = "assert fact(0) == 1\nassert fact(5) == 121\n";
const RIGHT = "def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\n";
// Passes the flawed test, fails the repaired one.
const OVERFITTED = "def fact(n):\n    if n == 5:\n        return 121\n    return 1 if n <= 1 else n * fact(n - 1)\n";

let author: Actor;
let checker: Actor;
let recordId: number;

afterAll(() => stopBoss(1_000));

beforeAll(async () => {
  await getBoss(); // its schema, which the queue checks below read
  const admin = await makeUser("ADMIN");
  author = await makeUser("REVIEWER", ["python"]);
  checker = await makeUser("REVIEWER", ["python"]);
  const dataset = uniqueName("revision-evidence");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(
      toJsonl([
        {
          question: `Write \`fact(n)\` returning n! (${dataset}).`,
          canonical_solution: RIGHT,
          demo_test_func: "assert fact(3) == 6\n",
          full_test_func: WRONG_TEST,
          language: "python",
        },
      ]),
    ),
    skipInvalid: false,
    origin: "api",
  });
  const record = await prisma().record.findFirstOrThrow({ where: { dataset: { name: dataset } } });
  recordId = record.id;
  await importSolutions({
    actor: admin,
    datasetName: dataset,
    source: chunks(
      toJsonl([
        { key: record.key, model: "right", code: RIGHT },
        { key: record.key, model: "overfitted", code: OVERFITTED },
        { key: record.key, model: "silent", output: "" },
      ]),
    ),
    defaultModel: null,
    origin: "api",
  });
  // As if the import's runs had finished: results that speak of the flawed test.
  await prisma().solution.updateMany({
    where: { recordId, model: { in: ["right", "overfitted"] } },
    data: { outcome: "PASSED", demoOutcome: "PASSED", fullOutcome: "PASSED", passed: true, ranAt: new Date() },
  });
});

/** The jobs queued on `queue` for this record (pg-boss keeps them in its own schema). */
async function queuedJobs(queue: string): Promise<Record<string, unknown>[]> {
  const rows = await prisma().$queryRawUnsafe<{ data: Record<string, unknown> }[]>(
    `SELECT data FROM pgboss.job WHERE name = $1 AND state = 'created'`,
    queue,
  );
  return rows.map((row) => row.data);
}

describe("evidence recomputed for an accepted repair", () => {
  it.skipIf(!hasBwrap)(
    "queues the mutation analysis and the solver runs on the revised record, and running them measures it",
    async () => {
      const proposed = await proposeRevision({
        actor: author,
        recordId,
        input: {
          full_test_func: WRONG_TEST.replace("121", "120"),
          reason: "5! is 120",
          categories: ["wrong-expected-output"],
        },
      });
      // Proposed only: nothing of the record's evidence is touched yet.
      expect(await queuedJobs(EVIDENCE_QUEUE)).not.toContainEqual({ recordId, revision: proposed.number });
      await checkRecordRevision({
        actor: checker,
        revisionId: proposed.id,
        input: { valid: true, categories: [] },
      });

      expect(await queuedJobs(EVIDENCE_QUEUE)).toContainEqual({ recordId, revision: 2 });
      const batch = await prisma().solutionBatch.findFirstOrThrow({
        where: { origin: "revision", solutions: { some: { recordId } } },
        select: { id: true, total: true, status: true, models: true },
      });
      expect(batch).toMatchObject({ total: 2, status: "RUNNING", models: ["overfitted", "right"] });
      const solutions = await prisma().solution.findMany({
        where: { recordId },
        orderBy: { model: "asc" },
        select: { id: true, model: true, batchId: true, outcome: true, ranAt: true },
      });
      // The old results are gone until the new runs; the reply without code stays decided.
      expect(
        solutions.map(({ model, batchId, outcome, ranAt }) => [model, batchId === batch.id, outcome, ranAt]),
      ).toEqual([
        ["overfitted", true, null, null],
        ["right", true, null, null],
        ["silent", false, "NO_CODE", expect.any(Date)],
      ]);
      const queued = await queuedJobs(VERIFY_QUEUE);
      for (const solution of solutions.filter((row) => row.batchId === batch.id))
        expect(queued).toContainEqual({ batchId: batch.id, solutionId: solution.id });

      // What the workers do with those jobs.
      for (const solution of solutions.filter((row) => row.batchId === batch.id))
        await runSolution({ batchId: batch.id, solutionId: solution.id });
      await measureRevisionMutants({ recordId, revision: 2 });

      const rerun = await prisma().solution.findMany({
        where: { recordId, batchId: batch.id },
        orderBy: { model: "asc" },
        select: { model: true, passed: true, fullOutcome: true },
      });
      expect(rerun).toEqual([
        { model: "overfitted", passed: false, fullOutcome: expect.stringMatching(/^(WRONG_ANSWER|RUNTIME_ERROR)$/) },
        { model: "right", passed: true, fullOutcome: "PASSED" },
      ]);
      expect(await prisma().solutionBatch.findUniqueOrThrow({ where: { id: batch.id } })).toMatchObject({
        status: "SUCCEEDED",
        passed: 1,
        failed: 1,
      });
      const analysis = await prisma().mutationAnalysis.findFirstOrThrow({
        where: { recordId },
        orderBy: { createdAt: "desc" },
      });
      expect(analysis.notApplicable).toBeNull();
      expect(analysis.generated).toBeGreaterThan(0);
      const record = await prisma().record.findUniqueOrThrow({ where: { id: recordId } });
      expect(record.revision).toBe(2);
      expect(record.mutationScore).toBe(analysis.score);

      // A job for a revision the record has moved past measures nothing.
      const before = await prisma().mutationAnalysis.count({ where: { recordId } });
      await measureRevisionMutants({ recordId, revision: 1 });
      expect(await prisma().mutationAnalysis.count({ where: { recordId } })).toBe(before);
    },
    240_000,
  );
});
