import "server-only";

import { availableParallelism, loadavg } from "node:os";
import { stat } from "node:fs/promises";

import { ENVIRONMENT_MOUNT, type RunEnvironment, withEnvironment } from "./environment";
import { SandboxError } from "./errors";
import type { IsolationProbe } from "./local-isolation";
import { type JobResult, type JobRunner, limitFired, stepLimits, stepRlimits } from "./local-job";
import type { ToolchainProbe } from "./local-toolchain";
import { type JobFile, type Recipe, stepTimeoutMs, type StepOutcome, type Switched } from "./recipes";
import { recipeFor } from "./recipes/profiles";
import { parseRunRequest } from "./request";
import { LOOP_SCRIPT, loopScript, readLoopRuns } from "./run-loop";
import type { StepRun } from "./run-step";
import type { Semaphore } from "./semaphore";
import {
  DEFAULT_TIMEOUT_MS,
  OUTPUT_CAP_BYTES,
  type RunOptions,
  type RunRequest,
  type SandboxLanguage,
  type SandboxResult,
  type SwitchedRun,
} from "./types";

/** What a local run uses of its backend: the probes, the job runner and the slots. */
export type LocalRunParts = {
  isolation: IsolationProbe;
  toolchains: ToolchainProbe;
  jobs: JobRunner;
  semaphore: Semaphore;
};

function toStepOutcome(step: StepRun): StepOutcome {
  return { exitCode: step.exitCode, timedOut: step.timedOut, stdout: step.stdout, stderr: step.stderr };
}

/** Puts a recipe's note on a reference quirk above the compiler's output. */
function withReferenceNote(note: string | null | undefined, compileOutput: string | null): string | null {
  if (!note) return compileOutput;
  return compileOutput ? `${note}\n${compileOutput}` : note;
}

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (found) => found.isDirectory(),
    () => false,
  );
}

/** Throws SANDBOX_UNAVAILABLE when the language's toolchain is not in the sandbox (probed again if it was not). */
async function requireToolchain(toolchains: ToolchainProbe, language: SandboxLanguage): Promise<void> {
  const found = await toolchains.toolchain(language, { isRecheck: true });
  if (!found.isFound) {
    throw new SandboxError(
      "SANDBOX_UNAVAILABLE",
      `${language} cannot run locally: toolchain not found in the sandbox (${found.missing.join(", ")}); ` +
        `route it to the acb backend, e.g. VERITY_SANDBOX_ROUTES=${language}:acb`,
    );
  }
}

/** Throws SANDBOX_UNAVAILABLE when the dataset environment a run names is not on disk. */
async function requireEnvironment(environment: RunEnvironment | null): Promise<void> {
  if (environment && !(await isFolder(environment.hostDir))) {
    throw new SandboxError(
      "SANDBOX_UNAVAILABLE",
      `the dataset environment version ${environment.version} is missing at ${environment.hostDir}; build it again`,
    );
  }
}

/** The result of a job's compile and run steps, over the fields every result of the request shares. */
function jobResult(
  base: SandboxResult,
  recipe: Recipe,
  job: JobResult,
  facts: { referenceNote?: string | null; toolchain: string | null; waitMs: number },
): SandboxResult {
  const compileRun = recipe.compile ? (job.runs[0] ?? null) : null;
  const runRun = recipe.compile ? (job.runs[1] ?? null) : (job.runs[0] ?? null);
  const last = runRun ?? compileRun;
  return {
    ...base,
    outcome: recipe.classify({
      syntaxError: false,
      compile: compileRun ? toStepOutcome(compileRun) : null,
      run: runRun ? toStepOutcome(runRun) : null,
    }),
    exitCode: last?.exitCode ?? null,
    signal: last?.signal ?? null,
    stdout: runRun?.stdout ?? "",
    stderr: runRun?.stderr ?? "",
    compileOutput: withReferenceNote(
      facts.referenceNote,
      compileRun ? `${compileRun.stdout}${compileRun.stderr}` : null,
    ),
    timeMs: job.runs.reduce((sum, step) => sum + step.wallMs, 0),
    compileMs: compileRun?.wallMs ?? null,
    runMs: runRun?.wallMs ?? null,
    toolchain: facts.toolchain,
    memoryKb: job.memoryKb,
    limit: job.limit,
    stdoutTruncated: runRun?.stdoutTruncated ?? false,
    stderrTruncated: runRun?.stderrTruncated ?? false,
    cpuMs: last?.cpuMs ?? null,
    timedOutBy: last?.timedOut ? (last.isCpuBudgetSpent ? "cpu" : "wall") : null,
    waitMs: facts.waitMs,
    loadAverage: Math.round(loadavg()[0] * 100) / 100,
    verdictNote: null,
  };
}

/** How many times a step's time limit a switched program's one compile may take. */
const SWITCHED_COMPILE_FACTOR = 3;

type PreparedRun = {
  request: ReturnType<typeof parseRunRequest>;
  spliced: ReturnType<Recipe["splice"]>;
  /** The fields every result of the request shares. */
  base: SandboxResult;
  status: Awaited<ReturnType<IsolationProbe["requireIsolation"]>>;
  recipe: Recipe;
  environment: RunEnvironment | null;
};

/**
 * What every local run does before its job: splices the test with its language's recipe, checks the
 * isolation, the toolchain and the dataset environment. A spliced program refused before running
 * is its result already.
 */
async function prepareRun(parts: LocalRunParts, input: RunRequest): Promise<PreparedRun | { refused: SandboxResult }> {
  const request = parseRunRequest(input);
  const baseRecipe = recipeFor(request.language, request.profile);
  const spliced = baseRecipe.splice(request.solution, request.test);
  const base: SandboxResult = {
    outcome: "INTERNAL_ERROR",
    exitCode: null,
    signal: null,
    stdout: "",
    stderr: "",
    compileOutput: null,
    timeMs: 0,
    memoryKb: null,
    limit: null,
    stdoutTruncated: false,
    stderrTruncated: false,
    program: spliced.program,
    backend: "local",
    language: request.language,
    environmentVersion: request.environment?.version ?? null,
  };
  if (spliced.syntaxError) {
    return {
      refused: {
        ...base,
        outcome: baseRecipe.classify({ syntaxError: true, compile: null, run: null }),
        stderr: `Syntax check failed: ${spliced.syntaxError}`,
      },
    };
  }
  const status = await parts.isolation.requireIsolation();
  await requireToolchain(parts.toolchains, request.language);
  const environment = request.environment ?? null;
  await requireEnvironment(environment);
  // Inside bubblewrap the environment is at /env; unwrapped (unsafe mode) programs read the host folder.
  const recipe = withEnvironment(
    baseRecipe,
    environment,
    status.mode === "bubblewrap" ? ENVIRONMENT_MOUNT : (environment?.hostDir ?? ENVIRONMENT_MOUNT),
  );
  return { request, spliced, base, status, recipe, environment };
}

/** Runs a job in a sandbox slot; a cancelled caller or a broken isolation ends it as an error. */
async function runInSlot(
  parts: LocalRunParts,
  prepared: PreparedRun,
  job: {
    files: readonly JobFile[];
    steps: Parameters<JobRunner["runJob"]>[3];
    shouldContinue: (step: StepRun) => boolean;
    collect?: (jobDir: string) => Promise<void>;
  },
  runOptions: RunOptions,
): Promise<{ job: JobResult; waitMs: number }> {
  const { signal, isExclusive } = runOptions;
  const cancelled = () => new SandboxError("SANDBOX_CANCELLED", "The run was cancelled: its caller went away.");
  const queuedAt = performance.now();
  let waitMs = 0;
  const result = await parts.semaphore
    .use(
      () => {
        waitMs = Math.round(performance.now() - queuedAt);
        return parts.jobs.runJob(
          prepared.status,
          job.files,
          prepared.recipe.env,
          job.steps,
          job.shouldContinue,
          signal,
          prepared.environment?.hostDir,
          job.collect,
        );
      },
      signal,
      { isExclusive },
    )
    .catch((error: unknown) => parts.isolation.forgetBrokenIsolation(signal?.aborted ? cancelled() : error));
  if (signal?.aborted) throw cancelled();
  return { job: result, waitMs };
}

/**
 * Runs one record's test on the local backend: compile then run in one job, in a sandbox slot.
 * Throws SandboxError when no run can happen; every run that happened is a result.
 */
export async function runLocally(
  parts: LocalRunParts,
  input: RunRequest,
  runOptions: RunOptions = {},
): Promise<SandboxResult> {
  const prepared = await prepareRun(parts, input);
  if ("refused" in prepared) return prepared.refused;
  const { request, recipe, spliced } = prepared;
  const timeoutMs = stepTimeoutMs(request.language, request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const steps = [recipe.compile, recipe.run]
    .filter((step) => step !== null)
    .map((step) => ({
      argv: step.argv,
      ...stepLimits(timeoutMs, runOptions.isExclusive === true || runOptions.isJudgedByCpuTime === true),
    }));
  const { job, waitMs } = await runInSlot(
    parts,
    prepared,
    { files: spliced.files, steps, shouldContinue: (step) => !step.timedOut && step.exitCode === 0 },
    runOptions,
  );
  const toolchain = await parts.toolchains.toolchainVersion(request.language);
  return jobResult(prepared.base, recipe, job, { referenceNote: spliced.referenceNote, toolchain, waitMs });
}

/**
 * Compiles one program once and runs it once per entry of `variables`, each run with those variables
 * set (a record's switched mutants), in one job. Under bubblewrap the runs are one sandboxed step,
 * a loop that starts each run as a process of its own (run-loop.ts); a run the loop cannot judge as
 * a step of its own would comes back null, for the caller to run alone. Null when the language's
 * recipe cannot split its compile from its run. When the compile fails there are no runs: the caller
 * decides what that means.
 */
export async function runSwitchedLocally(
  parts: LocalRunParts,
  input: RunRequest,
  variables: readonly Readonly<Record<string, string>>[],
  runOptions: RunOptions = {},
): Promise<SwitchedRun | null> {
  const prepared = await prepareRun(parts, input);
  if ("refused" in prepared) return null;
  const { request, recipe, spliced } = prepared;
  const switched: Switched | null =
    recipe.switched ?? (recipe.compile ? { compile: recipe.compile, run: recipe.run } : null);
  if (!switched) return null;
  const timeoutMs = stepTimeoutMs(request.language, request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const limits = stepLimits(timeoutMs, false);
  const runEnvs = variables.map((env, index) => ({
    ...(index === 0 ? switched.runEnv?.first : switched.runEnv?.rest),
    ...env,
  }));
  // The compile is no mutant's verdict: a slow one (a loaded machine, a long program) only costs time.
  const compileStep = {
    argv: switched.compile.argv,
    ...stepLimits(timeoutMs * SWITCHED_COMPILE_FACTOR, false),
    ...(switched.compileEnv ? { env: switched.compileEnv } : {}),
  };
  const isLooped = prepared.status.mode === "bubblewrap";
  const cpuSeconds = stepRlimits(timeoutMs, availableParallelism()).cpuSeconds;
  const runSteps = isLooped
    ? [
        {
          argv: ["sh", LOOP_SCRIPT],
          // Every run's own wall clock, and a second each for the loop's own work.
          timeoutMs: variables.length * (timeoutMs + 1_000) + 5_000,
          // Each process's CPU budget is a run's, as in a step of its own (RLIMIT_CPU is per process).
          cpuSeconds,
        },
      ]
    : runEnvs.map((env) => ({ argv: switched.run.argv, ...limits, env }));
  let isCompiling = true;
  let looped: (StepRun | null)[] = [];
  const { job, waitMs } = await runInSlot(
    parts,
    prepared,
    {
      files: [
        ...spliced.files,
        ...(switched.files ?? []),
        ...(isLooped ? [{ path: LOOP_SCRIPT, content: loopScript(switched.run.argv, runEnvs, timeoutMs) }] : []),
      ],
      steps: [compileStep, ...runSteps],
      // After the compile, every run goes on whatever the one before did.
      shouldContinue: (step) => {
        const goesOn = !isCompiling || (!step.timedOut && step.exitCode === 0);
        isCompiling = false;
        return goesOn;
      },
      collect: isLooped
        ? async (jobDir) => {
            looped = await readLoopRuns(jobDir, variables.length, {
              timeoutMs,
              cpuSeconds,
              cpuCount: availableParallelism(),
              outputCapBytes: OUTPUT_CAP_BYTES,
            });
          }
        : undefined,
    },
    runOptions,
  );
  const [compileRun, ...stepRuns] = job.runs;
  const compileOutput = `${compileRun.stdout}${compileRun.stderr}`;
  const isCompiled = !compileRun.timedOut && compileRun.exitCode === 0;
  const runs: (StepRun | null)[] = !isCompiled ? [] : isLooped ? looped : stepRuns;
  const toolchain = await parts.toolchains.toolchainVersion(request.language);
  const asCompiled = { ...recipe, compile: switched.compile, run: switched.run };
  return {
    isCompiled,
    compileOutput,
    compileMs: compileRun.wallMs,
    program: spliced.program,
    runs: runs.map((run) =>
      run
        ? jobResult(
            prepared.base,
            asCompiled,
            { runs: [compileRun, run], memoryKb: job.memoryKb, limit: limitFired([run], null) },
            { referenceNote: spliced.referenceNote, toolchain, waitMs },
          )
        : null,
    ),
  };
}
