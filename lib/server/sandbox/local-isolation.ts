import "server-only";

import { detectCgroupMode } from "./cgroup";
import { SandboxError } from "./errors";
import { findOnHost, findSandboxUser, isExecutable, SANDBOX_USER, type SandboxUser } from "./host";
import { detectJobFolderMode, removeStaleJobFolders } from "./job-folder";
import type { JobIsolation, JobRunner } from "./local-job";
import type { StepRun } from "./run-step";

const INSTALL_HINT = "install bubblewrap: npm run sandbox:install";

export type IsolationStatus = JobIsolation & {
  isRoot: boolean;
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

export type IsolationProbe = {
  /**
   * The isolation status: a working one is kept; a failed one for FAILED_PROBE_CACHE_MS, and not
   * at all with `isRecheck` (before a run).
   */
  isolation(options?: { isRecheck?: boolean }): Promise<IsolationStatus>;
  /** The isolation status, probed again if it failed; throws the SandboxError a run reports if it fails. */
  requireIsolation(): Promise<IsolationStatus>;
  /** Rethrows a run's error; one whose isolation failed drops the cached "works" first. */
  forgetBrokenIsolation(error: unknown): never;
  /** Drops the cached status. */
  forget(): void;
};

// A failed probe is kept only briefly (the operator is probably installing what was missing), and a
// run probes again anyway (a few file checks), so runs recover without a restart.
export const FAILED_PROBE_CACHE_MS = 10_000;

/** What the isolation probe runs, and what it must print: proof that a program really ran inside. */
const PROBE_ARGV = ["/bin/sh", "-c", "echo verity-sandbox-probe; id -u"];
const PROBE_OUTPUT = /^verity-sandbox-probe\n(\d+)\n$/;
// Generous: on a loaded machine starting bubblewrap can take a while; a hung one fails the probe.
const PROBE_TIMEOUT_MS = 10_000;

/** What keeps runs from starting (pure): a missing bubblewrap (unless unsafe mode), prlimit or sandbox user. */
function missingPiece(found: {
  bwrapPath: string | null;
  prlimitPath: string | null;
  isRoot: boolean;
  user: SandboxUser | null;
  isUnsafe: boolean;
  configuredBwrap: string | null;
}): { mode: IsolationStatus["mode"]; problem: string | null } {
  const { bwrapPath, prlimitPath, isRoot, user, configuredBwrap } = found;
  let problem: string | null = null;
  let mode: IsolationStatus["mode"] = "bubblewrap";
  if (!bwrapPath) {
    if (found.isUnsafe) mode = "unsafe";
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
  return { mode, problem };
}

/** Runs a tiny program through the isolation and checks what it printed and which uid it ran as. */
async function runProbeProgram(
  jobs: JobRunner,
  status: IsolationStatus,
): Promise<{ uid: number } | { problem: string }> {
  try {
    const job = await jobs.runJob(status, [], {}, [{ argv: PROBE_ARGV, timeoutMs: PROBE_TIMEOUT_MS }], () => false);
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
 * Creates the local backend's isolation probe: which of bubblewrap, prlimit, the sandbox user, job
 * cgroups and job-folder caps this host has, proven by a test program run through them.
 */
export function createIsolationProbe(options: {
  isUnsafe: boolean;
  /** The bubblewrap binary; null looks it up on PATH. */
  bwrapPath: string | null;
  cgroupParent: string | null;
  jobFolderBytes: number;
  jobs: JobRunner;
}): IsolationProbe {
  const { jobs } = options;
  const configuredBwrap = options.bwrapPath;
  let isolationCache: { checkedAt: number; status: Promise<IsolationStatus> } | null = null;
  // Once per backend: job folders that a killed process left mounted are cleaned up.
  let hasRemovedStaleFolders = false;

  async function findBwrap(): Promise<string | null> {
    if (!configuredBwrap) return findOnHost("bwrap");
    return (await isExecutable(configuredBwrap)) ? configuredBwrap : null;
  }

  async function probeIsolation(): Promise<IsolationStatus> {
    const isRoot = process.getuid?.() === 0;
    const [bwrapPath, prlimitPath, cgroup, jobFolder] = await Promise.all([
      findBwrap(),
      findOnHost("prlimit"),
      detectCgroupMode(options.cgroupParent),
      jobs.jobBase().then((base) => detectJobFolderMode({ isRoot, sizeBytes: options.jobFolderBytes, base })),
    ]);
    const user = isRoot ? await findSandboxUser() : null;
    if (!hasRemovedStaleFolders) {
      hasRemovedStaleFolders = true;
      await removeStaleJobFolders(jobFolder, await jobs.jobBase());
    }
    const { mode, problem } = missingPiece({
      bwrapPath,
      prlimitPath,
      isRoot,
      user,
      isUnsafe: options.isUnsafe,
      configuredBwrap,
    });
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
    const probe = await runProbeProgram(jobs, status);
    if ("problem" in probe) return { ...status, mode: "refused", problem: probe.problem, isBroken: true };
    return { ...status, programUid: probe.uid };
  }

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

  function forgetBrokenIsolation(error: unknown): never {
    if (error instanceof SandboxError && error.code === "SANDBOX_ISOLATION_FAILED") isolationCache = null;
    throw error;
  }

  return {
    isolation,
    requireIsolation,
    forgetBrokenIsolation,
    forget: () => {
      isolationCache = null;
    },
  };
}
