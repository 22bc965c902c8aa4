import "server-only";

import { execFile, execFileSync } from "node:child_process";
import { chmod, chown, mkdtemp, readdir, readFile, rm, statfs } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

import { isProcessAlive } from "@/lib/server/processes";

import { findOnHost } from "./host";

const run = promisify(execFile);

/**
 * How a job folder is bounded: a size-limited tmpfs mounted on it (needs root), or a plain folder
 * on the host's disk, bounded only by the per-file size limit (and why).
 */
export type JobFolderMode =
  { kind: "tmpfs"; sizeBytes: number; mountPath: string; umountPath: string } | { kind: "plain"; reason: string };

// Enough for every toolchain's own files (cargo's target folder, Go's build cache: hundreds), far
// from the millions of empty files that would fill the kernel's memory instead of the folder.
const JOB_FOLDER_INODES = 65_536;

/** The tmpfs mount options of a job folder (pure): its size, an inode budget, owner and no devices or setuid. */
export function tmpfsOptions(sizeBytes: number, owner: { uid: number; gid: number } | null): string {
  const ownership = owner ? `,uid=${owner.uid},gid=${owner.gid}` : "";
  return `size=${sizeBytes},nr_inodes=${JOB_FOLDER_INODES},mode=0700${ownership},nosuid,nodev`;
}

function messageOf(error: unknown): string {
  const stderr = (error as { stderr?: string }).stderr?.trim();
  return stderr || (error as Error).message;
}

/** Mounts the job folder's tmpfs (no-op for a plain folder). */
async function mountJobFolder(
  mode: JobFolderMode,
  dir: string,
  owner: { uid: number; gid: number } | null,
): Promise<void> {
  if (mode.kind !== "tmpfs") return;
  await run(mode.mountPath, ["-t", "tmpfs", "-o", tmpfsOptions(mode.sizeBytes, owner), "verity-job", dir]);
}

/** Unmounts the job folder's tmpfs; lazily when something still holds it (no-op for a plain folder). */
async function unmountJobFolder(mode: JobFolderMode, dir: string): Promise<void> {
  if (mode.kind !== "tmpfs") return;
  await run(mode.umountPath, [dir]).catch(() => run(mode.umountPath, ["--lazy", dir]));
}

/** True when a run filled its tmpfs job folder (no byte or no inode left); false for a plain folder. */
export async function isJobFolderFull(mode: JobFolderMode, dir: string): Promise<boolean> {
  if (mode.kind !== "tmpfs") return false;
  const info = await statfs(dir).catch(() => null);
  return info !== null && (info.bavail === 0 || info.ffree === 0);
}

/**
 * Whether job folders can be size-limited tmpfs mounts here: as root, with mount(8), and when a
 * trial mount under `base` succeeds (a container without CAP_SYS_ADMIN refuses it).
 */
export async function detectJobFolderMode({
  isRoot,
  sizeBytes,
  base,
}: {
  isRoot: boolean;
  sizeBytes: number;
  base: string;
}): Promise<JobFolderMode> {
  if (!isRoot) return { kind: "plain", reason: "a size-limited job folder needs the app to run as root" };
  const [mountPath, umountPath] = await Promise.all([findOnHost("mount"), findOnHost("umount")]);
  if (!mountPath || !umountPath) return { kind: "plain", reason: "mount(8) is not installed (util-linux)" };
  const mode: JobFolderMode = { kind: "tmpfs", sizeBytes, mountPath, umountPath };
  const trial = await mkdtemp(join(base, "verity-job-trial-"));
  try {
    await mountJobFolder(mode, trial, null);
    await unmountJobFolder(mode, trial);
    return mode;
  } catch (error) {
    return { kind: "plain", reason: `a tmpfs cannot be mounted here: ${messageOf(error)}` };
  } finally {
    await rm(trial, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The name prefix of this process's job folders: the pid tells whose a folder is. */
export function jobFolderPrefix(pid: number = process.pid): string {
  return `verity-job-${pid}-`;
}

/**
 * The job folders under `base` still mounted for a process that is gone (killed in the middle of
 * a run, so its clean-up never ran), from /proc/self/mountinfo's text (pure).
 */
export function staleJobMounts(mountinfo: string, base: string, isAlive: (pid: number) => boolean): string[] {
  const stale: string[] = [];
  for (const line of mountinfo.split("\n")) {
    // Field 5 is the mount point (octal escapes for blanks); the file system type follows " - ".
    const mountPoint = line
      .split(" ")[4]
      ?.replace(/\\(\d{3})/g, (_, code: string) => String.fromCharCode(parseInt(code, 8)));
    if (!mountPoint || !line.includes(" - tmpfs verity-job ")) continue;
    const owner = /^verity-job-(\d+)-[^/]+$/.exec(mountPoint.slice(base.length + 1));
    if (mountPoint.startsWith(`${base}/`) && owner && !isAlive(Number(owner[1]))) stale.push(mountPoint);
  }
  return stale;
}

/** Unmounts and removes the job folders of processes that died mid-run (their tmpfs would hold memory). */
export async function removeStaleJobFolders(mode: JobFolderMode, base: string): Promise<void> {
  if (mode.kind !== "tmpfs") return;
  const mountinfo = await readFile("/proc/self/mountinfo", "utf8").catch(() => "");
  for (const dir of staleJobMounts(mountinfo, base, isProcessAlive)) {
    await unmountJobFolder(mode, dir).catch(() => undefined);
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

type Owner = { uid: number; gid: number } | null;

/** Job roots, each a mounted tmpfs (or a plain folder): taken for one run, given back after it. */
type JobRootPool = {
  acquire(mode: JobFolderMode, base: string, owner: Owner): Promise<string>;
  /** Empties the root for the next run (or removes it); never throws. */
  release(root: string): Promise<void>;
  /** Roots mounted and waiting for a run. */
  readonly idle: number;
};

/**
 * Keeps up to `keep` emptied tmpfs job roots mounted between runs. A mount(8) and umount(8) spawn
 * per run cost tens of milliseconds on a loaded machine — most of a batch run's overhead — while an
 * emptied tmpfs is as good as a fresh one: the same size and inode cap, every byte back, nothing of
 * the last job left (its processes are gone with its pid namespace before the root is given back).
 * Roots left mounted when the process dies are removed by the next backend (removeStaleJobFolders);
 * on a normal exit they are unmounted.
 */
export function createJobRootPool(keep: number): JobRootPool {
  const idle: { root: string; key: string }[] = [];
  const mounted = new Map<string, { mode: JobFolderMode; key: string }>();
  const keyOf = (mode: JobFolderMode, owner: Owner) =>
    mode.kind === "tmpfs" ? `${mode.sizeBytes}:${owner?.uid ?? "-"}:${owner?.gid ?? "-"}` : "plain";
  let isExitHooked = false;

  async function discard(root: string): Promise<void> {
    const entry = mounted.get(root);
    mounted.delete(root);
    if (entry) await unmountJobFolder(entry.mode, root).catch(() => undefined);
    await rm(root, { recursive: true, force: true }).catch(() => undefined);
  }

  function unmountAllAtExit(): void {
    if (isExitHooked) return;
    isExitHooked = true;
    process.once("exit", () => {
      for (const [root, entry] of mounted) {
        if (entry.mode.kind !== "tmpfs") continue;
        try {
          execFileSync(entry.mode.umountPath, ["--lazy", root], { stdio: "ignore" });
          execFileSync("rmdir", [root], { stdio: "ignore" });
        } catch {
          // the next backend's stale-folder sweep takes it
        }
      }
    });
  }

  return {
    get idle() {
      return idle.length;
    },
    async acquire(mode, base, owner) {
      const key = keyOf(mode, owner);
      const index = idle.findIndex((entry) => entry.key === key);
      if (index !== -1) return idle.splice(index, 1)[0].root;
      const root = await mkdtemp(join(base, jobFolderPrefix()));
      try {
        await chmod(root, 0o700);
        if (owner) await chown(root, owner.uid, owner.gid);
        await mountJobFolder(mode, root, owner);
      } catch (error) {
        await rm(root, { recursive: true, force: true }).catch(() => undefined);
        throw error;
      }
      if (mode.kind === "tmpfs") {
        mounted.set(root, { mode, key });
        unmountAllAtExit();
      }
      return root;
    },
    async release(root) {
      const entry = mounted.get(root);
      if (!entry || idle.length >= keep) return discard(root);
      try {
        for (const name of await readdir(root)) await rm(join(root, name), { recursive: true, force: true });
        const [left, info] = await Promise.all([readdir(root), statfs(root)]);
        // Anything the emptying could not remove (or a tmpfs not back to all-free) is not reused.
        if (left.length > 0 || info.bfree !== info.blocks) return discard(root);
        idle.push({ root, key: entry.key });
      } catch {
        await discard(root);
      }
    },
  };
}

/** The job folder's bound in a few words, for doctor and the status page. */
export function describeJobFolderMode(mode: JobFolderMode): string {
  return mode.kind === "tmpfs"
    ? `tmpfs of ${Math.round(mode.sizeBytes / (1024 * 1024))} MiB per run`
    : `not size-limited: ${mode.reason}`;
}
