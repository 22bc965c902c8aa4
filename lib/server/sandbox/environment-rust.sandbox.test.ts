// A dataset environment's Rust crates, for real: built with cargo from crates.io into a read-only
// folder and named to the Rust recipe's rustc at /env, beside the reference's prebuilt rand, regex
// and md5. Its own file (the other kinds are in environment.sandbox.test.ts) so its three small crates
// build in seconds. unicode-normalization: a package name with a '-' (its crate is
// unicode_normalization) and one dependency (tinyvec), which rustc finds through `-L dependency`; and
// md5, which the reference names too: the environment's replaces it (two `--extern md5` are E0464);
// and semver, which has a build script (cargo reports it as an artifact of the package too).
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { environmentSpecSchema } from "@/lib/records/environment-spec";
import { environmentFailure } from "@/lib/runs/environment-failure";
import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import type { RunEnvironment } from "./environment";
import {
  buildEnvironment,
  type BuildResult,
  EnvironmentBuildError,
  removeEnvironmentFolder,
} from "./environment-build";
import { createLocalBackend } from "./local";
import { runSteadily } from "./steady";
import type { RunRequest } from "./types";

const backend = createLocalBackend({ isUnsafe: false, concurrency: 2, memoryLimitMb: 1024, workDir: null });
const status = await backend.isolation();
const skip = skipWithoutSandbox(status.problem ?? null);

let root = "";
let built: BuildResult;
let environment: RunEnvironment;
let buildMs = 0;

const run = (request: RunRequest) => runSteadily({ timeoutMs: 30_000, ...request }, backend.run);

const solution =
  "use unicode_normalization::UnicodeNormalization;\n\n" +
  "fn composed(text: &str) -> String {\n    text.nfc().collect()\n}\n";
// regex is the reference's own crate: it stays usable beside the environment's.
const test =
  "#[test]\nfn test_composed() {\n" +
  '    assert_eq!(composed("e\\u{301}"), "\\u{e9}");\n' +
  '    assert_eq!(format!("{:x}", md5::compute(composed("a"))), "0cc175b9c0f1b6a831c399e269772661");\n' +
  '    assert!(regex::Regex::new("^a+$").unwrap().is_match(&composed("aa")));\n' +
  '    assert_eq!(semver::Version::parse("1.2.3").unwrap().minor, 2);\n}\n';

describe.skipIf(skip)(`a dataset environment's Rust crates${skip ? ` (skipped: ${status.problem})` : ""}`, () => {
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "verity-env-rust-"));
    // The sandbox user binds the folder: it must be able to reach it.
    await chmod(root, 0o755);
    const started = Date.now();
    built = await buildEnvironment({
      spec: environmentSpecSchema.parse({ rust: ["unicode-normalization@0.1.24", "md5@0.7.0", "semver@1.0.23"] }),
      dir: join(root, "v1"),
      log: () => undefined,
    });
    buildMs = Date.now() - started;
    environment = { version: 1, hostDir: join(root, "v1"), kinds: ["rust"], javaJars: [] };
  }, 600_000);
  afterAll(async () => {
    if (root) await removeEnvironmentFolder(join(root, "v1"));
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("records every crate cargo resolved, like a lock file", () => {
    expect(built.lock.rust).toContain("unicode-normalization 0.1.24");
    expect(built.lock.rust?.some((entry) => entry.startsWith("tinyvec "))).toBe(true);
    expect(built.lock.rust?.some((entry) => entry.startsWith("verity-environment"))).toBe(false);
    console.log(`rust environment built in ${buildMs} ms, ${built.sizeBytes} bytes`);
  });

  it("a Rust record using the crate passes with it, fails on a wrong solution, and names the crate without it", async () => {
    const request = { language: "rust" as const, test };
    const passing = await run({ ...request, solution, environment });
    expect(passing.outcome, `${passing.stdout}\n${passing.stderr}`).toBe("PASSED");
    expect(passing.environmentVersion).toBe(1);
    const wrong = await run({ ...request, solution: solution.replace("nfc()", "nfd()"), environment });
    expect(wrong.outcome).not.toBe("PASSED");
    expect(environmentFailure(wrong)).toBeNull();
    const without = await run({ ...request, solution });
    expect(without.outcome).not.toBe("PASSED");
    expect(environmentFailure(without)).toMatchObject({ kind: "crate", missing: "unicode_normalization" });
  }, 300_000);

  it("a crate the registry does not have at that version fails the build with cargo's words", async () => {
    const dir = join(root, "v2");
    const failed = buildEnvironment({
      spec: environmentSpecSchema.parse({ rust: ["unicode-normalization@0.0.999"] }),
      dir,
      log: () => undefined,
    });
    await expect(failed).rejects.toBeInstanceOf(EnvironmentBuildError);
    await expect(failed).rejects.toThrow(/cargo build failed .*unicode-normalization/);
    await removeEnvironmentFolder(dir);
  }, 300_000);
});
