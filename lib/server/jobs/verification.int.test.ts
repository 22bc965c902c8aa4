// Batch verification under a crash: the verifying process is killed mid-batch, `verify` is run
// again, the batch resumes and finishes, and every record has exactly one demo and one full result.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

import { describe, expect, it } from "vitest";

import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/db/imports";
import { chunks, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

const hasBwrap = existsSync("/usr/bin/bwrap");

function verify(dataset: string) {
  return spawn(process.execPath, ["scripts/verity.mjs", "verify", "--dataset", dataset, "--json"], { env: { ...process.env }, stdio: ["ignore", "pipe", "ignore"], detached: true });
}

describe("batch verification", () => {
  it.skipIf(!hasBwrap)("resumes after the verifying process is killed, without duplicated results (needs bubblewrap: npm run sandbox:install)", async () => {
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
    await importRecords({ actor: admin, datasetName: dataset, source: chunks(toJsonl(records)), skipInvalid: false, origin: "api" });

    const first = verify(dataset);
    const batchDone = async () => (await prisma().verificationBatch.findFirst({ where: { dataset: { name: dataset } }, select: { id: true, done: true, status: true } })) ?? null;
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
    const summary = JSON.parse(output.trim().split("\n").pop()!) as { byLanguage: { python: { records: number; executableValid: number } } };
    expect(summary.byLanguage.python).toMatchObject({ records: 10, executableValid: 10 });

    const finished = await batchDone();
    expect(finished).toMatchObject({ id: interrupted!.id, done: 10, status: "SUCCEEDED" });
    const perRecord = await prisma().runResult.groupBy({ by: ["recordId", "kind"], where: { batchId: interrupted!.id }, _count: { _all: true } });
    expect(perRecord).toHaveLength(20);
    expect(perRecord.every((row) => row._count._all === 1)).toBe(true);
  });
});
