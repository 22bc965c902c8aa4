// Child processes of the cluster tier. Each runs in its own process group (npm start and the
// worker spawn children of their own: tsx, next start), so stopping one — or SIGKILLing a worker
// to test a crash — reaches the whole tree. Every group started here is killed when this process
// exits, whatever the reason, so a failed run leaves nothing behind.
import { spawn } from "node:child_process";
import { openSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export type Service = {
  name: string;
  pid: number;
  /** The service's combined stdout and stderr. */
  logFile: string;
  /** Sends `signal` to the whole process group; resolves when the leader has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  exited: Promise<number | null>;
};

const running = new Set<number>();

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

process.once("exit", () => {
  for (const pid of running) killGroup(pid, "SIGKILL");
});

/** Starts `node args…` from the project folder with `env` added, its output in `logDir/name.log`. */
export function startService({
  name,
  args,
  env,
  logDir,
}: {
  name: string;
  args: string[];
  env: Record<string, string>;
  logDir: string;
}): Service {
  const logFile = join(logDir, `${name}.log`);
  const output = openSync(logFile, "a");
  const child = spawn(process.execPath, args, {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
    stdio: ["ignore", output, output],
    detached: true,
  });
  const pid = child.pid!;
  running.add(pid);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  void exited.then(() => running.delete(pid));
  return {
    name,
    pid,
    logFile,
    exited,
    async stop(signal = "SIGTERM") {
      killGroup(pid, signal);
      const isDone = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
      if (!isDone) killGroup(pid, "SIGKILL");
      await exited;
      // What the leader left behind (a grandchild still closing) goes too.
      killGroup(pid, "SIGKILL");
    },
  };
}

/** Polls `url` until it answers 200; fails early when `service` exits first. */
export async function waitUntilHealthy(url: string, service: Service, timeoutMs = 240_000): Promise<void> {
  let hasExited = false;
  void service.exited.then(() => (hasExited = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (hasExited) throw new Error(`${service.name} exited before it answered on ${url}; see ${service.logFile}`);
    const isOk = await fetch(url)
      .then((response) => response.ok)
      .catch(() => false);
    if (isOk) return;
    await sleep(500);
  }
  throw new Error(`${service.name} did not answer on ${url} within ${timeoutMs / 1000} s; see ${service.logFile}`);
}
