// A record whose run fails because the sandbox lacks a dependency (a missing Python module, a
// missing C++ header) is an environment failure: its runs keep the reference outcome name, but the
// record is not run as far as validity goes (executableValid null) in the batch, the report and the
// export, and the batch groups it by what is missing.

import { beforeAll, describe, expect, it } from "vitest";

import { ENVIRONMENT_FAILURE } from "@/lib/records/verification";
import type { Actor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { listRecords } from "@/lib/server/records/records";
import { exportCampaign } from "@/lib/server/reports/exports";
import { getCampaignReport } from "@/lib/server/reports/reports";
import { getRecordVerification, listBatchEnvironmentFailures } from "@/lib/server/runs/runs";
import { getVerificationProgress, verificationByLanguage } from "@/lib/server/verification/batches";
import { startVerification, verifyRecord } from "@/lib/server/verification/jobs";
import { chunks, labelDatasetValid, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { findBubblewrap, skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

// In CI a missing bubblewrap fails the run instead of leaving these tests out.
const hasBwrap = !skipWithoutSandbox(findBubblewrap() ? null : "bubblewrap is not installed");

const python = (question: string, solution: string, test: string) => ({
  question,
  canonical_solution: solution,
  demo_test_func: test,
  full_test_func: test,
  language: "python",
});
// A module no sandbox here has (the reference image does not either; a dataset's environment would).
const RECORDS = [
  python("Passes.", "def f():\n    return 1\n", "assert f() == 1\n"),
  python("Fails on its own.", "def f():\n    return 1\n", "assert f() == 2\n"),
  python(
    "Needs a module that is not installed.",
    "import networkx_verity_absent as nx\n\ndef f():\n    return nx.path_graph(3).number_of_edges()\n",
    "assert f() == 2\n",
  ),
  {
    question: "Needs a header that is not installed.",
    canonical_solution:
      '#include <fmt/core.h>\n#include <string>\n\nstd::string greet() { return fmt::format("hi {}", 1); }\n',
    demo_test_func: '#include <cassert>\nint main() {\n    assert(greet() == "hi 1");\n    return 0;\n}\n',
    full_test_func: '#include <cassert>\nint main() {\n    assert(greet() == "hi 1");\n    return 0;\n}\n',
    language: "cpp",
  },
];

let admin: Actor;
let dataset: string;
let campaignId: string;
let batchId: string;
const ids: number[] = [];

beforeAll(async () => {
  if (!hasBwrap) return;
  admin = await makeUser("ADMIN");
  dataset = uniqueName("environment-failures");
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
  ({ batchId } = await startVerification({ actor: admin, datasetName: dataset, force: false }));
  for (const recordId of ids) await verifyRecord({ batchId, recordId });

  campaignId = await labelDatasetValid({ admin, dataset, languages: ["python", "cpp"] });
}, 300_000);

describe.skipIf(!hasBwrap)("environment failures (needs bubblewrap: npm run sandbox:install)", () => {
  it("keeps the reference outcome on the runs, names what is missing, and leaves the record neither valid nor invalid", async () => {
    const runs = await getRecordVerification({ actor: admin, recordId: ids[2] });
    expect(runs.map((run) => [run.outcome, run.environmentKind, run.environmentMissing])).toEqual([
      ["RUNTIME_ERROR", "module", "networkx_verity_absent"],
      ["RUNTIME_ERROR", "module", "networkx_verity_absent"],
    ]);
    const header = await getRecordVerification({ actor: admin, recordId: ids[3] });
    expect(header[0]).toMatchObject({
      outcome: "COMPILATION_ERROR",
      environmentKind: "header",
      environmentMissing: "fmt/core.h",
    });
    const own = await getRecordVerification({ actor: admin, recordId: ids[1] });
    expect(own[0]).toMatchObject({ outcome: "RUNTIME_ERROR", environmentKind: null });

    const records = await prisma().record.findMany({
      where: { id: { in: ids } },
      orderBy: { id: "asc" },
      select: { executableValid: true, verificationOutcome: true },
    });
    expect(records).toEqual([
      { executableValid: true, verificationOutcome: "PASSED" },
      { executableValid: false, verificationOutcome: "RUNTIME_ERROR" },
      { executableValid: null, verificationOutcome: ENVIRONMENT_FAILURE },
      { executableValid: null, verificationOutcome: ENVIRONMENT_FAILURE },
    ]);
  });

  it("counts environment failures apart from failures in the batch, per language, and in the outcome filter", async () => {
    expect(await getVerificationProgress({ actor: admin, batchId })).toMatchObject({
      status: "SUCCEEDED",
      done: 4,
      executableValid: 1,
      failed: 1,
      environmentFailed: 2,
    });
    expect(await verificationByLanguage({ actor: admin, datasetName: dataset })).toEqual({
      python: { records: 3, executableValid: 1, failed: 1, unavailable: 0, environment: 1, inconclusive: 0, notRun: 0 },
      cpp: { records: 1, executableValid: 0, failed: 0, unavailable: 0, environment: 1, inconclusive: 0, notRun: 0 },
    });
    const filtered = await listRecords({
      actor: admin,
      datasetName: dataset,
      filters: { outcome: "environment" },
      limit: 50,
    });
    expect(filtered.records.map((record) => record.id)).toEqual([ids[2], ids[3]]);
  });

  it("groups the batch's environment failures by what is missing, with the records", async () => {
    expect(await listBatchEnvironmentFailures({ actor: admin, batchId })).toEqual([
      { kind: "header", missing: "fmt/core.h", language: "cpp", records: 1, examples: [{ recordId: ids[3], line: 4 }] },
      {
        kind: "module",
        missing: "networkx_verity_absent",
        language: "python",
        records: 1,
        examples: [{ recordId: ids[2], line: 3 }],
      },
    ]);
  });

  it("does not count an environment failure as invalid in the report", async () => {
    const report = await getCampaignReport({ actor: admin, campaignId });
    // One passing and one failing Python record are known; the third is not.
    expect(report.byLanguage.python).toMatchObject({ executableValid: 1 / 2 });
    expect(report.byLanguage.cpp).toMatchObject({ executableValid: null });
  });

  it("exports an environment failure as unknown, with the reference outcome and the missing name on its runs", async () => {
    let text = "";
    for await (const chunk of exportCampaign({ actor: admin, campaignId, what: "verified", format: "jsonl" }))
      text += chunk;
    const byQuestion = Object.fromEntries(
      text
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { question: string; verification: Record<string, unknown> })
        .map((line) => [line.question, line.verification]),
    );
    expect(byQuestion["Needs a module that is not installed."]).toMatchObject({
      executable_valid: null,
      execution_outcome: ENVIRONMENT_FAILURE,
      runs: [
        {
          test: "demo",
          outcome: "RUNTIME_ERROR",
          environment_failure: { kind: "module", missing: "networkx_verity_absent" },
        },
        {
          test: "full",
          outcome: "RUNTIME_ERROR",
          environment_failure: { kind: "module", missing: "networkx_verity_absent" },
        },
      ],
    });
    expect(byQuestion["Fails on its own."]).toMatchObject({
      executable_valid: false,
      execution_outcome: "RUNTIME_ERROR",
    });
  });
});
