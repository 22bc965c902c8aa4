import "server-only";

import { randomBytes } from "node:crypto";
import { access, mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Which cgroup API the local sandbox uses for memory and process-count limits. */
export type CgroupMode =
  | { kind: "v2"; parent: string }
  | { kind: "v1"; memoryParent: string; pidsParent: string | null; cpuacctParent: string | null }
  | { kind: "none"; reason: string };

export type CgroupLimits = { memoryBytes: number; pids: number };

type CgroupStats = { memoryPeakKb: number | null; isOomKilled: boolean; isPidsLimitHit: boolean };

export type JobCgroup = {
  /** Moves a process (before it runs user code) into the job's cgroup(s). */
  attach(pid: number): Promise<void>;
  stats(): Promise<CgroupStats>;
  /**
   * CPU time used by every process the job ever ran, in ms; null where the kernel does not account
   * it (cgroup v1 without a writable cpuacct controller).
   */
  cpuUsageMs(): Promise<number | null>;
  /** Kills every process left in the cgroup and removes it. */
  destroy(): Promise<void>;
};

const PARENT_NAME = "verity-sandbox";

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return null;
  }
}

/** Parses /proc/self/cgroup into controller → path ("" is the v2 unified hierarchy). */
export function parseProcCgroup(text: string): Map<string, string> {
  const paths = new Map<string, string>();
  for (const line of text.split("\n")) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line.trim());
    if (!match) continue;
    for (const controller of match[1].split(",")) paths.set(controller, match[2]);
  }
  return paths;
}

/** Parses /proc/mounts into the mount points of cgroup v1 controllers and of cgroup2. */
export function parseCgroupMounts(text: string): { v2: string | null; v1: Map<string, string> } {
  let v2: string | null = null;
  const v1 = new Map<string, string>();
  for (const line of text.split("\n")) {
    const [, mountPoint, fsType, options] = line.split(" ");
    if (fsType === "cgroup2" && v2 === null) v2 = mountPoint;
    if (fsType === "cgroup") {
      for (const option of (options ?? "").split(",")) if (!v1.has(option)) v1.set(option, mountPoint);
    }
  }
  return { v2, v1 };
}

/** cgroup v2's `cpu.stat` holds usage_usec in every cgroup, whether or not the cpu controller is on. */
function usageMsFromCpuStat(text: string | null): number | null {
  return text === null ? null : readCounter(text, "usage_usec") / 1000;
}

/** cgroup v1's `cpuacct.usage` is nanoseconds. */
function usageMsFromCpuacct(text: string | null): number | null {
  return text === null || !/^\d+\s*$/.test(text) ? null : Number(text) / 1e6;
}

/** Reads a "key value" counter from a cgroup events/control file. */
export function readCounter(text: string | null, key: string): number {
  const match = text ? new RegExp(`^${key}\\s+(\\d+)`, "m").exec(text) : null;
  return match ? Number(match[1]) : 0;
}

async function tryMkdir(path: string): Promise<boolean> {
  try {
    await mkdir(path, { recursive: true });
    return true;
  } catch {
    return false;
  }
}

async function detectV2(
  mountPoint: string,
  ownPath: string | undefined,
  configuredParent: string | null,
): Promise<CgroupMode | string> {
  const parent = configuredParent || join(mountPoint, ownPath ?? "/");
  const controllers = (await readText(join(parent, "cgroup.controllers")))?.split(/\s+/) ?? [];
  if (!controllers.includes("memory") || !controllers.includes("pids")) {
    return `cgroup v2 at ${parent} does not offer the memory and pids controllers`;
  }
  const base = join(parent, PARENT_NAME);
  if (!(await tryMkdir(base))) return `cgroup v2 at ${parent} is not writable`;
  try {
    // Children of `parent` only get controllers the parent delegates; a cgroup holding processes
    // cannot delegate (no-internal-process rule), hence VERITY_SANDBOX_CGROUP for systemd setups.
    const subtree = (await readText(join(parent, "cgroup.subtree_control"))) ?? "";
    if (!subtree.includes("memory") || !subtree.includes("pids")) {
      await writeFile(join(parent, "cgroup.subtree_control"), "+memory +pids");
    }
    await writeFile(join(base, "cgroup.subtree_control"), "+memory +pids");
  } catch (error) {
    return `cgroup v2 at ${parent} cannot delegate memory/pids (${(error as Error).message}); set VERITY_SANDBOX_CGROUP to a delegated cgroup`;
  }
  return { kind: "v2", parent: base };
}

async function detectV1(mounts: Map<string, string>, own: Map<string, string>): Promise<CgroupMode | string> {
  const parentFor = async (controller: string): Promise<string | null> => {
    const mountPoint = mounts.get(controller);
    if (!mountPoint) return null;
    // Inside a cgroup namespace the own path may not exist under the mount; fall back to its root.
    for (const candidate of [join(mountPoint, own.get(controller) ?? "/"), mountPoint]) {
      const base = join(candidate, PARENT_NAME);
      if ((await exists(candidate)) && (await tryMkdir(base))) return base;
    }
    return null;
  };
  const memoryParent = await parentFor("memory");
  if (!memoryParent) return "no writable cgroup v1 memory controller";
  return {
    kind: "v1",
    memoryParent,
    pidsParent: await parentFor("pids"),
    cpuacctParent: await parentFor("cpuacct"),
  };
}

let detected: Promise<CgroupMode> | null = null;

/**
 * Finds a writable cgroup (v2 first, under `configuredParent` when set — VERITY_SANDBOX_CGROUP —
 * then v1); the result is cached for the process lifetime.
 */
export function detectCgroupMode(configuredParent: string | null): Promise<CgroupMode> {
  detected ??= (async (): Promise<CgroupMode> => {
    if (process.platform !== "linux") return { kind: "none", reason: "not Linux" };
    const own = parseProcCgroup((await readText("/proc/self/cgroup")) ?? "");
    const mounts = parseCgroupMounts((await readText("/proc/mounts")) ?? "");
    const reasons: string[] = [];
    if (mounts.v2) {
      const v2 = await detectV2(mounts.v2, own.get(""), configuredParent);
      if (typeof v2 !== "string") return v2;
      reasons.push(v2);
    }
    if (mounts.v1.size > 0) {
      const v1 = await detectV1(mounts.v1, own);
      if (typeof v1 !== "string") return v1;
      reasons.push(v1);
    }
    if (reasons.length === 0) reasons.push("no cgroup filesystem mounted");
    return { kind: "none", reason: reasons.join("; ") };
  })();
  return detected;
}

/** One line for doctor: which cgroup mode is in use. */
export function describeCgroupMode(mode: CgroupMode): string {
  if (mode.kind === "v2") return `cgroup v2 (memory+pids) under ${mode.parent}`;
  if (mode.kind === "v1") {
    const controllers = ["memory", mode.pidsParent && "pids", mode.cpuacctParent && "cpuacct"].filter(Boolean);
    const folders = [mode.memoryParent, mode.pidsParent, mode.cpuacctParent].filter(Boolean);
    return `cgroup v1 (${controllers.join("+")}) under ${folders.join(" and ")}`;
  }
  return `none: ${mode.reason}`;
}

async function killAllIn(dir: string): Promise<void> {
  // v2 has cgroup.kill (5.14+); otherwise SIGKILL every listed process until none is left.
  if (await exists(join(dir, "cgroup.kill"))) {
    await writeFile(join(dir, "cgroup.kill"), "1").catch(() => undefined);
  }
  for (let attempt = 0; attempt < 50; attempt++) {
    const pids = ((await readText(join(dir, "cgroup.procs"))) ?? "").split("\n").filter(Boolean).map(Number);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function removeDir(dir: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      await killAllIn(dir);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Creates the cgroup(s) of one job with its limits; null when the mode is "none". */
export async function createJobCgroup(mode: CgroupMode, limits: CgroupLimits): Promise<JobCgroup | null> {
  if (mode.kind === "none") return null;
  const name = `job-${randomBytes(6).toString("hex")}`;
  if (mode.kind === "v2") {
    const dir = join(mode.parent, name);
    await mkdir(dir);
    await writeFile(join(dir, "memory.max"), String(limits.memoryBytes));
    await writeFile(join(dir, "memory.swap.max"), "0").catch(() => undefined);
    await writeFile(join(dir, "pids.max"), String(limits.pids));
    return {
      attach: (pid) => writeFile(join(dir, "cgroup.procs"), String(pid)),
      async stats() {
        const peak = await readText(join(dir, "memory.peak"));
        return {
          memoryPeakKb: peak ? Math.round(Number(peak) / 1024) : null,
          isOomKilled: readCounter(await readText(join(dir, "memory.events")), "oom_kill") > 0,
          isPidsLimitHit: readCounter(await readText(join(dir, "pids.events")), "max") > 0,
        };
      },
      cpuUsageMs: async () => usageMsFromCpuStat(await readText(join(dir, "cpu.stat"))),
      async destroy() {
        await killAllIn(dir);
        await removeDir(dir);
      },
    };
  }
  const memoryDir = join(mode.memoryParent, name);
  const pidsDir = mode.pidsParent ? join(mode.pidsParent, name) : null;
  const cpuacctDir = mode.cpuacctParent ? join(mode.cpuacctParent, name) : null;
  await mkdir(memoryDir);
  await writeFile(join(memoryDir, "memory.limit_in_bytes"), String(limits.memoryBytes));
  // memsw must be at least the memory limit; setting it equal forbids swapping past the limit.
  await writeFile(join(memoryDir, "memory.memsw.limit_in_bytes"), String(limits.memoryBytes)).catch(() => undefined);
  if (pidsDir) {
    await mkdir(pidsDir);
    await writeFile(join(pidsDir, "pids.max"), String(limits.pids));
  }
  if (cpuacctDir) await mkdir(cpuacctDir);
  return {
    async attach(pid) {
      await writeFile(join(memoryDir, "cgroup.procs"), String(pid));
      if (pidsDir) await writeFile(join(pidsDir, "cgroup.procs"), String(pid));
      if (cpuacctDir) await writeFile(join(cpuacctDir, "cgroup.procs"), String(pid));
    },
    async stats() {
      const peak = await readText(join(memoryDir, "memory.max_usage_in_bytes"));
      return {
        memoryPeakKb: peak ? Math.round(Number(peak) / 1024) : null,
        isOomKilled: readCounter(await readText(join(memoryDir, "memory.oom_control")), "oom_kill") > 0,
        isPidsLimitHit: pidsDir ? readCounter(await readText(join(pidsDir, "pids.events")), "max") > 0 : false,
      };
    },
    cpuUsageMs: async () => (cpuacctDir ? usageMsFromCpuacct(await readText(join(cpuacctDir, "cpuacct.usage"))) : null),
    async destroy() {
      for (const dir of [memoryDir, pidsDir, cpuacctDir]) {
        if (!dir) continue;
        await killAllIn(dir);
        await removeDir(dir);
      }
    },
  };
}
