// What batch verification keeps and shows: each run's outcome, exit code, times, backend and
// toolchain; the record's outcome and the outcome filter; a language that cannot run here is
// "unavailable" — n/a in the report, out of the human-vs-execution queue, named in the export.

import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { exportCampaign } from "@/lib/server/reports/exports";
import { importRecords } from "@/lib/server/imports/imports";
import { listRecords } from "@/lib/server/records/records";
import { getCampaignReport } from "@/lib/server/reports/reports";
import { listReviewQueue } from "@/lib/server/review/review";
import { getRecordVerification } from "@/lib/server/runs/runs";
import { verificationByLanguage } from "@/lib/server/verification/batches";
import { startVerification, storeVerification, verifyRecord } from "@/lib/server/verification/jobs";
import type { SandboxResult } from "@/lib/server/sandbox";
import { chunks, labelDatasetValid, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { findBubblewrap, skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

// In CI a missing bubblewrap fails the run instead of leaving these tests out.
const hasBwrap = !skipWithoutSandbox(findBubblewrap() ? null : "bubblewrap is not installed");

const python = (question: string, test: string) => ({
  question,
  canonical_solution: "def f():\n    return 1\n",
  demo_test_func: test,
  full_test_func: test,
  language: "python",
});
const RECORDS = [
  python("Passes.", "assert f() == 1\n"),
  python("Fails.", "assert f() == 2\n"),
  python("Times out.", "assert f() == 1\n"),
  {
    ...python("Swift has no toolchain here.", ""),
    canonical_solution: "func f() -> Int { 1 }\n",
    demo_test_func: "assert(f() == 1)\n",
    full_test_func: "assert(f() == 1)\n",
    language: "swift",
  },
];

let admin: Actor;
let dataset: string;
let campaignId: string;
const ids: number[] = [];

const timedOut: SandboxResult = {
  outcome: "TIME_LIMIT_EXCEEDED",
  exitCode: null,
  signal: "SIGKILL",
  stdout: "started\n",
  stderr: "",
  compileOutput: null,
  timeMs: 5_002,
  compileMs: null,
  runMs: 5_002,
  toolchain: "Python 3.11.2",
  memoryKb: null,
  limit: "time",
  stdoutTruncated: false,
  stderrTruncated: false,
  program: "",
  backend: "local",
  language: "python",
};

beforeAll(async () => {
  if (!hasBwrap) return;
  admin = await makeUser("ADMIN");
  dataset = uniqueName("verify-details");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl(RECORDS)),
    skipInvalid: false,
    origin: "api",
  });
  ids.push(
    ...(
      await prisma().record.findMany({
        where: { dataset: { name: dataset } },
        orderBy: { id: "asc" },
        select: { id: true },
      })
    ).map((row) => row.id),
  );
  const { batchId } = await startVerification({ actor: admin, datasetName: dataset, force: false });
  await verifyRecord({ batchId, recordId: ids[0] });
  await verifyRecord({ batchId, recordId: ids[1] });
  await storeVerification({ batchId, recordId: ids[2], verdict: { kind: "ran", demo: timedOut, full: timedOut } });
  await verifyRecord({ batchId, recordId: ids[3] });

  campaignId = await labelDatasetValid({ admin, dataset, languages: ["python", "swift"] });
}, 120_000);

describe.skipIf(!hasBwrap)("verification details (needs bubblewrap: npm run sandbox:install)", () => {
  it("stores each run's outcome, exit code, compile and run times, backend and toolchain, and the record's outcome", async () => {
    const [passed, failed] = await Promise.all([
      getRecordVerification({ actor: admin, recordId: ids[0] }),
      getRecordVerification({ actor: admin, recordId: ids[1] }),
    ]);
    expect(passed.map((run) => run.kind)).toEqual(["DEMO", "FULL"]);
    expect(passed[0]).toMatchObject({ outcome: "PASSED", exitCode: 0, backend: "local", compileMs: null });
    expect(passed[0].runMs).toBeGreaterThan(0);
    expect(passed[0].toolchain).toMatch(/^Python 3\./);
    expect(failed[0]).toMatchObject({ outcome: "RUNTIME_ERROR", exitCode: 1 });
    expect(failed[0].stderr).toContain("AssertionError");
    const outcomes = await prisma().record.findMany({
      where: { id: { in: ids } },
      orderBy: { id: "asc" },
      select: { executableValid: true, verificationOutcome: true },
    });
    expect(outcomes).toEqual([
      { executableValid: true, verificationOutcome: "PASSED" },
      { executableValid: false, verificationOutcome: "RUNTIME_ERROR" },
      { executableValid: false, verificationOutcome: "TIME_LIMIT_EXCEEDED" },
      { executableValid: null, verificationOutcome: "UNAVAILABLE" },
    ]);
    const summary = await verificationByLanguage({ actor: admin, datasetName: dataset });
    expect(summary).toEqual({
      python: { records: 3, executableValid: 1, failed: 2, unavailable: 0, environment: 0, inconclusive: 0, notRun: 0 },
      swift: { records: 1, executableValid: 0, failed: 0, unavailable: 1, environment: 0, inconclusive: 0, notRun: 0 },
    });
  });

  it("filters a dataset by outcome", async () => {
    const keys = async (
      outcome: "passed" | "runtime_error" | "time_limit" | "unavailable" | "wrong_answer" | "not_run",
    ) =>
      (await listRecords({ actor: admin, datasetName: dataset, filters: { outcome }, limit: 50 })).records.map(
        (record) => record.id,
      );
    expect(await keys("passed")).toEqual([ids[0]]);
    expect(await keys("runtime_error")).toEqual([ids[1]]);
    expect(await keys("time_limit")).toEqual([ids[2]]);
    expect(await keys("unavailable")).toEqual([ids[3]]);
    expect(await keys("wrong_answer")).toEqual([]);
    expect(await keys("not_run")).toEqual([]);
  });

  it("reports executable-valid as n/a for the unavailable language, and keeps it out of the execution queue", async () => {
    const report = await getCampaignReport({ actor: admin, campaignId });
    expect(report.byLanguage.swift).toMatchObject({ executableValid: null, executableUnavailable: 1 });
    expect(report.byLanguage.python).toMatchObject({ executableValid: 1 / 3, executableUnavailable: 0 });
    const queue = await listReviewQueue({ actor: admin, campaignId, filters: { queue: "execution" } });
    const queued = queue.items.map((item) => item.recordId).sort((a, b) => a - b);
    expect(queued).toEqual([ids[1], ids[2]]);
  });

  it("carries outcomes and run details in the verified export", async () => {
    let text = "";
    for await (const chunk of exportCampaign({ actor: admin, campaignId, what: "verified", format: "jsonl" }))
      text += chunk;
    const lines = text
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as {
            question: string;
            verification: { execution_outcome: string; runs: Record<string, unknown>[] };
          },
      );
    const byQuestion = Object.fromEntries(lines.map((line) => [line.question, line.verification]));
    expect(byQuestion["Swift has no toolchain here."]).toMatchObject({ execution_outcome: "UNAVAILABLE" });
    expect(byQuestion["Times out."].runs[0]).toMatchObject({
      test: "demo",
      outcome: "TIME_LIMIT_EXCEEDED",
      exit_code: null,
      signal: "SIGKILL",
      run_ms: 5_002,
      backend: "local",
      toolchain: "Python 3.11.2",
      limit: "time",
      stdout: "started\n",
    });
    expect(byQuestion["Fails."].runs.map((run) => run.outcome)).toEqual(["RUNTIME_ERROR", "RUNTIME_ERROR"]);
  });
});
