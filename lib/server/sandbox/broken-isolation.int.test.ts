// A sandbox that is installed but fails when run: VERITY_BWRAP points at a wrapper that exits 1
// with bubblewrap's message, as on a kernel that refuses user namespaces. Nothing is known about
// any record then: the probe says the isolation fails, no record is marked executable-invalid, the
// batch stops with the reason, /api/health is not ok, the status page shows the failure, and the
// CLI's doctor and verify say so and exit non-zero.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { beforeEach, describe, expect, it } from "vitest";

import { GET as health } from "@/app/api/health/route";
import { SANDBOX_ERROR } from "@/lib/records/verification";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { startVerification, verifyRecord } from "@/lib/server/verification/jobs";
import { chunks, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import { collectSandboxStatus } from "@/lib/server/workers/status";
import { setEnv } from "@/lib/testing/env";

const REFUSAL = "bwrap: setting up uid map: Permission denied";
// The sandbox user starts bubblewrap, so the wrapper and its folder are readable by everyone.
const folder = mkdtempSync(join(tmpdir(), "verity-broken-bwrap-"));
chmodSync(folder, 0o755);
const brokenBwrap = join(folder, "bwrap");
writeFileSync(brokenBwrap, `#!/bin/sh\necho "${REFUSAL}" >&2\nexit 1\n`, { mode: 0o755 });
// Before anything builds the process's sandbox router from the environment.
setEnv({ VERITY_BWRAP: brokenBwrap });

// The wrapper stands in for bubblewrap, but prlimit, the sandbox user and python must be installed.
const whyNot = existsSync("/usr/bin/prlimit") ? "" : "prlimit is not installed (npm run sandbox:install)";

async function pythonDataset(count: number) {
  const admin = await makeUser("ADMIN");
  const dataset = uniqueName("broken-sandbox");
  const records = Array.from({ length: count }, (_, index) => ({
    question: `Return ${index}.`,
    canonical_solution: `def f():\n    return ${index}\n`,
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
  return { admin, dataset };
}

function recordsOf(dataset: string) {
  return prisma().record.findMany({
    where: { dataset: { name: dataset } },
    select: { id: true, executableValid: true, verificationOutcome: true },
    orderBy: { id: "asc" },
  });
}

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["scripts/verity.mjs", ...args], {
    env: { ...process.env, VERITY_BWRAP: brokenBwrap },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

beforeEach(async () => {
  // Probes other test files stored would answer for this one.
  await prisma().sandboxProbe.deleteMany({});
});

describe.skipIf(skipWithoutSandbox(whyNot))(
  `a sandbox whose bubblewrap exits with an error${whyNot ? ` (skipped: ${whyNot})` : ""}`,
  () => {
    it("stops the batch with the reason and marks no record executable-invalid", { timeout: 120_000 }, async () => {
      const { admin, dataset } = await pythonDataset(10);
      const { batchId } = await startVerification({ actor: admin, datasetName: dataset, force: false });
      for (const { id } of await recordsOf(dataset)) await verifyRecord({ batchId, recordId: id });

      const batch = await prisma().verificationBatch.findUniqueOrThrow({ where: { id: batchId } });
      expect(batch).toMatchObject({ status: "FAILED", executableValid: 0, failed: 0, done: 1, errored: 1 });
      expect(batch.stopReason).toContain("the sandbox failed before a program started");
      expect(batch.stopReason).toContain(REFUSAL);
      const records = await recordsOf(dataset);
      expect(records.filter((record) => record.executableValid === false)).toEqual([]);
      // The one record the batch tried is "not run (sandbox error)"; the others were left alone.
      expect(records.map((record) => record.verificationOutcome)).toEqual([SANDBOX_ERROR, ...Array(9).fill(null)]);
      const runs = await prisma().runResult.findMany({ where: { batchId }, select: { outcome: true, stderr: true } });
      expect(runs).toEqual([{ outcome: SANDBOX_ERROR, stderr: expect.stringContaining(REFUSAL) }]);
    });

    it("answers /api/health with ok false while no language can run", async () => {
      const body = (await (await health()).json()) as {
        ok: boolean;
        db: { ok: boolean };
        sandbox: { ok: boolean; isolation: string; available: string[] };
      };
      expect(body.db.ok).toBe(true);
      expect(body.sandbox).toMatchObject({ ok: false, isolation: "refused", available: [] });
      expect(body.ok).toBe(false);
    });

    it("shows the failure on the status page: isolation refused, no language can run, no version", async () => {
      const status = await collectSandboxStatus();
      expect(status.isolation.mode).toBe("refused");
      expect(status.isolation.problem).toContain(REFUSAL);
      const python = status.languages.find((language) => language.language === "python");
      expect(python).toMatchObject({ available: false, version: null });
      expect(python?.reason).toContain(REFUSAL);
      expect(status.languages.filter((language) => language.available)).toEqual([]);
    });

    // Each spawns the CLI (a TypeScript start-up of several seconds, far more on a loaded machine).
    const CLI_TIMEOUT_MS = 180_000;

    it(
      "makes `sandbox doctor --json` report the isolation failed, with bubblewrap's message, and exit 1",
      async () => {
        const doctor = await cli(["sandbox", "doctor", "--json"]);
        expect(doctor.code).toBe(1);
        const report = JSON.parse(doctor.stdout) as {
          isolation: { works: boolean; mode: string; detail: string };
          languages: { works: boolean | null; version: string | null }[];
        };
        expect(report.isolation).toMatchObject({ works: false, mode: "refused" });
        expect(report.isolation.detail).toContain(REFUSAL);
        expect(report.languages.every((language) => language.works !== true && language.version === null)).toBe(true);
      },
      CLI_TIMEOUT_MS,
    );

    it(
      "makes `verity verify` exit non-zero with the reason and mark no record executable-invalid",
      async () => {
        const { dataset } = await pythonDataset(3);
        const verify = await cli(["verify", "--dataset", dataset, "--json"]);
        expect(verify.code).toBe(1);
        expect(verify.stderr).toContain("the sandbox failed before a program started");
        expect(verify.stderr).toContain(REFUSAL);
        const records = await recordsOf(dataset);
        expect(records.filter((record) => record.executableValid === false)).toEqual([]);
        expect(records.filter((record) => record.executableValid === true)).toEqual([]);
      },
      CLI_TIMEOUT_MS,
    );
  },
);
