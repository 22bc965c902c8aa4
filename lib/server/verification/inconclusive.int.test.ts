// An INCONCLUSIVE verdict (a time-out that, run again alone, a busy machine could still explain) is
// "not known" everywhere a verdict goes: never failed, never invalid, and said so with its reason.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { listRecords } from "@/lib/server/records/records";
import { cutRelease } from "@/lib/server/releases/cut-release";
import { writeReleaseFolder } from "@/lib/server/releases/build-release";
import { exportCampaign } from "@/lib/server/reports/exports";
import { getCampaignReport } from "@/lib/server/reports/reports";
import { listEvidenceQueue } from "@/lib/server/review/evidence-queues";
import { listReviewQueue } from "@/lib/server/review/review";
import type { SandboxResult } from "@/lib/server/sandbox";
import { getVerificationProgress, verificationByLanguage } from "@/lib/server/verification/batches";
import { startVerification, storeVerification } from "@/lib/server/verification/jobs";
import { chunks, labelDatasetValid, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

const record = (question: string) => ({
  question,
  canonical_solution: "def f():\n    return 1\n",
  demo_test_func: "assert f() == 1\n",
  full_test_func: "assert f() == 1\n",
  language: "python",
  // The critic passes both: against a failing execution that would be a disagreement to review.
  critic: { overall_pass: true },
});

const NOTE = "Run again alone, it was stopped by the wall clock after 15.0 s having had 2.1 s of CPU time…";
const run = (outcome: SandboxResult["outcome"]): SandboxResult => ({
  outcome,
  exitCode: outcome === "PASSED" ? 0 : null,
  signal: outcome === "PASSED" ? null : "SIGKILL",
  stdout: "",
  stderr: "",
  compileOutput: null,
  timeMs: 15_000,
  runMs: 15_000,
  memoryKb: null,
  limit: outcome === "PASSED" ? null : "time",
  stdoutTruncated: false,
  stderrTruncated: false,
  program: "",
  backend: "local",
  language: "python",
  waitMs: 4_200,
  loadAverage: 18.5,
  verdictNote: outcome === "INCONCLUSIVE" ? NOTE : null,
});

let admin: Actor;
let reviewer: Actor;
let dataset: string;
let campaignId: string;
let batchId: string;
const ids: number[] = [];
const folder = mkdtempSync(join(tmpdir(), "verity-inconclusive-"));

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  reviewer = await makeUser("REVIEWER", ["python"]);
  dataset = uniqueName("inconclusive");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl([record("Passes."), record("Inconclusive."), record("Fails."), record("Times out.")])),
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
  ({ batchId } = await startVerification({ actor: admin, datasetName: dataset, force: false }));
  const verdicts: [SandboxResult, SandboxResult][] = [
    [run("PASSED"), run("PASSED")],
    [run("PASSED"), run("INCONCLUSIVE")],
    [run("INCONCLUSIVE"), run("WRONG_ANSWER")],
    [run("TIME_LIMIT_EXCEEDED"), run("PASSED")],
  ];
  for (const [index, [demo, full]] of verdicts.entries())
    await storeVerification({ batchId, recordId: ids[index], verdict: { kind: "ran", demo, full } });

  campaignId = await labelDatasetValid({ admin, dataset, languages: ["python"] });
}, 120_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("an inconclusive verdict", () => {
  it("leaves the record not known, counted apart from failed on the batch and per language", async () => {
    const rows = await prisma().record.findMany({
      where: { id: { in: ids } },
      orderBy: { id: "asc" },
      select: { executableValid: true, verificationOutcome: true },
    });
    expect(rows).toEqual([
      { executableValid: true, verificationOutcome: "PASSED" },
      { executableValid: null, verificationOutcome: "INCONCLUSIVE" },
      // A test that really failed decides, whatever the other's time-out.
      { executableValid: false, verificationOutcome: "WRONG_ANSWER" },
      { executableValid: false, verificationOutcome: "TIME_LIMIT_EXCEEDED" },
    ]);
    expect(await getVerificationProgress({ actor: admin, batchId })).toMatchObject({
      executableValid: 1,
      failed: 2,
      inconclusive: 1,
    });
    expect(await verificationByLanguage({ actor: admin, datasetName: dataset })).toEqual({
      python: { records: 4, executableValid: 1, failed: 2, unavailable: 0, environment: 0, inconclusive: 1, notRun: 0 },
    });
    const filtered = await listRecords({
      actor: admin,
      datasetName: dataset,
      filters: { outcome: "inconclusive" },
      limit: 50,
    });
    expect(filtered.records.map((row) => row.id)).toEqual([ids[1]]);
  });

  it("counts as unknown in the report, the execution and evidence queues", async () => {
    const report = await getCampaignReport({ actor: admin, campaignId });
    // 1 of the 3 records whose execution is known passes; the inconclusive one is in neither count.
    expect(report.byLanguage.python).toMatchObject({ executableValid: 1 / 3 });
    const execution = await listReviewQueue({ actor: admin, campaignId, filters: { queue: "execution" } });
    expect(execution.items.map((item) => item.recordId).sort((a, b) => a - b)).toEqual([ids[2], ids[3]]);
    const disagreements = await listEvidenceQueue({
      actor: reviewer,
      campaignId,
      filters: { reason: "critic_vs_execution" },
    });
    expect(disagreements.items.map((item) => item.recordId)).not.toContain(ids[1]);
  });

  it("is named, with its reason, the wait and the load, in the verified export", async () => {
    let text = "";
    for await (const chunk of exportCampaign({ actor: admin, campaignId, what: "verified", format: "jsonl" }))
      text += chunk;
    const line = text
      .trim()
      .split("\n")
      .map((row) => JSON.parse(row) as { question: string; verification: Record<string, unknown> })
      .find((row) => row.question === "Inconclusive.")!;
    expect(line.verification).toMatchObject({ execution_outcome: "INCONCLUSIVE", executable_valid: null });
    expect((line.verification.runs as Record<string, unknown>[])[1]).toMatchObject({
      outcome: "INCONCLUSIVE",
      verdict_note: NOTE,
      wait_ms: 4_200,
      load_average: 18.5,
    });
  });

  it("is never invalid in a release, and the release card says how many were inconclusive", async () => {
    await cutRelease({ actor: admin, datasetName: dataset, name: "needs-execution", requireExecutable: true });
    await writeReleaseFolder({ actor: admin, datasetName: dataset, name: "needs-execution", outDir: folder });
    const excluded = readFileSync(join(folder, "excluded.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((row) => JSON.parse(row) as { line: number; label: string; rule: string });
    // Line 2 is the inconclusive record: labelled valid, left out only because its execution is not known.
    expect(excluded.find((row) => row.line === 2)).toMatchObject({ label: "valid", rule: "execution-inconclusive" });
    const card = readFileSync(join(folder, "README.md"), "utf8");
    expect(card).toContain("**Inconclusive execution**: 1 record timed out");
  });
});
