// `verity environment`, the real program on the test database: an entry that is not pinned is a
// usage error naming it (exit 2, before the database); with entries it builds here, printing the
// package managers' lines, and ends "version N ready (size)" or with the registry's error and the
// version that stays in use (exit 1); without, it lists the versions. Builds reach PyPI and npm.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { prisma } from "@/lib/server/db/client";
import { removeEnvironmentFolder } from "@/lib/server/sandbox/environment-build";
import { uniqueName } from "@/lib/testing/factories";
import { isSystemPostgresRun, NOT_ABOUT_POSTGRES } from "@/lib/testing/test-postgres";

const dataDir = mkdtempSync(join(tmpdir(), "verity-environment-cli-"));

afterAll(() => removeEnvironmentFolder(dataDir));

type Output = { status: number | null; stdout: string; stderr: string };

/** Runs `verity environment …` with the test database (DATABASE_URL, set by the integration setup). */
function environment(args: string[], env: Record<string, string> = {}): Promise<Output> {
  const child = spawn(process.execPath, ["scripts/verity.mjs", "environment", ...args], {
    env: { ...process.env, VERITY_DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe.skipIf(isSystemPostgresRun)(`verity environment${NOT_ABOUT_POSTGRES}`, () => {
  it("refuses an entry that is not pinned as a usage error naming it, before opening the database", async () => {
    const result = await environment(["--dataset", "anything", "--python", "tabulate==0.9.0", "numpy"], {
      DATABASE_URL: "postgresql://verity@127.0.0.1:9/nowhere",
    });
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/--python: "numpy" is not name==version \(e\.g\. numpy==1\.26\.4\)/);
  }, 120_000);

  it("says when the dataset does not exist (exit 1)", async () => {
    const result = await environment(["--dataset", uniqueName("no-such"), "--npm", "js-md5@0.8.3"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^error: No dataset named/m);
  }, 120_000);

  it("builds inline, fails with the registry's words keeping the version in use, and lists the versions", async () => {
    const dataset = (await prisma().dataset.create({ data: { name: uniqueName("cli-env") }, select: { name: true } }))
      .name;
    const empty = await environment(["--dataset", dataset]);
    expect(empty.status, empty.stderr).toBe(0);
    expect(empty.stdout).toMatch(/has no environment/);

    const built = await environment(["--dataset", dataset, "--python", "tabulate==0.9.0"]);
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toMatch(/^version 1 of ".*": building python: tabulate==0\.9\.0$/m);
    expect(built.stdout).toMatch(/pip install/);
    expect(built.stdout.trimEnd().split("\n").at(-1)).toMatch(/^version 1 ready \(\d+(\.\d)? KB\)$/);

    const failed = await environment(["--dataset", dataset, "--npm", "verity-no-such-package-for-tests@1.0.0"]);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/npm/);
    expect(failed.stderr).toMatch(/^error: version 2 failed: npm install failed .*404.* \(version 1 stays in use\)$/m);

    const listed = await environment(["--dataset", dataset]);
    expect(listed.status, listed.stderr).toBe(0);
    const lines = listed.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^v2 {2}failed {2}npm: verity-no-such-package-for-tests@1\.0\.0 {2}\d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );
    expect(lines[1]).toMatch(/^ {4}npm install failed .*404/);
    expect(lines[2]).toMatch(/^v1 {2}ready \(in use\) {2}python: tabulate==0\.9\.0 {2}\d+(\.\d)? KB {2}\d{4}-/);
  }, 300_000);
});
