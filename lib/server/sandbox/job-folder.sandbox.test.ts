// A run's job folder (its files and its /tmp together) is a size-limited tmpfs: a program that
// writes beyond the cap gets "No space left on device", its result says limit "output", and nothing
// of it lands in the host's temporary folder.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { readFile, statfs } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import { jobFolderPrefix } from "./job-folder";
import { createLocalBackend } from "./local";

const CAP_MB = 32;
const backend = createLocalBackend({
  isUnsafe: false,
  concurrency: 1,
  memoryLimitMb: 512,
  workDir: null,
  jobFolderMb: CAP_MB,
});
const status = await backend.isolation();
// A tmpfs can be mounted only as root; elsewhere job folders are plain (doctor says so).
const whyNot =
  status.problem ??
  (status.mode !== "bubblewrap"
    ? `the sandbox runs in mode ${status.mode}`
    : !status.isRoot
      ? "not root, so job folders cannot be size-limited tmpfs mounts"
      : (await backend.toolchain("python")).isFound
        ? ""
        : "python3 is not installed in the sandbox");

/** A Python program that writes `mb` MiB into `folder` in 1 MiB pieces, saying how far it got. */
function writer(folder: string, mb: number): string {
  return [
    "import sys",
    "chunk = b'x' * (1024 * 1024)",
    "written = 0",
    `with open('${folder}/fill', 'wb') as out:`,
    `    for _ in range(${mb}):`,
    "        out.write(chunk)",
    "        out.flush()",
    "        written += 1",
    "        print('MB', written, flush=True)",
  ].join("\n");
}

async function hostTmpFreeBytes(): Promise<number> {
  const info = await statfs(tmpdir());
  return info.bavail * info.bsize;
}

describe.skipIf(skipWithoutSandbox(whyNot))(`job folder size cap${whyNot ? ` (skipped: ${whyNot})` : ""}`, () => {
  for (const folder of ["/job", "/tmp"]) {
    it(`stops a program writing ${4 * CAP_MB} MiB into ${folder} at the ${CAP_MB} MiB cap, with limit "output"`, async () => {
      const freeBefore = await hostTmpFreeBytes();
      const result = await backend.run({
        language: "python",
        solution: writer(folder, 4 * CAP_MB),
        test: "",
        timeoutMs: 20_000,
      });
      const written = Math.max(0, ...[...result.stdout.matchAll(/^MB (\d+)$/gm)].map((match) => Number(match[1])));
      expect(written).toBeLessThan(CAP_MB);
      expect(result.stderr).toMatch(/No space left on device/);
      expect(result.outcome).toBe("RUNTIME_ERROR");
      expect(result.limit).toBe("output");
      // The 128 MiB never reached the host's disk (other work on the machine moves it a little).
      expect(freeBefore - (await hostTmpFreeBytes())).toBeLessThan(CAP_MB * 1024 * 1024);
    });
  }

  it("lets a program that stays under the cap pass with no limit", async () => {
    const result = await backend.run({
      language: "python",
      solution: writer("/job", CAP_MB / 2),
      test: "",
      timeoutMs: 20_000,
    });
    expect(result.outcome).toBe("PASSED");
    expect(result.limit).toBeNull();
  });

  it("gives the next run a reused job folder with nothing of the last run in it and the whole cap free", async () => {
    const first = await backend.run({
      language: "python",
      solution: `${writer("/job", CAP_MB / 4)}\nopen('/tmp/left', 'w').write('secret')`,
      test: "",
      timeoutMs: 20_000,
    });
    expect(first.outcome).toBe("PASSED");
    const second = await backend.run({
      language: "python",
      solution: [
        "import os",
        "print(sorted(os.listdir('/job')), sorted(os.listdir('/tmp')))",
        "info = os.statvfs('/job')",
        // Only this program's own file (a block or two) is in use: the last run's 8 MiB are back.
        `print(info.f_bfree * info.f_frsize > ${CAP_MB - 1} * 1024 * 1024)`,
      ].join("\n"),
      test: "",
      timeoutMs: 20_000,
    });
    expect(second.outcome).toBe("PASSED");
    expect(second.stdout.trim().split("\n")).toEqual(["['test.py'] []", "True"]);
    // One slot, one mounted job root between runs: the mount is not redone per run.
    const mountinfo = await readFile("/proc/self/mountinfo", "utf8");
    const mine = mountinfo.split("\n").filter((line) => line.includes(`/${jobFolderPrefix()}`));
    expect(mine).toHaveLength(1);
  });

  it("unmounts and removes the job folders a killed process left mounted, on the next backend's first probe", async () => {
    // No process has this pid (Linux pids stop at 2^22), as for a process killed mid-run.
    const leftover = join(tmpdir(), `${jobFolderPrefix(4_999_999)}left`);
    mkdirSync(leftover);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "verity-job", leftover]);
    await createLocalBackend({ isUnsafe: false, concurrency: 1, memoryLimitMb: 512, workDir: null }).isolation();
    expect(existsSync(leftover)).toBe(false);
  });
});
