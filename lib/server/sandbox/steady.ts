import type { RunOptions, RunRequest, SandboxResult } from "./types";

export type RunFunction = (request: RunRequest, options?: RunOptions) => Promise<SandboxResult>;

/**
 * One run whose verdict must not depend on load (batch verification). A time limit seen while other
 * runs share the cores may be theirs, not the program's: the run is repeated, judged by CPU time, and
 * that run is what counts. Batch work repeats it alone (every sandbox slot held); a person's work
 * (`isInOneSlot`: a repair's evidence) repeats it in one slot, so that someone's spinning repairs
 * cannot hold the sandbox from everyone else.
 */
export async function runSteadily(
  request: RunRequest,
  run: RunFunction,
  options: RunOptions = {},
  { isInOneSlot = false }: { isInOneSlot?: boolean } = {},
): Promise<SandboxResult> {
  const first = await run(request, options);
  if (first.outcome !== "TIME_LIMIT_EXCEEDED" || first.backend !== "local") return first;
  return run(request, isInOneSlot ? { ...options, isJudgedByCpuTime: true } : { ...options, isExclusive: true });
}
