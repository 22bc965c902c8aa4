import { describe, expect, it } from "vitest";

import { baseSandboxEnv, buildBwrapArgv, rebaseEnv, SANDBOX_PATH, signalFromExitCode } from "./isolation";

const input = {
  bwrapPath: "/usr/bin/bwrap",
  prlimitPath: "/usr/bin/prlimit",
  hostJobDir: "/tmp/verity-job-abc/job",
  roots: [
    { path: "/bin", kind: "symlink" as const, target: "usr/bin" },
    { path: "/lib64", kind: "dir" as const },
  ],
  etcPaths: ["/etc/ld.so.cache"],
  hiddenPaths: ["/usr/local"],
  tmp: { hostDir: "/tmp/verity-job-abc/tmp" },
  env: baseSandboxEnv({ GOCACHE: "/job/.cache" }),
  limits: { cpuSeconds: 11, processes: 512, fileSizeBytes: 1024, openFiles: 64 },
  argv: ["python3", "test.py"],
};

describe("buildBwrapArgv", () => {
  const argv = buildBwrapArgv(input);
  const joined = argv.join(" ");

  it("unshares every namespace, dies with its parent and starts a new session", () => {
    expect(argv[0]).toBe("/usr/bin/bwrap");
    for (const flag of ["--unshare-all", "--die-with-parent", "--new-session", "--clearenv"])
      expect(argv).toContain(flag);
    expect(argv).not.toContain("--share-net");
  });

  it("binds system folders read-only and only the job folder writable", () => {
    expect(joined).toContain("--ro-bind /usr /usr");
    // The toolchains the install takes from package registries, read-only.
    expect(joined).toContain("--ro-bind-try /opt/verity /opt/verity");
    expect(joined).toContain("--symlink usr/bin /bin");
    expect(joined).toContain("--ro-bind /lib64 /lib64");
    expect(joined).toContain("--ro-bind /etc/ld.so.cache /etc/ld.so.cache");
    expect(joined).toContain("--bind /tmp/verity-job-abc/tmp /tmp");
    expect(joined).toContain("--bind /tmp/verity-job-abc/job /job --chdir /job --remount-ro /");
    expect(argv.filter((arg) => arg === "--bind")).toHaveLength(2);
  });

  it("hides /usr/local under an empty read-only tmpfs and leaves it off the PATH", () => {
    expect(joined).toContain("--ro-bind /usr /usr");
    expect(joined).toContain("--tmpfs /usr/local --remount-ro /usr/local");
    expect(joined.indexOf("--ro-bind /usr /usr")).toBeLessThan(joined.indexOf("--tmpfs /usr/local"));
    expect(SANDBOX_PATH.split(":").some((dir) => dir.startsWith("/usr/local"))).toBe(false);
  });

  it("gives /tmp a size-limited tmpfs when the job root is a plain folder", () => {
    const plain = buildBwrapArgv({ ...input, tmp: { sizeBytes: 1048576 } }).join(" ");
    expect(plain).toContain("--size 1048576 --tmpfs /tmp");
    expect(plain).not.toContain("--bind /tmp/verity-job-abc/tmp");
  });

  it("sets only the given environment and runs the program under prlimit", () => {
    expect(joined).toContain("--setenv HOME /job");
    expect(joined).toContain("--setenv GOCACHE /job/.cache");
    const separator = argv.indexOf("--");
    expect(argv.slice(separator + 1)).toEqual([
      "/usr/bin/prlimit",
      "--cpu=11:12",
      "--nproc=512",
      "--fsize=1024",
      "--nofile=64",
      "--core=0",
      "--",
      "python3",
      "test.py",
    ]);
  });
});

describe("baseSandboxEnv", () => {
  it("runs programs in the reference image's time zone unless a recipe says otherwise", () => {
    expect(baseSandboxEnv({}).TZ).toBe("Asia/Shanghai");
    expect(baseSandboxEnv({ TZ: "UTC" }).TZ).toBe("UTC");
  });
});

describe("rebaseEnv", () => {
  it("points /job paths at the host job folder, leaving look-alikes alone", () => {
    expect(rebaseEnv({ HOME: "/job", GOCACHE: "/job/.cache", X: "/jobs", P: "/a:/job/b" }, "/tmp/j")).toEqual({
      HOME: "/tmp/j",
      GOCACHE: "/tmp/j/.cache",
      X: "/jobs",
      P: "/a:/tmp/j/b",
    });
  });
});

describe("signalFromExitCode", () => {
  it("maps 128+N to the signal name", () => {
    const signals = { SIGKILL: 9, SIGSEGV: 11 };
    expect(signalFromExitCode(137, signals)).toBe("SIGKILL");
    expect(signalFromExitCode(139, signals)).toBe("SIGSEGV");
    expect(signalFromExitCode(1, signals)).toBeNull();
    expect(signalFromExitCode(null, signals)).toBeNull();
  });
});
