import "server-only";

import { constants } from "node:fs";
import { access, lstat, readFile, readlink, realpath, stat } from "node:fs/promises";
import { delimiter, join } from "node:path";

import { ETC_ENTRIES, HIDDEN_SYSTEM_PATHS, type RootEntry, SANDBOX_PATH, TOOLCHAINS_DIR } from "./isolation";

export const SANDBOX_USER = "verity-sandbox";

/** Top-level folders that hold binaries and libraries (symlinks into /usr on merged-/usr systems). */
const SYSTEM_ROOTS = ["/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"];

/** True when `path` (or what it links to) is an executable file. */
export async function isExecutable(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Finds a command on the host PATH (plus the usual system folders). */
export async function findOnHost(command: string): Promise<string | null> {
  const dirs = [
    ...(process.env.PATH ?? "").split(delimiter),
    "/usr/local/bin",
    "/usr/bin",
    "/usr/sbin",
    "/bin",
    "/sbin",
  ];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = join(dir, command);
    if (await isExecutable(candidate)) return candidate;
  }
  return null;
}

/** True when a host path lies in a folder the sandbox hides (/usr/local). */
function isHiddenInSandbox(path: string): boolean {
  return HIDDEN_SYSTEM_PATHS.some((hidden) => path === hidden || path.startsWith(`${hidden}/`));
}

/**
 * Finds a command as the sandbox sees it (by name on the sandbox PATH, or an absolute path), really
 * living where the sandbox can see it: under /usr but not /usr/local, or the install's toolchains
 * folder (a symlink to e.g. /root/.cargo or /usr/local would resolve on the host but not inside).
 */
export async function findInSandbox(command: string): Promise<string | null> {
  const candidates = command.startsWith("/") ? [command] : SANDBOX_PATH.split(":").map((dir) => join(dir, command));
  for (const candidate of candidates) {
    if (!(await isExecutable(candidate))) continue;
    const real = await realpath(candidate).catch(() => null);
    if (real && ((real.startsWith("/usr/") && !isHiddenInSandbox(real)) || real.startsWith(`${TOOLCHAINS_DIR}/`)))
      return candidate;
  }
  return null;
}

/** True when a file exists and is readable by everyone (the sandbox user is not its owner). */
export async function isWorldReadable(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    return (info.mode & 0o004) !== 0;
  } catch {
    return false;
  }
}

export type SandboxUser = { name: string; uid: number; gid: number };

/** Looks the sandbox user up in /etc/passwd. */
export async function findSandboxUser(name: string = SANDBOX_USER): Promise<SandboxUser | null> {
  const passwd = await readFile("/etc/passwd", "utf8").catch(() => "");
  for (const line of passwd.split("\n")) {
    const [user, , uid, gid] = line.split(":");
    if (user === name && uid && gid) return { name, uid: Number(uid), gid: Number(gid) };
  }
  return null;
}

/** How /bin, /lib, … look on this host, to mirror them inside the sandbox. */
export async function systemRoots(): Promise<RootEntry[]> {
  const roots: RootEntry[] = [];
  for (const path of SYSTEM_ROOTS) {
    const info = await lstat(path).catch(() => null);
    if (!info) continue;
    if (info.isSymbolicLink()) roots.push({ path, kind: "symlink", target: await readlink(path) });
    else if (info.isDirectory()) roots.push({ path, kind: "dir" });
  }
  return roots;
}

/** The paths of a list that exist on this host. */
export async function existingPaths(paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) if (await lstat(path).catch(() => null)) found.push(path);
  return found;
}

/** The /etc entries from the allow-list that exist here. */
export function etcPaths(): Promise<string[]> {
  return existingPaths(ETC_ENTRIES.map((entry) => join("/etc", entry)));
}
