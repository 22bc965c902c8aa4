import "server-only";

import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, statfs } from "node:fs/promises";
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
export async function mountJobFolder(
  mode: JobFolderMode,
  dir: string,
  owner: { uid: number; gid: number } | null,
): Promise<void> {
  if (mode.kind !== "tmpfs") return;
  await run(mode.mountPath, ["-t", "tmpfs", "-o", tmpfsOptions(mode.sizeBytes, owner), "verity-job", dir]);
}

/** Unmounts the job folder's tmpfs; lazily when something still holds it (no-op for a plain folder). */
export async function unmountJobFolder(mode: JobFolderMode, dir: string): Promise<void> {
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

/** The job folder's bound in a few words, for doctor and the status page. */
export function describeJobFolderMode(mode: JobFolderMode): string {
  return mode.kind === "tmpfs"
    ? `tmpfs of ${Math.round(mode.sizeBytes / (1024 * 1024))} MiB per run`
    : `not size-limited: ${mode.reason}`;
}
