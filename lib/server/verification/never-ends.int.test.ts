// A record whose program never ends, verified for real in a batch: the shared run times out, the run
// alone is stopped at its CPU budget, and everywhere the verdict goes it is a time limit, never a
// runtime error (issue 40: soft and hard CPU limits were equal, so the kernel's SIGKILL read as a crash).
// Integration: serial — the passing run's verdict rests on the sandbox's wall-clock limit, which
// another file's programs on the same cores could push it past.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { cutRelease } from "@/lib/server/releases/cut-release";
import { writeReleaseFolder } from "@/lib/server/releases/build-release";
import { exportCampaign } from "@/lib/server/reports/exports";
import { getCampaignReport } from "@/lib/server/reports/reports";
import { getRecordVerification } from "@/lib/server/runs/runs";
import { listBatchOutcomes, verificationByLanguage } from "@/lib/server/verification/batches";
import { startVerification, verifyRecord } from "@/lib/server/verification/jobs";
import { chunks, labelDatasetValid, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { findBubblewrap, skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

const hasBwrap = !skipWithoutSandbox(findBubblewrap() ? null : "bubblewrap is not installed");

const SOLUTION = "def f(n):\n    while n > 0:\n        pass\n    return n\n";
const RECORDS = [
  {
    question: "Returns zero.",
    canonical_solution: SOLUTION,
    demo_test_func: "assert f(0) == 0\n",
    full_test_func: "assert f(0) == 0\n",
    language: "python",
  },
  {
    // Only the demo test spins, which keeps the test to one shared run and one run alone.
    question: "Spins for ever.",
    canonical_solution: SOLUTION,
    demo_test_func: "assert f(1) == 0\n",
    full_test_func: "assert f(0) == 0\n",
    language: "python",
  },
];

let admin: Actor;
let dataset: string;
let campaignId: string;
let batchId: string;
let spinning: number;
const folder = mkdtempSync(join(tmpdir(), "verity-never-ends-"));

beforeAll(async () => {
  if (!hasBwrap) return;
  admin = await makeUser("ADMIN");
  dataset = uniqueName("never-ends");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl(RECORDS)),
    skipInvalid: false,
    origin: "api",
  });
  const ids = (
    await prisma().record.findMany({
      where: { dataset: { name: dataset } },
      orderBy: { id: "asc" },
      select: { id: true },
    })
  ).map((row) => row.id);
  spinning = ids[1];
  ({ batchId } = await startVerification({ actor: admin, datasetName: dataset, force: false }));
  for (const recordId of ids) await verifyRecord({ batchId, recordId });

  campaignId = await labelDatasetValid({ admin, dataset, languages: ["python"] });
}, 180_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.skipIf(!hasBwrap)("a record that never ends, through batch verification (needs bubblewrap)", () => {
  it("is a time limit on the record page, in the batch's counts and in the report", async () => {
    const runs = await getRecordVerification({ actor: admin, recordId: spinning });
    expect(runs[0]).toMatchObject({ kind: "DEMO", outcome: "TIME_LIMIT_EXCEEDED", limit: "time" });
    expect(runs[1]).toMatchObject({ kind: "FULL", outcome: "PASSED" });
    const record = await prisma().record.findUniqueOrThrow({
      where: { id: spinning },
      select: { verificationOutcome: true },
    });
    expect(record.verificationOutcome).toBe("TIME_LIMIT_EXCEEDED");

    const outcomes = await listBatchOutcomes({ actor: admin, batchId });
    expect(outcomes.filter((run) => run.outcome === "RUNTIME_ERROR")).toEqual([]);
    expect(outcomes.filter((run) => run.outcome === "TIME_LIMIT_EXCEEDED")).toEqual([
      { line: 2, kind: "DEMO", outcome: "TIME_LIMIT_EXCEEDED" },
    ]);
    expect(await verificationByLanguage({ actor: admin, datasetName: dataset })).toEqual({
      python: { records: 2, executableValid: 1, failed: 1, unavailable: 0, environment: 0, inconclusive: 0, notRun: 0 },
    });
    const report = await getCampaignReport({ actor: admin, campaignId });
    expect(report.byLanguage.python).toMatchObject({ executableValid: 1 / 2 });
  });

  it("is a time limit in the verified export and in a release", async () => {
    let text = "";
    for await (const chunk of exportCampaign({ actor: admin, campaignId, what: "verified", format: "jsonl" }))
      text += chunk;
    const exported = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { question: string; verification: { execution_outcome: string } });
    expect(exported.find((line) => line.question === "Spins for ever.")?.verification.execution_outcome).toBe(
      "TIME_LIMIT_EXCEEDED",
    );

    await cutRelease({ actor: admin, datasetName: dataset, name: "v1" });
    await writeReleaseFolder({ actor: admin, datasetName: dataset, name: "v1", outDir: folder });
    const lines = ["data.jsonl", "excluded.jsonl"].flatMap((file) =>
      readFileSync(join(folder, file), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    );
    const released = JSON.stringify(lines.filter((line) => JSON.stringify(line).includes("Spins for ever.")));
    expect(released).toContain("TIME_LIMIT_EXCEEDED");
    expect(released).not.toContain("RUNTIME_ERROR");
  });
});
