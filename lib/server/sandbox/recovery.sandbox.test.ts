import { chmod, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { processesRunning } from "@/lib/testing/processes";
import { findBubblewrap, skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import { SandboxError } from "./errors";
import { createLocalBackend } from "./local";

// Real bubblewrap: a backend recovers when bubblewrap appears after it first looked, and a run whose
// caller gave up is killed at once.
const options = { isUnsafe: false, concurrency: 2, memoryLimitMb: 512, workDir: null };
const probe = await createLocalBackend(options).isolation();
const whyNot = probe.problem ?? (probe.mode === "bubblewrap" ? "" : "bubblewrap is not installed");
const folder = await mkdtemp(join(tmpdir(), "verity-recovery-"));
// The sandbox user starts bubblewrap through the link, so it must be able to reach it.
await chmod(folder, 0o755);

afterAll(() => rm(folder, { recursive: true, force: true }));

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(skipWithoutSandbox(whyNot))(`local sandbox recovery${whyNot ? ` (skipped: ${whyNot})` : ""}`, () => {
  it("refuses while bubblewrap is missing and runs as soon as it appears, without a new backend", async () => {
    const bwrap = join(folder, "bwrap");
    const backend = createLocalBackend({ ...options, bwrapPath: bwrap });
    const request = { language: "python" as const, solution: "print('ok')\n", test: "" };
    const refused = await backend.run(request).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SandboxError);
    expect((refused as SandboxError).code).toBe("SANDBOX_UNAVAILABLE");
    expect((await backend.availability("python")).available).toBe(false);

    await symlink(findBubblewrap()!, bwrap);
    const result = await backend.run(request);
    expect(result.stderr).toBe("");
    expect(result.outcome).toBe("PASSED");
    expect(result.stdout).toBe("ok\n");
    expect((await backend.isolation()).bwrapPath).toBe(bwrap);
  });

  it("kills a program at once when its caller aborts, instead of letting it run to its time limit", async () => {
    const backend = createLocalBackend(options);
    // A unique command line to find the program among everything else running on this machine.
    const argv = ["sleep", `30.${process.pid}${Date.now() % 100_000}`];
    const controller = new AbortController();
    const started = Date.now();
    const run = backend
      .run(
        {
          language: "python",
          solution: `import subprocess\nsubprocess.run(${JSON.stringify(argv)})\n`,
          test: "",
          timeoutMs: 25_000,
        },
        { signal: controller.signal },
      )
      .catch((error: unknown) => error);
    await waitFor(async () => (await processesRunning(argv)).length > 0, 15_000);
    controller.abort();
    const outcome = await run;
    expect(outcome).toBeInstanceOf(SandboxError);
    expect((outcome as SandboxError).code).toBe("SANDBOX_CANCELLED");
    expect(Date.now() - started).toBeLessThan(15_000);
    await waitFor(async () => (await processesRunning(argv)).length === 0, 2_000);
  });
});
