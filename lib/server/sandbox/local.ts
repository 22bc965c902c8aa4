import "server-only";

import { DEFAULT_JOB_FOLDER_MB } from "./config";
import { createIsolationProbe, type IsolationStatus } from "./local-isolation";
import { createJobRunner } from "./local-job";
import { runLocally, runSwitchedLocally } from "./local-run";
import { createToolchainProbe, type ToolchainStatus } from "./local-toolchain";
import type { JobFile } from "./recipes";
import type { StepRun } from "./run-step";
import { Semaphore } from "./semaphore";
import {
  type BackendAvailability,
  DEFAULT_TIMEOUT_MS,
  type LimitName,
  type RunOptions,
  type RunRequest,
  type SandboxBackend,
  type SandboxLanguage,
  type SwitchedRun,
} from "./types";

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

/** A raw command run inside the sandbox (doctor, benchmarks). */
type CommandRun = StepRun & { memoryKb: number | null; limit: LimitName | null };

export type LocalBackend = SandboxBackend & {
  /** One program compiled once and run once per set of variables (local-run.ts); null: the language cannot. */
  runSwitched(
    request: RunRequest,
    variables: readonly Readonly<Record<string, string>>[],
    options?: RunOptions,
  ): Promise<SwitchedRun | null>;
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

/**
 * Creates the local (bubblewrap) backend: its isolation probe (local-isolation.ts), its toolchain
 * probe (local-toolchain.ts), its job runner (local-job.ts) and record runs (local-run.ts), sharing
 * `concurrency` slots.
 */
export function createLocalBackend(options: LocalBackendOptions): LocalBackend {
  const semaphore = new Semaphore(options.concurrency);
  const jobFolderBytes = (options.jobFolderMb ?? DEFAULT_JOB_FOLDER_MB) * 1024 * 1024;
  const jobs = createJobRunner({
    concurrency: options.concurrency,
    memoryLimitMb: options.memoryLimitMb,
    workDir: options.workDir,
    jobFolderBytes,
  });
  const isolation = createIsolationProbe({
    isUnsafe: options.isUnsafe,
    bwrapPath: options.bwrapPath ?? null,
    cgroupParent: options.cgroupParent ?? null,
    jobFolderBytes,
    jobs,
  });

  async function runCommand(
    argv: readonly string[],
    commandOptions: { timeoutMs?: number; files?: JobFile[]; env?: Record<string, string> } = {},
  ): Promise<CommandRun> {
    const status = await isolation.requireIsolation();
    const timeoutMs = commandOptions.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const job = await semaphore
      .use(() =>
        jobs.runJob(status, commandOptions.files ?? [], commandOptions.env ?? {}, [{ argv, timeoutMs }], () => false),
      )
      .catch(isolation.forgetBrokenIsolation);
    return { ...(job.runs[0] as StepRun), memoryKb: job.memoryKb, limit: job.limit };
  }

  const toolchains = createToolchainProbe({ isolation: isolation.isolation, runCommand });

  async function availability(language: SandboxLanguage): Promise<BackendAvailability> {
    const status = await isolation.isolation();
    if (status.problem) return { available: false, reason: status.problem };
    const found = await toolchains.toolchain(language);
    if (!found.isFound) {
      return { available: false, reason: `toolchain not found in the sandbox: ${found.missing.join(", ")}` };
    }
    return { available: true };
  }

  return {
    name: "local",
    run: (input, runOptions) => runLocally({ isolation, toolchains, jobs, semaphore }, input, runOptions),
    runSwitched: (input, variables, runOptions) =>
      runSwitchedLocally({ isolation, toolchains, jobs, semaphore }, input, variables, runOptions),
    availability,
    isolation: isolation.isolation,
    toolchain: toolchains.toolchain,
    toolchainVersion: toolchains.toolchainVersion,
    runCommand,
    forget: () => {
      isolation.forget();
      jobs.forget();
      toolchains.forget();
    },
    load: () => ({ running: semaphore.inUse, queued: semaphore.queued, slots: options.concurrency }),
  };
}
