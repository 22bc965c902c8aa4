import type { RunOptions, RunRequest, SandboxResult } from "./types";

export type RunFunction = (request: RunRequest, options?: RunOptions) => Promise<SandboxResult>;

/**
 * One run whose verdict must not depend on load (batch verification). A time limit seen while other
 * runs share the cores may be theirs, not the program's: the run is repeated alone (every sandbox
 * slot held, judged by CPU time) and that run is what counts.
 */
export async function runSteadily(
  request: RunRequest,
  run: RunFunction,
  options: RunOptions = {},
): Promise<SandboxResult> {
  const first = await run(request, options);
  if (first.outcome !== "TIME_LIMIT_EXCEEDED" || first.backend !== "local") return first;
  return run(request, { ...options, isExclusive: true });
}
