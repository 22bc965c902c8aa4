import "server-only";

import type { HarnessProfile } from "@/lib/records/harness";

import type { Language } from "@/lib/records/languages";

import type { RunEnvironment } from "./environment";

/** Outcome names as the reference AutoCodeBench sandbox spells them. */
export const OUTCOMES = [
  "PASSED",
  "WRONG_ANSWER",
  "RUNTIME_ERROR",
  "COMPILATION_ERROR",
  "TIME_LIMIT_EXCEEDED",
  "SYNTAX_ERROR",
  "ARGUMENT_ERROR",
  "INTERNAL_ERROR",
  // Not the reference's: a time-out that, run again alone, still could not be told from a busy
  // machine (runSteadily). Never a verdict on the record.
  "INCONCLUSIVE",
] as const;

export type Outcome = (typeof OUTCOMES)[number];

/** The sandbox runs exactly the record languages. */
export type SandboxLanguage = Language;

export type BackendName = "local" | "acb";

/** Which resource limit ended a run, when one did. */
export type LimitName = "time" | "memory" | "output" | "processes";

export type RunRequest = {
  language: SandboxLanguage;
  solution: string;
  test: string;
  /** Base timeout per step; the language allowance is added on top. Default 5 000 ms. */
  timeoutMs?: number;
  /** A harness profile of the language (the dataset's choice); none: AutoCodeBench's rules. Local backend only. */
  profile?: HarnessProfile | null;
  /** The dataset's environment, mounted read-only at /env (lib/server/sandbox/environment.ts). Local backend only. */
  environment?: RunEnvironment | null;
};

/** One run, normalised across backends; what the UI shows next to the outcome. */
export type SandboxResult = {
  outcome: Outcome;
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  compileOutput: string | null;
  timeMs: number;
  memoryKb: number | null;
  limit: LimitName | null;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  /** The spliced program that actually ran. */
  program: string;
  backend: BackendName;
  language: SandboxLanguage;
  /** Wall time of the compile step (null: no compile step) and of the run step, each timed on its own. */
  compileMs?: number | null;
  runMs?: number | null;
  /** The toolchain's version line as the sandbox reports it (null: unknown). */
  toolchain?: string | null;
  /** CPU time of the last step (null: no cgroup accounts it), for judging a time-out. */
  cpuMs?: number | null;
  /** What ended a time-out: the wall clock, or the CPU budget of a run alone (null: no time-out). */
  timedOutBy?: "wall" | "cpu" | null;
  /** How long the run waited for a sandbox slot, and the machine's 1-minute load when it ended. */
  waitMs?: number | null;
  loadAverage?: number | null;
  /** The dataset environment's version the run had mounted (null: none). */
  environmentVersion?: number | null;
  /** Why the outcome is not the program's own verdict (INCONCLUSIVE); null otherwise. */
  verdictNote?: string | null;
};

/** How a caller follows a run: aborting `signal` kills the program (or drops it from the queue). */
export type RunOptions = {
  signal?: AbortSignal;
  /** Run alone: wait until no other local run is going and keep the others waiting meanwhile. */
  isExclusive?: boolean;
  /**
   * Judge the time limit by the program's own CPU time (a longer wall clock), in one slot: a second
   * try that must not depend on load and must not hold the sandbox from everyone else either.
   */
  isJudgedByCpuTime?: boolean;
};

/**
 * One program compiled once and run once per set of variables (a record's switched mutants): whether
 * it compiled, the compiler's output, and each run's result, in order (none when it did not compile);
 * null for a run that could not be judged as a run of its own would be (the caller runs it alone).
 */
export type SwitchedRun = {
  isCompiled: boolean;
  compileOutput: string;
  compileMs: number;
  /** The spliced program, as the compiler's line numbers count. */
  program: string;
  runs: (SandboxResult | null)[];
};

export type BackendAvailability = { available: boolean; reason?: string };

export interface SandboxBackend {
  readonly name: BackendName;
  run(request: RunRequest, options?: RunOptions): Promise<SandboxResult>;
  availability(language: SandboxLanguage): Promise<BackendAvailability>;
}

export type LanguageAvailability = {
  available: boolean;
  backend: BackendName;
  reason?: string;
};

/** Default base timeout of one step, before the per-language allowance. */
export const DEFAULT_TIMEOUT_MS = 5_000;

/** Per-stream output cap: the first and the last half MiB are kept. */
export const OUTPUT_CAP_BYTES = 1024 * 1024;
