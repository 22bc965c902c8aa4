import { describe, expect, it } from "vitest";

import { availableParallelism } from "node:os";
import { join } from "node:path";

import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import { readConformanceCases } from "./conformance";
import { createLocalBackend } from "./local";
import { ALONE_WALL_FACTOR } from "./local-job";
import { stepTimeoutMs } from "./recipes";
import { runSteadily } from "./steady";

// Programs that never end, run as batch verification runs them (`runSteadily`: the shared run times
// out, the run alone is judged by CPU time). Whatever ends them — the wall clock, SIGXCPU at the soft
// CPU limit, or SIGKILL at the hard one for a runtime that ignores SIGXCPU (Go) — it is a time limit.
const BASE_TIMEOUT_MS = 2_000;

// Our own cases, in the conformance format, so `verity sandbox conformance` can run them too.
const CASES = await readConformanceCases(join(process.cwd(), "lib", "server", "sandbox", "fixtures", "never-ends"));

const backend = createLocalBackend({ isUnsafe: false, concurrency: 2, memoryLimitMb: 1024, workDir: null });
const status = await backend.isolation();
const available = new Map(
  await Promise.all(
    [...new Set(CASES.map((item) => item.language))].map(
      async (language) => [language, await backend.toolchain(language)] as const,
    ),
  ),
);

describe("a program that never ends, judged as batch verification judges it", () => {
  for (const item of CASES) {
    const toolchain = available.get(item.language);
    const whyNot =
      status.problem ?? (toolchain?.isFound ? null : `toolchain not installed (${toolchain?.missing.join(", ")})`);
    const isSkipped = skipWithoutSandbox(whyNot, status.problem ? undefined : item.language);

    it.skipIf(isSkipped)(
      `${item.id}: TIME_LIMIT_EXCEEDED, limit "time", within its wall-clock allowance${whyNot ? ` (skipped: ${whyNot})` : ""}`,
      async () => {
        const startedAt = performance.now();
        const result = await runSteadily(
          { language: item.language, solution: item.solution, test: item.test, timeoutMs: BASE_TIMEOUT_MS },
          backend.run,
        );
        const elapsedMs = performance.now() - startedAt;
        const said = `exit ${result.exitCode} signal ${result.signal}\n${result.stderr}\n${result.compileOutput ?? ""}`;
        // Never a crash. On a machine busier than its cores the run alone may be starved before it
        // spends its CPU budget: then, and only then, it is INCONCLUSIVE and says the load it saw.
        if (result.outcome === "INCONCLUSIVE") {
          expect(result.loadAverage ?? 0, said).toBeGreaterThanOrEqual(availableParallelism());
          expect(result.verdictNote, said).toMatch(/the machine's load was/);
        } else expect(result.outcome, said).toBe(item.reference_outcome);
        expect(result.limit, said).toBe("time");
        // The shared run's wall clock, then the run alone's (compile and run), plus starting up.
        const stepMs = stepTimeoutMs(item.language, BASE_TIMEOUT_MS);
        expect(elapsedMs).toBeLessThan(stepMs + 2 * stepMs * ALONE_WALL_FACTOR + 15_000);
      },
      180_000,
    );
  }
});
