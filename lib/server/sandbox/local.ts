import "server-only";

import { constants as osConstants, availableParallelism, tmpdir } from "node:os";
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

import { type CgroupMode, createJobCgroup, detectCgroupMode, type JobCgroup } from "./cgroup";
import { SandboxError } from "./errors";
import {
  etcPaths,
  findInSandbox,
  findOnHost,
  findSandboxUser,
  isExecutable,
  isWorldReadable,
  SANDBOX_USER,
  type SandboxUser,
  systemRoots,
} from "./host";
import { baseSandboxEnv, buildBwrapArgv, prlimitArgv, rebaseEnv, type Rlimits, signalFromExitCode } from "./isolation";
import { getRecipe, stepTimeoutMs, type JobFile, type StepOutcome } from "./recipes";
import { firstLine } from "./output";
import { parseRunRequest } from "./request";
import { runStep, type StepRun } from "./run-step";
import { Semaphore } from "./semaphore";
import {
  type BackendAvailability,
  DEFAULT_TIMEOUT_MS,
  type LimitName,
  OUTPUT_CAP_BYTES,
  type RunOptions,
  type RunRequest,
  type SandboxBackend,
  type SandboxLanguage,
  type SandboxResult,
} from "./types";

export const INSTALL_HINT = "install bubblewrap: npm run sandbox:install";

export type LocalBackendOptions = {
  isUnsafe: boolean;
  concurrency: number;
  memoryLimitMb: number;
  workDir: string | null;
  /** The bubblewrap binary; unset or null looks it up on PATH. */
  bwrapPath?: string | null;
};

export type IsolationStatus = {
  mode: "bubblewrap" | "unsafe" | "refused";
  bwrapPath: string | null;
  prlimitPath: string | null;
  isRoot: boolean;
  /** The user programs run as; null when not root (they run as the current, unprivileged user). */
  user: SandboxUser | null;
  cgroup: CgroupMode;
  /** Why runs are refused; null when they can run. */
  problem: string | null;
};

export type ToolchainStatus = { isFound: boolean; missing: string[] };

/** A raw command run inside the sandbox (doctor, benchmarks). */
export type CommandRun = StepRun & { memoryKb: number | null; limit: LimitName | null };

export type LocalBackend = SandboxBackend & {
  isolation(): Promise<IsolationStatus>;
  toolchain(language: SandboxLanguage): Promise<ToolchainStatus>;
  runCommand(
    argv: readonly string[],
    options?: { timeoutMs?: number; files?: JobFile[]; env?: Record<string, string> },
  ): Promise<CommandRun>;
  toolchainVersion(language: SandboxLanguage): Promise<string | null>;
  /** Drops the cached isolation, toolchain and version probes. */
  forget(): void;
  /** Slots in use, runs waiting for one, and the number of slots. */
  load(): { running: number; queued: number; slots: number };
};

const PROCESS_LIMIT = 512;
// Toolchains change only when someone installs one; re-probe every few minutes.
const TOOLCHAIN_CACHE_MS = 5 * 60_000;
// A failed probe is kept only briefly (the operator is probably installing what was missing), and a
// run probes again anyway (a few file checks), so runs recover without a restart.
const FAILED_PROBE_CACHE_MS = 10_000;
const FILE_SIZE_LIMIT = 256 * 1024 * 1024;
const OPEN_FILES_LIMIT = 4096;
// A run alone (a time-limit retry) is judged by CPU time: each process may use the step's limit in
// CPU seconds, and the wall clock only stops a program that waits or sleeps, at this many limits.
export const ALONE_WALL_FACTOR = 3;

/**
 * A step's limits: the reference's wall clock, or, for a run alone, the same limit as CPU time per
 * process with a generous wall clock, so a machine busy with work outside the sandbox (or a core
 * shared with another process) does not turn a program that fits its limit into a time-out.
 */
export function stepLimits(timeoutMs: number, isAlone: boolean): { timeoutMs: number; cpuSeconds?: number } {
  if (!isAlone) return { timeoutMs };
  return { timeoutMs: timeoutMs * ALONE_WALL_FACTOR, cpuSeconds: Math.ceil(timeoutMs / 1000) };
}

// The gate shell and bubblewrap itself need a PATH; the program's environment is rebuilt by bwrap.
const LAUNCHER_ENV = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" };

/**
 * Rlimits for one step: CPU time allows every core busy for the whole wall-clock timeout, unless
 * `cpuSeconds` sets the program's own budget (a run alone, judged by CPU time).
 */
export function stepRlimits(timeoutMs: number, cpuCount: number, cpuSeconds?: number): Rlimits {
  return {
    cpuSeconds: cpuSeconds ?? Math.ceil(timeoutMs / 1000) * Math.max(1, Math.min(cpuCount, 8)) + 1,
    processes: PROCESS_LIMIT,
    fileSizeBytes: FILE_SIZE_LIMIT,
    openFiles: OPEN_FILES_LIMIT,
  };
}

/** Which limit ended a step, in order of certainty (pure). */
export function limitFired(
  steps: readonly StepRun[],
  stats: { isOomKilled: boolean; isPidsLimitHit: boolean } | null,
): LimitName | null {
  if (steps.some((step) => step.timedOut || step.signal === "SIGXCPU")) return "time";
  if (stats?.isOomKilled) return "memory";
  if (stats?.isPidsLimitHit) return "processes";
  if (steps.some((step) => step.stdoutTruncated || step.stderrTruncated || step.signal === "SIGXFSZ")) {
    return "output";
  }
  return null;
}

function toStepOutcome(step: StepRun): StepOutcome {
  return { exitCode: step.exitCode, timedOut: step.timedOut, stdout: step.stdout, stderr: step.stderr };
}

/** Puts a recipe's note on a reference quirk above the compiler's output. */
function withReferenceNote(note: string | null | undefined, compileOutput: string | null): string | null {
  if (!note) return compileOutput;
  return compileOutput ? `${note}\n${compileOutput}` : note;
}

async function writeJobFiles(jobDir: string, files: readonly JobFile[], owner: SandboxUser | null) {
  for (const file of files) {
    const target = join(jobDir, file.path);
    if (!target.startsWith(`${jobDir}/`)) throw new SandboxError("SANDBOX_FAILED", `bad job file path ${file.path}`);
    const parent = dirname(target);
    await mkdir(parent, { recursive: true });
    await writeFile(target, file.content);
    if (owner) {
      // Own every folder between the job root and the file, then the file.
      for (let dir = parent; dir.startsWith(jobDir); dir = dirname(dir)) {
        await chown(dir, owner.uid, owner.gid);
        if (dir === jobDir) break;
      }
      await chown(target, owner.uid, owner.gid);
    }
  }
}

/** Creates the local (bubblewrap) backend. */
export function createLocalBackend(options: LocalBackendOptions): LocalBackend {
  const semaphore = new Semaphore(options.concurrency);
  const cpuCount = availableParallelism();
  const configuredBwrap = options.bwrapPath ?? null;
  let isolationCache: { checkedAt: number; status: Promise<IsolationStatus> } | null = null;

  async function findBwrap(): Promise<string | null> {
    if (!configuredBwrap) return findOnHost("bwrap");
    return (await isExecutable(configuredBwrap)) ? configuredBwrap : null;
  }

  async function probeIsolation(): Promise<IsolationStatus> {
    const [bwrapPath, prlimitPath, cgroup] = await Promise.all([
      findBwrap(),
      findOnHost("prlimit"),
      detectCgroupMode(),
    ]);
    const isRoot = process.getuid?.() === 0;
    const user = isRoot ? await findSandboxUser() : null;
    let problem: string | null = null;
    let mode: IsolationStatus["mode"] = "bubblewrap";
    if (!bwrapPath) {
      if (options.isUnsafe) mode = "unsafe";
      else if (configuredBwrap) problem = `bubblewrap was not found at ${configuredBwrap} (VERITY_BWRAP)`;
      else
        problem = `bubblewrap (bwrap) is not installed; ${INSTALL_HINT} (or set VERITY_SANDBOX_UNSAFE=1 on a development machine)`;
    } else if (!prlimitPath) {
      problem = "prlimit (util-linux) is not installed; npm run sandbox:install";
    }
    // As root, bubblewrap would keep capabilities inside the sandbox: always drop to the sandbox user.
    if (!problem && isRoot && !user) {
      problem = `the unprivileged user ${SANDBOX_USER} does not exist; npm run sandbox:install`;
    }
    if (problem) mode = "refused";
    return { mode, bwrapPath, prlimitPath, isRoot, user, cgroup, problem };
  }

  /**
   * The isolation status: a working one is kept; a failed one for FAILED_PROBE_CACHE_MS, and not
   * at all with `isRecheck` (before a run).
   */
  async function isolation({ isRecheck = false }: { isRecheck?: boolean } = {}): Promise<IsolationStatus> {
    if (isolationCache) {
      const status = await isolationCache.status;
      if (!status.problem || (!isRecheck && Date.now() - isolationCache.checkedAt < FAILED_PROBE_CACHE_MS))
        return status;
    }
    const fresh = { checkedAt: Date.now(), status: probeIsolation() };
    isolationCache = fresh;
    // A probe that threw is not kept at all.
    fresh.status.catch(() => {
      if (isolationCache === fresh) isolationCache = null;
    });
    return fresh.status;
  }

  async function requireIsolation(): Promise<IsolationStatus> {
    const status = await isolation({ isRecheck: true });
    if (status.problem)
      throw new SandboxError("SANDBOX_UNAVAILABLE", `Local sandbox refused to run: ${status.problem}`);
    return status;
  }

  /** Runs argv steps in one fresh job folder with one job cgroup; always cleans both up. */
  async function runJob(
    status: IsolationStatus,
    files: readonly JobFile[],
    env: Readonly<Record<string, string>>,
    steps: ReadonlyArray<{ argv: readonly string[]; timeoutMs: number; cpuSeconds?: number }>,
    shouldContinue: (step: StepRun) => boolean,
    signal?: AbortSignal,
  ): Promise<{ runs: StepRun[]; memoryKb: number | null; limit: LimitName | null }> {
    const base = options.workDir ?? tmpdir();
    await mkdir(base, { recursive: true });
    const jobDir = await mkdtemp(join(base, "verity-job-"));
    let cgroup: JobCgroup | null = null;
    try {
      await chmod(jobDir, 0o700);
      if (status.user) await chown(jobDir, status.user.uid, status.user.gid);
      await writeJobFiles(jobDir, files, status.user);
      cgroup = await createJobCgroup(status.cgroup, {
        memoryBytes: options.memoryLimitMb * 1024 * 1024,
        pids: PROCESS_LIMIT,
      });
      const [roots, etc] = status.mode === "bubblewrap" ? await Promise.all([systemRoots(), etcPaths()]) : [[], []];
      const runs: StepRun[] = [];
      for (const step of steps) {
        const limits = stepRlimits(step.timeoutMs, cpuCount, step.cpuSeconds);
        const sandboxEnv = baseSandboxEnv(env);
        const isWrapped = status.mode === "bubblewrap";
        const argv = isWrapped
          ? buildBwrapArgv({
              bwrapPath: status.bwrapPath as string,
              prlimitPath: status.prlimitPath as string,
              hostJobDir: jobDir,
              roots,
              etcPaths: etc,
              env: sandboxEnv,
              limits,
              argv: step.argv,
            })
          : status.prlimitPath
            ? prlimitArgv(status.prlimitPath, limits, step.argv)
            : [...step.argv];
        const jobCgroup = cgroup;
        const run = await runStep({
          argv,
          cwd: jobDir,
          env: isWrapped ? LAUNCHER_ENV : rebaseEnv(sandboxEnv, jobDir),
          uid: status.user?.uid,
          gid: status.user?.gid,
          timeoutMs: step.timeoutMs,
          outputCapBytes: OUTPUT_CAP_BYTES,
          beforeStart: jobCgroup ? (pid) => jobCgroup.attach(pid) : undefined,
          onKill: jobCgroup ? () => jobCgroup.destroy() : undefined,
          signal,
        });
        // bubblewrap reports a program killed by signal N as exit code 128+N.
        if (isWrapped && !run.signal) run.signal = signalFromExitCode(run.exitCode, osConstants.signals);
        // Killed for its CPU time: a time-out like the wall clock's.
        if (run.signal === "SIGXCPU") run.timedOut = true;
        if (run.timedOut) run.exitCode = null;
        runs.push(run);
        if (signal?.aborted || !shouldContinue(run)) break;
      }
      const stats = cgroup ? await cgroup.stats() : null;
      return { runs, memoryKb: stats?.memoryPeakKb ?? null, limit: limitFired(runs, stats) };
    } finally {
      await cgroup?.destroy().catch(() => undefined);
      await rm(jobDir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  async function run(input: RunRequest, runOptions: RunOptions = {}): Promise<SandboxResult> {
    const request = parseRunRequest(input);
    const recipe = getRecipe(request.language);
    const spliced = recipe.splice(request.solution, request.test);
    const result: SandboxResult = {
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
    };
    if (spliced.syntaxError) {
      return {
        ...result,
        outcome: recipe.classify({ syntaxError: true, compile: null, run: null }),
        stderr: `Syntax check failed: ${spliced.syntaxError}`,
      };
    }
    const status = await requireIsolation();
    const found = await toolchain(request.language, { isRecheck: true });
    if (!found.isFound) {
      throw new SandboxError(
        "SANDBOX_UNAVAILABLE",
        `${request.language} cannot run locally: toolchain not found in the sandbox (${found.missing.join(", ")}); ` +
          `route it to the acb backend, e.g. VERITY_SANDBOX_ROUTES=${request.language}:acb`,
      );
    }
    const { signal, isExclusive } = runOptions;
    const timeoutMs = stepTimeoutMs(request.language, request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const steps = [recipe.compile, recipe.run]
      .filter((step) => step !== null)
      .map((step) => ({ argv: step.argv, ...stepLimits(timeoutMs, isExclusive === true) }));
    const cancelled = () => new SandboxError("SANDBOX_CANCELLED", "The run was cancelled: its caller went away.");
    const job = await semaphore
      .use(
        () => runJob(status, spliced.files, recipe.env, steps, (step) => !step.timedOut && step.exitCode === 0, signal),
        signal,
        { isExclusive },
      )
      .catch((error: unknown) => {
        throw signal?.aborted ? cancelled() : error;
      });
    if (signal?.aborted) throw cancelled();
    const compileRun = recipe.compile ? (job.runs[0] ?? null) : null;
    const runRun = recipe.compile ? (job.runs[1] ?? null) : (job.runs[0] ?? null);
    const last = runRun ?? compileRun;
    return {
      ...result,
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
        spliced.referenceNote,
        compileRun ? `${compileRun.stdout}${compileRun.stderr}` : null,
      ),
      timeMs: job.runs.reduce((sum, step) => sum + step.wallMs, 0),
      compileMs: compileRun?.wallMs ?? null,
      runMs: runRun?.wallMs ?? null,
      toolchain: await toolchainVersion(request.language),
      memoryKb: job.memoryKb,
      limit: job.limit,
      stdoutTruncated: runRun?.stdoutTruncated ?? false,
      stderrTruncated: runRun?.stderrTruncated ?? false,
    };
  }

  const toolchainCache = new Map<SandboxLanguage, { checkedAt: number; value: ToolchainStatus }>();
  const versionCache = new Map<SandboxLanguage, { checkedAt: number; value: Promise<string | null> }>();

  /**
   * The first line of the toolchain's version command, asked once per TOOLCHAIN_CACHE_MS (stored
   * with each verification run so a result says what it ran on). Null when it cannot be told.
   */
  function toolchainVersion(language: SandboxLanguage): Promise<string | null> {
    const cached = versionCache.get(language);
    if (cached && Date.now() - cached.checkedAt < TOOLCHAIN_CACHE_MS) return cached.value;
    const recipe = getRecipe(language);
    const value = runCommand(recipe.toolchain.version, { timeoutMs: 30_000, env: recipe.env })
      .then((run) => firstLine(`${run.stdout}\n${run.stderr}`))
      .catch(() => null);
    versionCache.set(language, { checkedAt: Date.now(), value });
    return value;
  }

  /** A toolchain probe, cached for minutes when found and briefly when not (see `isolation`). */
  async function toolchain(
    language: SandboxLanguage,
    { isRecheck = false }: { isRecheck?: boolean } = {},
  ): Promise<ToolchainStatus> {
    const cached = toolchainCache.get(language);
    const maxAge = cached?.value.isFound ? TOOLCHAIN_CACHE_MS : isRecheck ? 0 : FAILED_PROBE_CACHE_MS;
    if (cached && Date.now() - cached.checkedAt < maxAge) return cached.value;
    const value = await probeToolchain(language);
    toolchainCache.set(language, { checkedAt: Date.now(), value });
    return value;
  }

  async function probeToolchain(language: SandboxLanguage): Promise<ToolchainStatus> {
    const status = await isolation();
    const recipe = getRecipe(language);
    const missing: string[] = [];
    for (const command of recipe.toolchain.commands) {
      const found = status.mode === "unsafe" ? await findOnHost(command) : await findInSandbox(command);
      if (!found) missing.push(command);
    }
    for (const file of recipe.toolchain.files ?? []) {
      if (!(await isWorldReadable(file))) missing.push(file);
    }
    return { isFound: missing.length === 0, missing };
  }

  async function availability(language: SandboxLanguage): Promise<BackendAvailability> {
    const status = await isolation();
    if (status.problem) return { available: false, reason: status.problem };
    const found = await toolchain(language);
    if (!found.isFound) {
      return { available: false, reason: `toolchain not found in the sandbox: ${found.missing.join(", ")}` };
    }
    return { available: true };
  }

  async function runCommand(
    argv: readonly string[],
    commandOptions: { timeoutMs?: number; files?: JobFile[]; env?: Record<string, string> } = {},
  ): Promise<CommandRun> {
    const status = await requireIsolation();
    const timeoutMs = commandOptions.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const job = await semaphore.use(() =>
      runJob(status, commandOptions.files ?? [], commandOptions.env ?? {}, [{ argv, timeoutMs }], () => false),
    );
    return { ...(job.runs[0] as StepRun), memoryKb: job.memoryKb, limit: job.limit };
  }

  function forget(): void {
    isolationCache = null;
    toolchainCache.clear();
    versionCache.clear();
  }

  return {
    name: "local",
    run,
    availability,
    isolation,
    toolchain,
    toolchainVersion,
    runCommand,
    forget,
    load: () => ({ running: semaphore.inUse, queued: semaphore.queued, slots: options.concurrency }),
  };
}
