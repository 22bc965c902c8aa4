import "server-only";

import { constants as osConstants, availableParallelism, loadavg, tmpdir } from "node:os";
import { chown, mkdir, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

import { DEFAULT_JOB_FOLDER_MB } from "./config";
import { type CgroupMode, createJobCgroup, detectCgroupMode, type JobCgroup } from "./cgroup";
import { ENVIRONMENT_MOUNT, withEnvironment } from "./environment";
import { SandboxError } from "./errors";
import {
  etcPaths,
  existingPaths,
  findInSandbox,
  findOnHost,
  findSandboxUser,
  isExecutable,
  isWorldReadable,
  SANDBOX_USER,
  type SandboxUser,
  systemRoots,
} from "./host";
import {
  baseSandboxEnv,
  buildBwrapArgv,
  HIDDEN_SYSTEM_PATHS,
  prlimitArgv,
  rebaseEnv,
  type RootEntry,
  type Rlimits,
  signalFromExitCode,
} from "./isolation";
import {
  createJobRootPool,
  detectJobFolderMode,
  isJobFolderFull,
  type JobFolderMode,
  removeStaleJobFolders,
} from "./job-folder";
import { getRecipe, stepTimeoutMs, type JobFile, type StepOutcome } from "./recipes";
import { recipeFor } from "./recipes/profiles";
import { firstLine } from "./output";
import { parseRunRequest } from "./request";
import { runStep, startMarkedArgv, type StepRun } from "./run-step";
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

const INSTALL_HINT = "install bubblewrap: npm run sandbox:install";

export type LocalBackendOptions = {
  isUnsafe: boolean;
  concurrency: number;
  memoryLimitMb: number;
  workDir: string | null;
  /** The size cap of one run's job folder (its files and /tmp together), in MiB; default 256. */
  jobFolderMb?: number;
  /** The bubblewrap binary; unset or null looks it up on PATH. */
  bwrapPath?: string | null;
  /** The cgroup v2 folder job cgroups go under; unset or null is this process's own cgroup. */
  cgroupParent?: string | null;
};

type IsolationStatus = {
  mode: "bubblewrap" | "unsafe" | "refused";
  bwrapPath: string | null;
  prlimitPath: string | null;
  isRoot: boolean;
  /** The user programs run as; null when not root (they run as the current, unprivileged user). */
  user: SandboxUser | null;
  cgroup: CgroupMode;
  /** How a job folder's size is capped. */
  jobFolder: JobFolderMode;
  /** Why runs are refused; null when they can run. */
  problem: string | null;
  /**
   * True when everything is installed but a test program could not be started through the
   * isolation (bubblewrap exits with an error): a sandbox error, not a missing piece.
   */
  isBroken: boolean;
  /** The uid the probe program ran as inside the sandbox; null when it did not run. */
  programUid: number | null;
};

type ToolchainStatus = { isFound: boolean; missing: string[] };

/** A raw command run inside the sandbox (doctor, benchmarks). */
type CommandRun = StepRun & { memoryKb: number | null; limit: LimitName | null };

/** What the isolation probe runs, and what it must print: proof that a program really ran inside. */
const PROBE_ARGV = ["/bin/sh", "-c", "echo verity-sandbox-probe; id -u"];
const PROBE_OUTPUT = /^verity-sandbox-probe\n(\d+)\n$/;
// Generous: on a loaded machine starting bubblewrap can take a while; a hung one fails the probe.
const PROBE_TIMEOUT_MS = 10_000;

/** Why a step never reached its program, from what the isolation layer printed (pure). */
export function isolationFailure(step: StepRun): string {
  const said = step.stderr.trim() || step.stdout.trim();
  const how = step.timedOut
    ? `it did not start the program within ${step.wallMs} ms`
    : step.signal
      ? `it was killed by ${step.signal}`
      : `it exited with code ${step.exitCode}`;
  return `bubblewrap could not start the program (${how})${said ? `: ${said.slice(0, 500)}` : ""}`;
}

export type LocalBackend = SandboxBackend & {
  isolation(options?: { isRecheck?: boolean }): Promise<IsolationStatus>;
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
// The host folders every run binds; they change when a package is installed, not between runs.
const HOST_LAYOUT_CACHE_MS = 60_000;
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
  isJobFolderFull = false,
): LimitName | null {
  if (steps.some((step) => step.timedOut || step.signal === "SIGXCPU")) return "time";
  if (stats?.isOomKilled) return "memory";
  if (stats?.isPidsLimitHit) return "processes";
  if (
    isJobFolderFull ||
    steps.some((step) => step.stdoutTruncated || step.stderrTruncated || step.signal === "SIGXFSZ")
  ) {
    return "output";
  }
  return null;
}

/**
 * The kernel's CPU-limit clock runs ahead of the CPU time it reports when the machine is busy: a
 * program killed by SIGXCPU at a 2 s limit had 1.62–1.88 s on its cgroup and in its own rusage, at a
 * load of 14 on 2 cores. A failed step that used this share of its budget is taken to have used it all.
 */
export const CPU_ACCOUNTING_SLACK = 0.75;

/**
 * Whether a step that failed was ended by its CPU budget (pure). SIGXCPU at the soft limit says so
 * itself; a runtime that ignores SIGXCPU (Go) dies of SIGKILL at the hard limit, and a test runner
 * whose child hit the limit exits with a code of its own. For those two, the CPU time the job spent
 * in the step tells: a step that used its whole budget was stopped by it.
 */
export function isCpuBudgetSpent(step: StepRun, cpuMs: number | null, cpuSeconds: number): boolean {
  if (step.signal === "SIGXCPU") return true;
  if (step.exitCode === 0 && !step.signal) return false;
  return cpuMs !== null && cpuMs >= cpuSeconds * 1000 * CPU_ACCOUNTING_SLACK;
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
async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (found) => found.isDirectory(),
    () => false,
  );
}

export function createLocalBackend(options: LocalBackendOptions): LocalBackend {
  const semaphore = new Semaphore(options.concurrency);
  const cpuCount = availableParallelism();
  const configuredBwrap = options.bwrapPath ?? null;
  const jobFolderBytes = (options.jobFolderMb ?? DEFAULT_JOB_FOLDER_MB) * 1024 * 1024;
  let isolationCache: { checkedAt: number; status: Promise<IsolationStatus> } | null = null;
  // Once per backend: job folders that a killed process left mounted are cleaned up.
  let hasRemovedStaleFolders = false;
  // Mounted job roots reused between runs: one per slot is all that can be busy at once.
  const jobRoots = createJobRootPool(options.concurrency);

  async function findBwrap(): Promise<string | null> {
    if (!configuredBwrap) return findOnHost("bwrap");
    return (await isExecutable(configuredBwrap)) ? configuredBwrap : null;
  }

  async function probeIsolation(): Promise<IsolationStatus> {
    const isRoot = process.getuid?.() === 0;
    const [bwrapPath, prlimitPath, cgroup, jobFolder] = await Promise.all([
      findBwrap(),
      findOnHost("prlimit"),
      detectCgroupMode(options.cgroupParent ?? null),
      jobBase().then((base) => detectJobFolderMode({ isRoot, sizeBytes: jobFolderBytes, base })),
    ]);
    const user = isRoot ? await findSandboxUser() : null;
    if (!hasRemovedStaleFolders) {
      hasRemovedStaleFolders = true;
      await removeStaleJobFolders(jobFolder, await jobBase());
    }
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
    const status: IsolationStatus = {
      mode,
      bwrapPath,
      prlimitPath,
      isRoot,
      user,
      cgroup,
      jobFolder,
      problem,
      isBroken: false,
      programUid: null,
    };
    if (problem) return status;
    // Everything is installed; only a program that really ran inside proves the isolation works.
    const probe = await runProbeProgram(status);
    if ("problem" in probe) return { ...status, mode: "refused", problem: probe.problem, isBroken: true };
    return { ...status, programUid: probe.uid };
  }

  /** Runs a tiny program through the isolation and checks what it printed and which uid it ran as. */
  async function runProbeProgram(status: IsolationStatus): Promise<{ uid: number } | { problem: string }> {
    try {
      const job = await runJob(status, [], {}, [{ argv: PROBE_ARGV, timeoutMs: PROBE_TIMEOUT_MS }], () => false);
      const run = job.runs[0] as StepRun;
      const printed = PROBE_OUTPUT.exec(run.stdout);
      if (run.exitCode !== 0 || !printed) {
        const said = (run.stderr || run.stdout).trim().slice(0, 500);
        return {
          problem: `a test program failed inside the sandbox (exit code ${run.exitCode})${said ? `: ${said}` : ""}`,
        };
      }
      const uid = Number(printed[1]);
      if (status.isRoot && uid === 0) return { problem: "programs run as root inside the sandbox" };
      return { uid };
    } catch (error) {
      return { problem: (error as Error).message };
    }
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
    if (status.problem) {
      throw new SandboxError(
        status.isBroken ? "SANDBOX_ISOLATION_FAILED" : "SANDBOX_UNAVAILABLE",
        `Local sandbox refused to run: ${status.problem}`,
      );
    }
    return status;
  }

  /** A run whose isolation failed drops the cached "works": the next run probes again. */
  function forgetBrokenIsolation(error: unknown): never {
    if (error instanceof SandboxError && error.code === "SANDBOX_ISOLATION_FAILED") isolationCache = null;
    throw error;
  }

  async function jobBase(): Promise<string> {
    const base = options.workDir ?? tmpdir();
    await mkdir(base, { recursive: true });
    return base;
  }

  let layoutCache: { checkedAt: number; value: Promise<[RootEntry[], string[], string[]]> } | null = null;

  /**
   * What of the host each run binds (the /bin, /lib* links, the /etc allow-list, the hidden paths):
   * dozens of lstat calls, looked up again once a minute rather than for every run.
   */
  function hostLayout(): Promise<[RootEntry[], string[], string[]]> {
    if (layoutCache && Date.now() - layoutCache.checkedAt < HOST_LAYOUT_CACHE_MS) return layoutCache.value;
    const value = Promise.all([systemRoots(), etcPaths(), existingPaths(HIDDEN_SYSTEM_PATHS)]);
    layoutCache = { checkedAt: Date.now(), value };
    value.catch(() => (layoutCache = null));
    return value;
  }

  /** Runs argv steps in one fresh job folder with one job cgroup; always cleans both up. */
  async function runJob(
    status: IsolationStatus,
    files: readonly JobFile[],
    env: Readonly<Record<string, string>>,
    steps: ReadonlyArray<{ argv: readonly string[]; timeoutMs: number; cpuSeconds?: number }>,
    shouldContinue: (step: StepRun) => boolean,
    signal?: AbortSignal,
    environmentDir?: string,
  ): Promise<{ runs: StepRun[]; memoryKb: number | null; limit: LimitName | null }> {
    // The job root holds the program's files (/job) and its /tmp, so one size cap bounds both.
    const jobRoot = await jobRoots.acquire(status.jobFolder, await jobBase(), status.user);
    const jobDir = join(jobRoot, "job");
    const tmpDir = join(jobRoot, "tmp");
    let cgroup: JobCgroup | null = null;
    try {
      for (const dir of [jobDir, tmpDir]) {
        await mkdir(dir, { mode: 0o700 });
        if (status.user) await chown(dir, status.user.uid, status.user.gid);
      }
      await writeJobFiles(jobDir, files, status.user);
      cgroup = await createJobCgroup(status.cgroup, {
        memoryBytes: options.memoryLimitMb * 1024 * 1024,
        pids: PROCESS_LIMIT,
      });
      const [roots, etc, hiddenPaths] = status.mode === "bubblewrap" ? await hostLayout() : [[], [], []];
      const runs: StepRun[] = [];
      for (const step of steps) {
        const limits = stepRlimits(step.timeoutMs, cpuCount, step.cpuSeconds);
        const sandboxEnv = baseSandboxEnv(env);
        const isWrapped = status.mode === "bubblewrap";
        const program = startMarkedArgv(step.argv);
        const argv = isWrapped
          ? buildBwrapArgv({
              bwrapPath: status.bwrapPath as string,
              prlimitPath: status.prlimitPath as string,
              hostJobDir: jobDir,
              roots,
              etcPaths: etc,
              hiddenPaths,
              tmp: status.jobFolder.kind === "tmpfs" ? { hostDir: tmpDir } : { sizeBytes: jobFolderBytes },
              readOnlyBinds: environmentDir ? [{ hostPath: environmentDir, sandboxPath: ENVIRONMENT_MOUNT }] : [],
              env: sandboxEnv,
              limits,
              argv: program,
            })
          : status.prlimitPath
            ? prlimitArgv(status.prlimitPath, limits, program)
            : program;
        const jobCgroup = cgroup;
        const cpuBeforeMs = (await jobCgroup?.cpuUsageMs()) ?? null;
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
        // Nothing ran: bubblewrap (or prlimit) failed before the program. That says nothing about
        // the program, so it is no outcome at all.
        if (!run.started && !signal?.aborted) throw new SandboxError("SANDBOX_ISOLATION_FAILED", isolationFailure(run));
        // bubblewrap reports a program killed by signal N as exit code 128+N.
        if (isWrapped && !run.signal) run.signal = signalFromExitCode(run.exitCode, osConstants.signals);
        // Stopped at its CPU budget: a time-out like the wall clock's, whatever signal ended it (an
        // out-of-memory kill that happened to come late is still the memory limit's).
        const cpuAfterMs = (await jobCgroup?.cpuUsageMs()) ?? null;
        const cpuMs = cpuBeforeMs !== null && cpuAfterMs !== null ? cpuAfterMs - cpuBeforeMs : null;
        run.cpuMs = cpuMs;
        if (
          !run.timedOut &&
          isCpuBudgetSpent(run, cpuMs, limits.cpuSeconds) &&
          !(run.signal !== "SIGXCPU" && (await jobCgroup?.stats())?.isOomKilled)
        ) {
          run.timedOut = true;
          run.isCpuBudgetSpent = true;
        }
        if (run.timedOut) run.exitCode = null;
        runs.push(run);
        if (signal?.aborted || !shouldContinue(run)) break;
      }
      const stats = cgroup ? await cgroup.stats() : null;
      const isFull = await isJobFolderFull(status.jobFolder, jobRoot);
      return { runs, memoryKb: stats?.memoryPeakKb ?? null, limit: limitFired(runs, stats, isFull) };
    } finally {
      // The job root first (emptied for the next run, or removed): its tmpfs pages are charged to
      // the job cgroup, which is then removed empty.
      await jobRoots.release(jobRoot);
      await cgroup?.destroy().catch(() => undefined);
    }
  }

  async function run(input: RunRequest, runOptions: RunOptions = {}): Promise<SandboxResult> {
    const request = parseRunRequest(input);
    const baseRecipe = recipeFor(request.language, request.profile);
    const spliced = baseRecipe.splice(request.solution, request.test);
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
      environmentVersion: request.environment?.version ?? null,
    };
    if (spliced.syntaxError) {
      return {
        ...result,
        outcome: baseRecipe.classify({ syntaxError: true, compile: null, run: null }),
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
    const environment = request.environment ?? null;
    if (environment && !(await isFolder(environment.hostDir))) {
      throw new SandboxError(
        "SANDBOX_UNAVAILABLE",
        `the dataset environment version ${environment.version} is missing at ${environment.hostDir}; build it again`,
      );
    }
    // Inside bubblewrap the environment is at /env; unwrapped (unsafe mode) programs read the host folder.
    const recipe = withEnvironment(
      baseRecipe,
      environment,
      status.mode === "bubblewrap" ? ENVIRONMENT_MOUNT : (environment?.hostDir ?? ENVIRONMENT_MOUNT),
    );
    const { signal, isExclusive, isJudgedByCpuTime } = runOptions;
    const timeoutMs = stepTimeoutMs(request.language, request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const steps = [recipe.compile, recipe.run]
      .filter((step) => step !== null)
      .map((step) => ({
        argv: step.argv,
        ...stepLimits(timeoutMs, isExclusive === true || isJudgedByCpuTime === true),
      }));
    const cancelled = () => new SandboxError("SANDBOX_CANCELLED", "The run was cancelled: its caller went away.");
    const queuedAt = performance.now();
    let waitMs = 0;
    const job = await semaphore
      .use(
        () => {
          waitMs = Math.round(performance.now() - queuedAt);
          return runJob(
            status,
            spliced.files,
            recipe.env,
            steps,
            (step) => !step.timedOut && step.exitCode === 0,
            signal,
            environment?.hostDir,
          );
        },
        signal,
        { isExclusive },
      )
      .catch((error: unknown) => forgetBrokenIsolation(signal?.aborted ? cancelled() : error));
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
      cpuMs: last?.cpuMs ?? null,
      timedOutBy: last?.timedOut ? (last.isCpuBudgetSpent ? "cpu" : "wall") : null,
      waitMs,
      loadAverage: Math.round(loadavg()[0] * 100) / 100,
      verdictNote: null,
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
    const job = await semaphore
      .use(() =>
        runJob(status, commandOptions.files ?? [], commandOptions.env ?? {}, [{ argv, timeoutMs }], () => false),
      )
      .catch(forgetBrokenIsolation);
    return { ...(job.runs[0] as StepRun), memoryKb: job.memoryKb, limit: job.limit };
  }

  function forget(): void {
    isolationCache = null;
    layoutCache = null;
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
