import "server-only";

import { REFERENCE_TIME_ZONE } from "./reference-versions";

/** Where the job folder appears inside the sandbox; recipes refer to it (e.g. GOCACHE=/job/…). */
const SANDBOX_JOB_DIR = "/job";

// No /usr/local: it is hidden inside the sandbox (see HIDDEN_SYSTEM_PATHS).
export const SANDBOX_PATH = "/usr/sbin:/usr/bin:/sbin:/bin";

/**
 * Folders under /usr that a run does not see (an empty read-only tmpfs is mounted over them): the
 * host's own additions — npm's global config (/usr/local/etc/npmrc), pip's and Python's site files,
 * locally installed tools — are not part of any toolchain a recipe uses, and may hold credentials.
 */
export const HIDDEN_SYSTEM_PATHS = ["/usr/local"] as const;

/**
 * Toolchains the sandbox install takes from Maven Central, the Go module proxy and crates.io (root-
 * owned, read-only): bound read-only at the same place in every sandbox.
 */
export const TOOLCHAINS_DIR = "/opt/verity";

/**
 * Files under /etc that toolchains read. Deliberately a list, not all of /etc: /etc may hold
 * credentials (npmrc, pip.conf, ssh keys, app config).
 */
export const ETC_ENTRIES = [
  "alternatives",
  "ca-certificates",
  "debian_version",
  "group",
  "hosts",
  "java-17-openjdk",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "localtime",
  "mime.types",
  "nsswitch.conf",
  "os-release",
  "passwd",
  "php",
  "python3",
  "python3.11",
  "R",
  "racket",
  "ssl",
  "timezone",
] as const;

/** How a top-level system path looks on the host: merged-/usr systems have symlinks. */
export type RootEntry = { path: string; kind: "dir" } | { path: string; kind: "symlink"; target: string };

export type Rlimits = {
  cpuSeconds: number;
  processes: number;
  fileSizeBytes: number;
  openFiles: number;
};

export type SandboxCommandInput = {
  bwrapPath: string;
  prlimitPath: string;
  hostJobDir: string;
  roots: readonly RootEntry[];
  /** Host paths under /etc that exist; bound read-only at the same place. */
  etcPaths: readonly string[];
  /** Of HIDDEN_SYSTEM_PATHS, those that exist on the host (an empty tmpfs covers each). */
  hiddenPaths: readonly string[];
  /**
   * The sandbox's /tmp: a host folder inside the size-limited job root, or, when the job root is a
   * plain folder, a private tmpfs of this many bytes.
   */
  tmp: { hostDir: string } | { sizeBytes: number };
  /** Host folders bound read-only inside (a dataset environment at /env). */
  readOnlyBinds?: ReadonlyArray<{ hostPath: string; sandboxPath: string }>;
  env: Readonly<Record<string, string>>;
  limits: Rlimits;
  argv: readonly string[];
};

/** The environment every sandboxed program starts from; nothing of the parent's leaks in. */
export function baseSandboxEnv(extra: Readonly<Record<string, string>>): Record<string, string> {
  return {
    PATH: SANDBOX_PATH,
    HOME: SANDBOX_JOB_DIR,
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    TMPDIR: "/tmp",
    TERM: "dumb",
    NO_COLOR: "1",
    TZ: REFERENCE_TIME_ZONE,
    ...extra,
  };
}

/**
 * Seconds between the soft CPU limit (SIGXCPU, which a program that has not asked for it dies of)
 * and the hard one (SIGKILL): with both equal the kernel sends SIGKILL straight away, and a time
 * limit would look like any other kill.
 */
const CPU_HARD_LIMIT_GRACE_SECONDS = 1;

/** The rlimit wrapper: `prlimit` applies the limits, then execs the program. */
export function prlimitArgv(prlimitPath: string, limits: Rlimits, argv: readonly string[]): string[] {
  return [
    prlimitPath,
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + CPU_HARD_LIMIT_GRACE_SECONDS}`,
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileSizeBytes}`,
    `--nofile=${limits.openFiles}`,
    "--core=0",
    "--",
    ...argv,
  ];
}

/**
 * Builds the bubblewrap command line (pure): every namespace unshared (no network), system folders
 * read-only with /usr/local hidden, a private /tmp and /proc, the job folder writable at /job, a
 * clean environment, its own session (no terminal injection) and death with its parent; the program
 * runs under `prlimit`.
 */
export function buildBwrapArgv(input: SandboxCommandInput): string[] {
  const args: string[] = [
    input.bwrapPath,
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--hostname",
    "sandbox",
    "--ro-bind",
    "/usr",
    "/usr",
  ];
  for (const root of input.roots) {
    if (root.kind === "symlink") args.push("--symlink", root.target, root.path);
    else args.push("--ro-bind", root.path, root.path);
  }
  for (const path of input.hiddenPaths) args.push("--tmpfs", path, "--remount-ro", path);
  for (const path of input.etcPaths) args.push("--ro-bind", path, path);
  args.push("--ro-bind-try", TOOLCHAINS_DIR, TOOLCHAINS_DIR);
  for (const bind of input.readOnlyBinds ?? []) args.push("--ro-bind", bind.hostPath, bind.sandboxPath);
  args.push("--proc", "/proc", "--dev", "/dev");
  if ("hostDir" in input.tmp) args.push("--bind", input.tmp.hostDir, "/tmp");
  else args.push("--size", String(input.tmp.sizeBytes), "--tmpfs", "/tmp");
  args.push(
    "--bind",
    input.hostJobDir,
    SANDBOX_JOB_DIR,
    "--chdir",
    SANDBOX_JOB_DIR,
    // bwrap's root is a scratch tmpfs; make it read-only so /job and /tmp are the only writable places.
    "--remount-ro",
    "/",
    "--clearenv",
  );
  for (const [key, value] of Object.entries(input.env)) args.push("--setenv", key, value);
  args.push("--", ...prlimitArgv(input.prlimitPath, input.limits, input.argv));
  return args;
}

/** Replaces the in-sandbox job path in env values by the host job folder (unsafe mode runs unwrapped). */
export function rebaseEnv(env: Readonly<Record<string, string>>, hostJobDir: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([key, value]) => [
      key,
      value.replace(new RegExp(`(^|:)${SANDBOX_JOB_DIR}(?=/|:|$)`, "g"), `$1${hostJobDir}`),
    ]),
  );
}

/** Linux signal names by number for exit codes 128+N reported by bubblewrap. */
export function signalFromExitCode(exitCode: number | null, signals: Readonly<Record<string, number>>): string | null {
  if (exitCode === null || exitCode <= 128 || exitCode > 128 + 64) return null;
  const number = exitCode - 128;
  return Object.entries(signals).find(([, value]) => value === number)?.[0] ?? null;
}
