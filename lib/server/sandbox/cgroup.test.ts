import { describe, expect, it } from "vitest";

import { describeCgroupMode, parseCgroupMounts, parseProcCgroup, readCounter } from "./cgroup";

describe("cgroup parsing", () => {
  it("reads controller paths from /proc/self/cgroup (v1 and v2 lines)", () => {
    const paths = parseProcCgroup("4:memory:/process_api/abc\n8:pids:/\n2:cpu,cpuacct:/x\n0::/user.slice\n");
    expect(paths.get("memory")).toBe("/process_api/abc");
    expect(paths.get("pids")).toBe("/");
    expect(paths.get("cpuacct")).toBe("/x");
    expect(paths.get("")).toBe("/user.slice");
  });

  it("finds cgroup mounts in /proc/mounts", () => {
    const mounts = parseCgroupMounts(
      "cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0\ncgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\nproc /proc proc rw 0 0\n",
    );
    expect(mounts.v2).toBe("/sys/fs/cgroup/unified");
    expect(mounts.v1.get("memory")).toBe("/sys/fs/cgroup/memory");
    expect(mounts.v1.has("proc")).toBe(false);
  });

  it("reads counters from events files", () => {
    expect(readCounter("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n", "oom_kill")).toBe(2);
    expect(readCounter("max 0\n", "max")).toBe(0);
    expect(readCounter(null, "max")).toBe(0);
  });

  it("describes the mode for doctor", () => {
    expect(describeCgroupMode({ kind: "none", reason: "read-only" })).toBe("none: read-only");
    expect(describeCgroupMode({ kind: "v1", memoryParent: "/m", pidsParent: "/p", cpuacctParent: null })).toContain(
      "cgroup v1 (memory+pids)",
    );
    expect(describeCgroupMode({ kind: "v1", memoryParent: "/m", pidsParent: null, cpuacctParent: "/c" })).toBe(
      "cgroup v1 (memory+cpuacct) under /m and /c",
    );
  });
});
