import { availableParallelism } from "node:os";

import type { RunOptions, RunRequest, SandboxResult } from "./types";

export type RunFunction = (request: RunRequest, options?: RunOptions) => Promise<SandboxResult>;

/** Below this share of a core, a program stopped by the wall clock was waiting or sleeping, not computing. */
const WAITING_CPU_SHARE = 0.02;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Why a time-out of a run alone cannot be told from a busy machine, or null when it can (pure). A
 * program that spent its CPU budget ran out of time by itself; one that sat waiting used no CPU
 * whatever the load. What is left — stopped by the wall clock while computing, below its budget, on
 * a machine with more runnable work than cores — may have been starved rather than slow.
 */
export function inconclusiveReason(result: SandboxResult, cores: number): string | null {
  if (result.outcome !== "TIME_LIMIT_EXCEEDED" || result.timedOutBy !== "wall") return null;
  const load = result.loadAverage ?? null;
  if (load === null || load < cores) return null;
  const ranMs = result.runMs ?? result.timeMs;
  const cpuMs = result.cpuMs ?? null;
  if (cpuMs !== null && ranMs > 0 && cpuMs / ranMs < WAITING_CPU_SHARE) return null;
  const used = cpuMs === null ? "an unknown amount of CPU time" : `${seconds(cpuMs)} of CPU time`;
  return (
    `Run again alone, it was stopped by the wall clock after ${seconds(ranMs)} having had ${used}, ` +
    `less than its budget, while the machine's load was ${load} on ${cores} cores: the load, not the ` +
    `program, may have kept it from finishing. Run it again on a quieter machine.`
  );
}

/** A run alone as it counts: an INCONCLUSIVE outcome, with the reason, where the load could explain its time-out. */
export function judgedAlone(result: SandboxResult, cores = availableParallelism()): SandboxResult {
  const why = result.backend === "local" ? inconclusiveReason(result, cores) : null;
  return why ? { ...result, outcome: "INCONCLUSIVE", verdictNote: why } : result;
}

/**
 * One run whose verdict must not depend on load (every kind of run: live, batch verification,
 * flaky checks, mutants, solver runs). A time limit seen while other runs share the cores may be
 * theirs, not the program's: the run is repeated, judged by CPU time, and that run is what counts —
 * INCONCLUSIVE when even then the machine could explain it. Batch work repeats it alone (every
 * sandbox slot held); a person's work (`isInOneSlot`: a repair's evidence) repeats it in one slot,
 * so that someone's spinning repairs cannot hold the sandbox from everyone else.
 */
export async function runSteadily(
  request: RunRequest,
  run: RunFunction,
  options: RunOptions = {},
  { isInOneSlot = false }: { isInOneSlot?: boolean } = {},
): Promise<SandboxResult> {
  const first = await run(request, options);
  if (first.outcome !== "TIME_LIMIT_EXCEEDED" || first.backend !== "local") return first;
  const again = judgedAlone(
    await run(request, isInOneSlot ? { ...options, isJudgedByCpuTime: true } : { ...options, isExclusive: true }),
  );
  return { ...again, waitMs: (first.waitMs ?? 0) + (again.waitMs ?? 0) };
}
