import "server-only";

import { readFile, stat } from "node:fs/promises";
import { constants as osConstants } from "node:os";
import { join } from "node:path";

import { signalFromExitCode } from "./isolation";
import type { StepRun } from "./run-step";

// One compiled program run many times in ONE sandboxed step: a shell loop inside the sandbox starts
// each run as a fresh process with its own variables, its own wall clock (coreutils `timeout`) and
// its own output files, and after each run kills every process the run left behind (`kill -9 -1`
// inside the job's own pid namespace), so the next run starts as it would in a step of its own.
// What a step costs besides its program (bubblewrap, limits, the cgroup's accounting: 50–100 ms)
// is paid once for all the runs instead of once each. A run the loop cannot judge exactly as a step
// of its own would — stopped at or near its time limit, killed, over the output cap — comes back
// unjudged (null), and its caller runs it as a step of its own. Bubblewrap only: outside a pid
// namespace `kill -1` would reach the host's processes.

/** The loop's script, its results folder and the files in it (inside the job folder). */
export const LOOP_SCRIPT = ".verity-loop.sh";
const RESULTS_DIR = ".verity-runs";
const STATUS_FILE = "status";

/** A failing run that used this share of its CPU budget may have been stopped by it: not judged here. */
const CPU_SHARE_UNJUDGED = 0.75;
/** A run that took this share of its wall clock or more is too near its time limit to be judged here. */
const WALL_SHARE_UNJUDGED = 0.9;
/**
 * Exit statuses the loop cannot tell from a limit or from its own wrapper: SIGKILL (the wall clock,
 * the memory limit), SIGXCPU (the CPU budget), SIGXFSZ (the file size cap), and `timeout`'s own
 * failures (125–127).
 */
const UNJUDGED_STATUSES = new Set([125, 126, 127, 128 + 9, 128 + 24, 128 + 25]);

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The loop's shell script (pure): each run of `argv` with its own variables, stdin closed, stdout and
 * stderr to files of its own, stopped by `timeoutMs` of wall clock; after it, every process left in
 * the sandbox is killed and one status line written: index, exit status, start and end (seconds
 * since boot, /proc/uptime, read without starting a process).
 */
export function loopScript(
  argv: readonly string[],
  runs: readonly Readonly<Record<string, string>>[],
  timeoutMs: number,
): string {
  const command = argv.map(quote).join(" ");
  const lines = [
    "# Written by Verity: one program run once per line below, each as a process of its own.",
    `mkdir -p ${RESULTS_DIR} || exit 1`,
    "verity_run() {",
    "  n=$1; shift",
    "  read -r s _ < /proc/uptime",
    `  env "$@" timeout -s KILL ${(timeoutMs / 1000).toFixed(3)} ${command} < /dev/null > ${RESULTS_DIR}/$n.out 2> ${RESULTS_DIR}/$n.err`,
    "  rc=$?",
    "  read -r e _ < /proc/uptime",
    "  kill -9 -1 2> /dev/null",
    `  echo "$n $rc $s $e" >> ${RESULTS_DIR}/${STATUS_FILE}`,
    "}",
    ...runs.map(
      (env, index) =>
        `verity_run ${index}${Object.entries(env)
          .map(([name, value]) => ` ${quote(`${name}=${value}`)}`)
          .join("")}`,
    ),
    "exit 0",
  ];
  return `${lines.join("\n")}\n`;
}

type LoopStatus = { index: number; exitCode: number; wallMs: number };

/** The loop's status lines (pure); malformed lines are left out (their runs count as unjudged). */
export function parseLoopStatus(text: string): LoopStatus[] {
  const found: LoopStatus[] = [];
  for (const line of text.split("\n")) {
    const match = /^(\d+) (\d+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/.exec(line.trim());
    if (!match) continue;
    found.push({
      index: Number(match[1]),
      exitCode: Number(match[2]),
      wallMs: Math.max(0, Math.round((Number(match[4]) - Number(match[3])) * 1000)),
    });
  }
  return found;
}

/**
 * Whether the loop judged a run as a step of its own would (pure): it ended by itself, well inside
 * its wall clock, and, if it failed, with too little time to have spent its CPU budget on the cores
 * there are (so no limit of the step's can have ended it).
 */
export function isJudgedInLoop(
  status: LoopStatus,
  limits: { timeoutMs: number; cpuSeconds: number; cpuCount: number },
): boolean {
  if (UNJUDGED_STATUSES.has(status.exitCode)) return false;
  if (status.wallMs >= limits.timeoutMs * WALL_SHARE_UNJUDGED) return false;
  const mostCpuMs = status.wallMs * limits.cpuCount;
  return status.exitCode === 0 || mostCpuMs < limits.cpuSeconds * 1000 * CPU_SHARE_UNJUDGED;
}

async function sizeOf(path: string): Promise<number | null> {
  return stat(path).then(
    (found) => found.size,
    () => null,
  );
}

/**
 * Reads the loop's runs from the job folder, in order: a StepRun for each run judged there, null for
 * each it could not judge (no status line, a limit may have ended it). A run whose output passed the
 * cap is unjudged, and so is every run after it (a full job folder may have changed them).
 */
export async function readLoopRuns(
  jobDir: string,
  count: number,
  limits: { timeoutMs: number; cpuSeconds: number; cpuCount: number; outputCapBytes: number },
): Promise<(StepRun | null)[]> {
  const dir = join(jobDir, RESULTS_DIR);
  const statusText = await readFile(join(dir, STATUS_FILE), "utf8").catch(() => "");
  const byIndex = new Map(parseLoopStatus(statusText).map((status) => [status.index, status]));
  const runs: (StepRun | null)[] = [];
  let isOverflowed = false;
  for (let index = 0; index < count; index++) {
    const status = byIndex.get(index);
    const outPath = join(dir, `${index}.out`);
    const errPath = join(dir, `${index}.err`);
    const sizes = [await sizeOf(outPath), await sizeOf(errPath)];
    if (sizes.some((size) => size === null || size > limits.outputCapBytes)) isOverflowed = true;
    if (isOverflowed || !status || !isJudgedInLoop(status, limits)) {
      runs.push(null);
      continue;
    }
    runs.push({
      started: true,
      exitCode: status.exitCode,
      signal: signalFromExitCode(status.exitCode, osConstants.signals),
      timedOut: false,
      stdout: await readFile(outPath, "utf8"),
      stderr: await readFile(errPath, "utf8"),
      stdoutTruncated: false,
      stderrTruncated: false,
      wallMs: status.wallMs,
      cpuMs: null,
    });
  }
  return runs;
}
