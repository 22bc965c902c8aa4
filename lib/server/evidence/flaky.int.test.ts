// Flaky detection end to end: a record's tests run several times in the real sandbox; outcomes that
// differ mark it flaky (a state of its own in the records filter), and a deterministic one stable.
import { beforeAll, describe, expect, it } from "vitest";

import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { browseRecords } from "@/lib/server/records/records";
import { createLocalBackend } from "@/lib/server/sandbox/local";
import { chunks, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import { checkRecordFlakiness } from "./jobs";

const backend = createLocalBackend({ isUnsafe: false, concurrency: 2, memoryLimitMb: 1024, workDir: null });
const status = await backend.isolation();
const python = await backend.toolchain("python");
const whyNot = status.problem ?? (python.isFound ? null : "python3 is not installed");

let admin: Actor;
beforeAll(async () => {
  admin = await makeUser("ADMIN");
});

const solution = "def half():\n    return 0.5\n";
// Fails on an odd random byte: a different outcome from run to run, as a hash order or a clock would
// give (the process id would not do: the sandbox's own PID namespace gives it the same one each run).
const coinTest = "import os\nassert half() == 0.5\nassert os.urandom(1)[0] % 2 == 0\n";
const steadyTest = "assert half() == 0.5\n";

describe.skipIf(skipWithoutSandbox(whyNot, "python"))("flaky tests", () => {
  it("marks a record whose outcomes differ flaky, a steady one stable, and filters on it", async () => {
    const dataset = uniqueName("flaky");
    const record = (test: string) => ({
      question: `# ${test.length}`,
      canonical_solution: solution,
      demo_test_func: steadyTest,
      full_test_func: test,
      language: "python",
    });
    const summary = await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl([record(coinTest), record(steadyTest)])),
      skipInvalid: false,
      origin: "api",
    });
    expect(summary.ok).toBe(true);
    const [coin, steady] = await prisma().record.findMany({
      where: { dataset: { name: dataset } },
      orderBy: { line: "asc" },
      select: { id: true },
    });
    // 20 runs: a coin-flip test agrees with itself every time once in half a million checks.
    const flaky = await checkRecordFlakiness({ actor: admin, recordId: coin.id, repeat: 20 });
    expect(flaky.flaky, flaky.outcomes.join(" ")).toBe(true);
    // The demo test is steady; only the full test's outcome changes between runs.
    expect(new Set(flaky.outcomes).size, flaky.outcomes.join(" ")).toBe(2);
    expect(flaky.outcomes.every((outcome) => outcome.startsWith("PASSED/"))).toBe(true);
    expect(flaky.outcomes).toContain("PASSED/PASSED");
    const stable = await checkRecordFlakiness({ actor: admin, recordId: steady.id, repeat: 3 });
    expect(stable).toEqual({ flaky: false, outcomes: ["PASSED/PASSED", "PASSED/PASSED", "PASSED/PASSED"] });

    const stored = await prisma().flakyCheck.findMany({ where: { recordId: { in: [coin.id, steady.id] } } });
    expect(stored.map((check) => [check.recordId, check.flaky, check.repeats]).sort()).toEqual(
      [
        [coin.id, true, 20],
        [steady.id, false, 3],
      ].sort(),
    );
    const listed = async (executable: "flaky" | "valid" | "unknown") =>
      (await browseRecords({ actor: admin, datasetName: dataset, filters: { executable }, limit: 10 })).items.map(
        (item) => [item.id, item.flaky],
      );
    expect(await listed("flaky")).toEqual([[coin.id, true]]);
    // Neither record was batch-verified: both are "not verified", and only one is flaky.
    expect(await listed("unknown")).toEqual([
      [coin.id, true],
      [steady.id, false],
    ]);
  }, 600_000);

  it("refuses annotators and an unknown record", async () => {
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    await expect(checkRecordFlakiness({ actor: annotator, recordId: 1, repeat: 3 })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(
      checkRecordFlakiness({ actor: SYSTEM_ACTOR.cli, recordId: 999_999_999, repeat: 3 }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
