import "server-only";

import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";

import { HeadTailBuffer } from "./output";

export type StepSpec = {
  argv: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
  uid?: number;
  gid?: number;
  timeoutMs: number;
  /** Per stream: the first and the last half of this many bytes are kept. */
  outputCapBytes: number;
  /** Aborting it kills the process group at once, like the timeout. */
  signal?: AbortSignal;
  /** Runs after spawn and before the program is released (cgroup attach). */
  beforeStart?: (pid: number) => Promise<void>;
  /** Runs when the step is killed (timeout or abort), next to killing the process group. */
  onKill?: () => Promise<void>;
};

export type StepRun = {
  /**
   * The program itself was started: the launcher inside the sandbox reported it on fd 4 just before
   * exec'ing it (see START_MARK_SCRIPT). False when the isolation layer (bubblewrap, prlimit) failed
   * or was killed before that.
   */
  started: boolean;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  wallMs: number;
  /** CPU time the job spent in this step (set by the local backend where a cgroup accounts it). */
  cpuMs?: number | null;
  /** The step used up its CPU budget (set by the local backend): a time-out by CPU, not the wall clock. */
  isCpuBudgetSpent?: boolean;
};

// A gate: the shell waits on fd 3 until the parent has put it into the job's cgroup, then execs the
// real command, so no user code runs outside the limits.
const GATE_SCRIPT = 'read -r _ <&3; exec 3<&-; exec "$@"';

/** The fd on which the in-sandbox launcher says the program is about to start. */
const START_MARK_FD = 4;

/**
 * Wraps argv so that, once inside every layer of isolation, one byte is written to START_MARK_FD and
 * the fd closed before the program is exec'd: a step without that byte never reached its program
 * (the program cannot fake its absence, since the byte is written before it runs).
 */
export function startMarkedArgv(argv: readonly string[]): string[] {
  return ["/bin/sh", "-c", `printf s >&${START_MARK_FD}; exec ${START_MARK_FD}>&-; exec "$@"`, "sh", ...argv];
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // the group is already gone
  }
}

/**
 * Runs one command in its own process group with a wall-clock timeout that kills the whole group,
 * stdin closed, stdout/stderr capped (head and tail kept), and killed at once when `signal` aborts.
 */
export async function runStep(spec: StepSpec): Promise<StepRun> {
  const child = spawn("/bin/sh", ["-c", GATE_SCRIPT, "sh", ...spec.argv], {
    cwd: spec.cwd,
    env: { ...spec.env } as NodeJS.ProcessEnv,
    uid: spec.uid,
    gid: spec.gid,
    detached: true,
    stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"],
  });
  const half = Math.floor(spec.outputCapBytes / 2);
  const stdout = new HeadTailBuffer(half, spec.outputCapBytes - half);
  const stderr = new HeadTailBuffer(half, spec.outputCapBytes - half);
  child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
  let started = false;
  const startMark = child.stdio[START_MARK_FD] as Readable | null;
  startMark?.on("data", () => (started = true));

  const spawned = new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));

  await spawned;
  const pid = child.pid as number;
  const gate = child.stdio[3] as Writable;
  try {
    await spec.beforeStart?.(pid);
  } catch (error) {
    killGroup(pid);
    await exited;
    throw error;
  }

  const startedAt = performance.now();
  gate.end("go\n");
  let timedOut = false;
  const kill = () => {
    killGroup(pid);
    void spec.onKill?.();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, spec.timeoutMs);
  if (spec.signal?.aborted) kill();
  spec.signal?.addEventListener("abort", kill, { once: true });

  const { code, signal } = await exited;
  const wallMs = Math.round(performance.now() - startedAt);
  clearTimeout(timer);
  spec.signal?.removeEventListener("abort", kill);
  // Anything the program left behind in its group goes too (the pid namespace already takes care of
  // it under bubblewrap; this covers unsafe mode).
  killGroup(pid);
  // Pipes close once the last writer is gone; do not hang on a writer that escaped the group.
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2_000))]);
  child.stdout?.destroy();
  child.stderr?.destroy();
  startMark?.destroy();

  return {
    started,
    exitCode: code,
    signal,
    timedOut,
    stdout: stdout.text(),
    stderr: stderr.text(),
    stdoutTruncated: stdout.isTruncated,
    stderrTruncated: stderr.isTruncated,
    wallMs,
  };
}
