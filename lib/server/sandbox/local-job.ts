import "server-only";

import { constants as osConstants, availableParallelism, tmpdir } from "node:os";
import { chown, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

import { type CgroupMode, createJobCgroup, type JobCgroup } from "./cgroup";
import { ENVIRONMENT_MOUNT } from "./environment";
import { SandboxError } from "./errors";
import { etcPaths, existingPaths, type SandboxUser, systemRoots } from "./host";
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
import { createJobRootPool, isJobFolderFull, type JobFolderMode } from "./job-folder";
import type { JobFile } from "./recipes";
import { runStep, startMarkedArgv, type StepRun } from "./run-step";
import { type LimitName, OUTPUT_CAP_BYTES } from "./types";

/** What a job needs of the isolation probe's answer: how to wrap, whom to run as, what caps it. */
export type JobIsolation = {
  mode: "bubblewrap" | "unsafe" | "refused";
  bwrapPath: string | null;
  prlimitPath: string | null;
  /** The user programs run as; null when not root (they run as the current, unprivileged user). */
  user: SandboxUser | null;
  cgroup: CgroupMode;
  /** How a job folder's size is capped. */
  jobFolder: JobFolderMode;
};

/**
 * One argv step of a job, with its wall clock, (for a run alone) its CPU budget, and variables of its
 * own over the job's (a switched program's runs each name their mutant).
 */
type JobStep = {
  argv: readonly string[];
  timeoutMs: number;
  cpuSeconds?: number;
  env?: Readonly<Record<string, string>>;
};

export type JobResult = { runs: StepRun[]; memoryKb: number | null; limit: LimitName | null };

export type JobRunner = {
  /** Runs argv steps in one fresh job folder with one job cgroup; always cleans both up. */
  runJob(
    status: JobIsolation,
    files: readonly JobFile[],
    env: Readonly<Record<string, string>>,
    steps: readonly JobStep[],
    shouldContinue: (step: StepRun) => boolean,
    signal?: AbortSignal,
    environmentDir?: string,
    /** Reads what the steps left in the job folder, before the folder is emptied. */
    collect?: (jobDir: string) => Promise<void>,
  ): Promise<JobResult>;
  /** The folder job folders go under (created if missing). */
  jobBase(): Promise<string>;
  /** Drops the cached host layout. */
  forget(): void;
};

const PROCESS_LIMIT = 512;
// The host folders every run binds; they change when a package is installed, not between runs.
const HOST_LAYOUT_CACHE_MS = 60_000;
const FILE_SIZE_LIMIT = 256 * 1024 * 1024;
const OPEN_FILES_LIMIT = 4096;
// A run alone (a time-limit retry) is judged by CPU time: each process may use the step's limit in
// CPU seconds, and the wall clock only stops a program that waits or sleeps, at this many limits.
export const ALONE_WALL_FACTOR = 3;

// The gate shell and bubblewrap itself need a PATH; the program's environment is rebuilt by bwrap.
const LAUNCHER_ENV = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" };

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

/**
 * A step's limits: the reference's wall clock, or, for a run alone, the same limit as CPU time per
 * process with a generous wall clock, so a machine busy with work outside the sandbox (or a core
 * shared with another process) does not turn a program that fits its limit into a time-out.
 */
export function stepLimits(timeoutMs: number, isAlone: boolean): { timeoutMs: number; cpuSeconds?: number } {
  if (!isAlone) return { timeoutMs };
  return { timeoutMs: timeoutMs * ALONE_WALL_FACTOR, cpuSeconds: Math.ceil(timeoutMs / 1000) };
}

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

type HostLayout = [RootEntry[], string[], string[]];

/** Where one job's step runs: its folders, what of the host it binds, its cgroup. */
type StepPlace = {
  status: JobIsolation;
  cpuCount: number;
  jobFolderBytes: number;
  jobDir: string;
  tmpDir: string;
  layout: HostLayout;
  env: Readonly<Record<string, string>>;
  cgroup: JobCgroup | null;
  environmentDir?: string;
  signal?: AbortSignal;
};

/**
 * What of the host each run binds (the /bin, /lib* links, the /etc allow-list, the hidden paths):
 * dozens of lstat calls, looked up again once a minute rather than for every run.
 */
function createHostLayoutCache(): { get(): Promise<HostLayout>; forget(): void } {
  let layoutCache: { checkedAt: number; value: Promise<HostLayout> } | null = null;
  return {
    get() {
      if (layoutCache && Date.now() - layoutCache.checkedAt < HOST_LAYOUT_CACHE_MS) return layoutCache.value;
      const value = Promise.all([systemRoots(), etcPaths(), existingPaths(HIDDEN_SYSTEM_PATHS)]);
      layoutCache = { checkedAt: Date.now(), value };
      value.catch(() => (layoutCache = null));
      return value;
    },
    forget() {
      layoutCache = null;
    },
  };
}

/** One step, wrapped in the isolation and measured against its limits. */
async function runJobStep(step: JobStep, place: StepPlace): Promise<StepRun> {
  const { status, jobDir, tmpDir, cgroup: jobCgroup, signal } = place;
  const [roots, etc, hiddenPaths] = place.layout;
  const limits = stepRlimits(step.timeoutMs, place.cpuCount, step.cpuSeconds);
  const sandboxEnv = baseSandboxEnv(step.env ? { ...place.env, ...step.env } : place.env);
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
        tmp: status.jobFolder.kind === "tmpfs" ? { hostDir: tmpDir } : { sizeBytes: place.jobFolderBytes },
        readOnlyBinds: place.environmentDir ? [{ hostPath: place.environmentDir, sandboxPath: ENVIRONMENT_MOUNT }] : [],
        env: sandboxEnv,
        limits,
        argv: program,
      })
    : status.prlimitPath
      ? prlimitArgv(status.prlimitPath, limits, program)
      : program;
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
  return run;
}

/**
 * Creates what runs a backend's jobs: a pool of mounted job roots (one per slot is all that can be
 * busy at once), the host layout every run binds, and the limits each step runs under.
 */
export function createJobRunner(options: {
  concurrency: number;
  memoryLimitMb: number;
  workDir: string | null;
  jobFolderBytes: number;
}): JobRunner {
  const cpuCount = availableParallelism();
  const jobRoots = createJobRootPool(options.concurrency);
  const hostLayout = createHostLayoutCache();

  async function jobBase(): Promise<string> {
    const base = options.workDir ?? tmpdir();
    await mkdir(base, { recursive: true });
    return base;
  }

  async function runJob(
    status: JobIsolation,
    files: readonly JobFile[],
    env: Readonly<Record<string, string>>,
    steps: readonly JobStep[],
    shouldContinue: (step: StepRun) => boolean,
    signal?: AbortSignal,
    environmentDir?: string,
    collect?: (jobDir: string) => Promise<void>,
  ): Promise<JobResult> {
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
      const layout: HostLayout = status.mode === "bubblewrap" ? await hostLayout.get() : [[], [], []];
      const place: StepPlace = {
        status,
        cpuCount,
        jobFolderBytes: options.jobFolderBytes,
        jobDir,
        tmpDir,
        layout,
        env,
        cgroup,
        environmentDir,
        signal,
      };
      const runs: StepRun[] = [];
      for (const step of steps) {
        const run = await runJobStep(step, place);
        runs.push(run);
        if (signal?.aborted || !shouldContinue(run)) break;
      }
      if (collect && !signal?.aborted) await collect(jobDir);
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

  return {
    runJob,
    jobBase,
    forget: hostLayout.forget,
  };
}
