// Batch verification under a crash: the verifying process is killed mid-batch, `verify` is run
// again, the batch resumes and finishes, and every record has exactly one demo and one full result.
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

import { describe, expect, it } from "vitest";

import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { startVerification, storeVerification, verifyRecord } from "@/lib/server/verification/jobs";
import type { SandboxResult } from "@/lib/server/sandbox";
import { findBubblewrap, skipWithoutSandbox } from "@/lib/testing/sandbox-gate";
import { chunks, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

// Skipped without bubblewrap, except in CI, where that fails the run.
const hasBwrap = !skipWithoutSandbox(findBubblewrap() ? null : "bubblewrap is not installed");

function verify(dataset: string) {
  return spawn(process.execPath, ["scripts/verity.mjs", "verify", "--dataset", dataset, "--json"], {
    env: { ...process.env },
    stdio: ["ignore", "pipe", "ignore"],
    detached: true,
  });
}

describe("batch verification", () => {
  it.skipIf(!hasBwrap)(
    "resumes after the verifying process is killed, without duplicated results (needs bubblewrap: npm run sandbox:install)",
    async () => {
      const admin = await makeUser("ADMIN");
      const dataset = uniqueName("verify-kill");
      // Slow enough (0.4 s a run) to be killed in the middle.
      const records = Array.from({ length: 10 }, (_, index) => ({
        question: `Return ${index}.`,
        canonical_solution: `import time\ndef f():\n    time.sleep(0.4)\n    return ${index}\n`,
        demo_test_func: `assert f() == ${index}\n`,
        full_test_func: `assert f() == ${index}\n`,
        language: "python",
      }));
      await importRecords({
        actor: admin,
        datasetName: dataset,
        source: chunks(toJsonl(records)),
        skipInvalid: false,
        origin: "api",
      });

      const first = verify(dataset);
      const batchDone = async () =>
        (await prisma().verificationBatch.findFirst({
          where: { dataset: { name: dataset } },
          select: { id: true, done: true, status: true },
        })) ?? null;
      for (let attempt = 0; attempt < 600; attempt++) {
        const batch = await batchDone();
        if (batch && batch.done >= 3) break;
        await sleep(100);
      }
      process.kill(-first.pid!, "SIGKILL");
      await new Promise((resolve) => first.once("exit", resolve));
      const interrupted = await batchDone();
      expect(interrupted?.status).toBe("RUNNING");
      expect(interrupted!.done).toBeLessThan(10);

      const second = verify(dataset);
      let output = "";
      second.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise((resolve) => second.once("exit", resolve));
      expect(code).toBe(0);
      const summary = JSON.parse(output.trim().split("\n").pop()!) as {
        byLanguage: { python: { records: number; executableValid: number } };
      };
      expect(summary.byLanguage.python).toMatchObject({ records: 10, executableValid: 10 });

      const finished = await batchDone();
      expect(finished).toMatchObject({ id: interrupted!.id, done: 10, status: "SUCCEEDED" });
      const perRecord = await prisma().runResult.groupBy({
        by: ["recordId", "kind"],
        where: { batchId: interrupted!.id },
        _count: { _all: true },
      });
      expect(perRecord).toHaveLength(20);
      expect(perRecord.every((row) => row._count._all === 1)).toBe(true);
    },
  );
});

describe("a record whose result cannot be stored as is", () => {
  async function datasetWith(records: Record<string, unknown>[]) {
    const admin = await makeUser("ADMIN");
    const dataset = uniqueName("verify-bad");
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl(records)),
      skipInvalid: false,
      origin: "api",
    });
    const ids = await prisma().record.findMany({
      where: { dataset: { name: dataset } },
      select: { id: true },
      orderBy: { id: "asc" },
    });
    const { batchId } = await startVerification({ actor: admin, datasetName: dataset, force: false });
    return { batchId, recordIds: ids.map((row) => row.id) };
  }

  const batchOf = (batchId: string) =>
    prisma().verificationBatch.findUniqueOrThrow({
      where: { id: batchId },
      select: { status: true, done: true, executableValid: true, failed: true, errored: true },
    });

  it.skipIf(!hasBwrap)(
    "a program that prints NUL bytes is verified and the batch finishes (needs bubblewrap: npm run sandbox:install)",
    async () => {
      const nul = {
        question: "Print a NUL.",
        canonical_solution: 'import sys\nsys.stdout.write("x\\0y")\n',
        demo_test_func: "assert True\n",
        full_test_func: "assert True\n",
        language: "python",
      };
      const plain = { ...nul, question: "Print nothing.", canonical_solution: "pass\n" };
      const { batchId, recordIds } = await datasetWith([nul, plain]);
      for (const recordId of recordIds) await verifyRecord({ batchId, recordId });
      expect(await batchOf(batchId)).toEqual({
        status: "SUCCEEDED",
        done: 2,
        executableValid: 2,
        failed: 0,
        errored: 0,
      });
      const stdout = await prisma().runResult.findMany({
        where: { batchId, recordId: recordIds[0] },
        select: { stdout: true },
      });
      expect(stdout.map((run) => run.stdout)).toEqual(["x\u2400y", "x\u2400y"]);
    },
  );

  it("any error while storing a result marks that record errored and lets the batch finish", async () => {
    const { batchId, recordIds } = await datasetWith([makeRecordFor("store_a"), makeRecordFor("store_b")]);
    // A time no database column can hold stands for any result the database refuses.
    const unstorable: SandboxResult = {
      outcome: "PASSED",
      exitCode: 0,
      signal: null,
      stdout: "",
      stderr: "",
      compileOutput: null,
      timeMs: 2 ** 40,
      memoryKb: null,
      limit: null,
      stdoutTruncated: false,
      stderrTruncated: false,
      program: "",
      backend: "local",
      language: "python",
    };
    await storeVerification({
      batchId,
      recordId: recordIds[0],
      verdict: { kind: "ran", demo: unstorable, full: unstorable },
    });
    await storeVerification({
      batchId,
      recordId: recordIds[1],
      verdict: { kind: "ran", demo: { ...unstorable, timeMs: 5 }, full: { ...unstorable, timeMs: 5 } },
    });
    expect(await batchOf(batchId)).toEqual({ status: "SUCCEEDED", done: 2, executableValid: 1, failed: 0, errored: 1 });
    const marker = await prisma().runResult.findMany({
      where: { batchId, recordId: recordIds[0] },
      select: { outcome: true, stderr: true },
    });
    expect(marker).toEqual([{ outcome: "INTERNAL_ERROR", stderr: expect.stringMatching(/could not be stored/) }]);
    const record = await prisma().record.findUniqueOrThrow({
      where: { id: recordIds[0] },
      select: { executableValid: true },
    });
    expect(record.executableValid).toBeNull();
  });
});

function makeRecordFor(name: string) {
  return {
    question: `Return 1 from ${name}.`,
    canonical_solution: `def ${name}():\n    return 1\n`,
    demo_test_func: `assert ${name}() == 1\n`,
    full_test_func: `assert ${name}() == 1\n`,
    language: "python",
  };
}
