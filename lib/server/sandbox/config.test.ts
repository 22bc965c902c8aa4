import { describe, expect, it } from "vitest";

import { readConfig } from "@/lib/server/config";

import { backendFor, describeBackends, parseRoutes } from "./config";

/** The sandbox's part of the one configuration read from `env`. */
const parseSandboxConfig = (env: Record<string, string | undefined>, cpuCount: number) =>
  readConfig(env, cpuCount).sandbox;

describe("the sandbox configuration", () => {
  it("defaults to the local backend, one job per core and 1 GiB", () => {
    const config = parseSandboxConfig({}, 4);
    expect(config).toEqual({
      defaultBackend: "local",
      acbUrl: null,
      routes: {},
      isUnsafe: false,
      concurrency: 4,
      memoryLimitMb: 1024,
      workDir: null,
      jobFolderMb: 256,
      bwrapPath: null,
      runsPerUser: 2,
      runQueue: 16,
      cgroupParent: null,
      registries: { goProxy: "https://proxy.golang.org", mavenRepository: null, cratesRegistry: null },
    });
  });

  it("builds environments from the install script's registries, never with Go's direct mode", () => {
    const registries = (env: Record<string, string>) => parseSandboxConfig(env, 2).registries;
    expect(registries({ GOPROXY: "https://goproxy.example,direct" }).goProxy).toBe("https://goproxy.example");
    expect(registries({ GOPROXY: "direct", VERITY_GOPROXY: "https://mirror.example|off" }).goProxy).toBe(
      "https://mirror.example",
    );
    expect(registries({ GOPROXY: "off" }).goProxy).toBe("https://proxy.golang.org");
    expect(registries({ VERITY_MAVEN_REPOSITORY: "https://maven.example/repo" }).mavenRepository).toBe(
      "https://maven.example/repo",
    );
    expect(registries({ VERITY_CRATES_REGISTRY: "sparse+https://crates.example/index/" }).cratesRegistry).toBe(
      "sparse+https://crates.example/index/",
    );
    expect(() => registries({ VERITY_CRATES_REGISTRY: 'sparse+https://x/" --config x' })).toThrow();
  });

  it("reads every variable", () => {
    const config = parseSandboxConfig(
      {
        VERITY_SANDBOX: "acb",
        VERITY_SANDBOX_URL: "http://sandbox:8080/",
        VERITY_SANDBOX_ROUTES: "kotlin:acb, scala:acb,python:local",
        VERITY_SANDBOX_UNSAFE: "1",
        VERITY_SANDBOX_CONCURRENCY: "3",
        VERITY_SANDBOX_MEMORY_MB: "512",
        VERITY_SANDBOX_WORKDIR: "/var/tmp/verity",
        VERITY_SANDBOX_JOB_FOLDER_MB: "64",
        VERITY_BWRAP: "/opt/bwrap",
        VERITY_RUNS_PER_USER: "3",
        VERITY_RUN_QUEUE: "0",
      },
      2,
    );
    expect(config.defaultBackend).toBe("acb");
    expect(config.acbUrl).toBe("http://sandbox:8080");
    expect(config.routes).toEqual({ kotlin: "acb", scala: "acb", python: "local" });
    expect(config.isUnsafe).toBe(true);
    expect(config.concurrency).toBe(3);
    expect(config.memoryLimitMb).toBe(512);
    expect(config.workDir).toBe("/var/tmp/verity");
    expect(config.jobFolderMb).toBe(64);
    expect(config.bwrapPath).toBe("/opt/bwrap");
    expect(config.runsPerUser).toBe(3);
    expect(config.runQueue).toBe(0);
    expect(backendFor(config, "python")).toBe("local");
    expect(backendFor(config, "ruby")).toBe("acb");
  });

  it("rejects an unknown backend, a bad URL, a zero concurrency and a tiny job folder", () => {
    expect(() => parseSandboxConfig({ VERITY_SANDBOX: "docker" }, 2)).toThrow(/VERITY_SANDBOX/);
    expect(() => parseSandboxConfig({ VERITY_SANDBOX_URL: "not a url" }, 2)).toThrow(/VERITY_SANDBOX_URL/);
    expect(() => parseSandboxConfig({ VERITY_SANDBOX_CONCURRENCY: "0" }, 2)).toThrow(/CONCURRENCY/);
    expect(() => parseSandboxConfig({ VERITY_SANDBOX_JOB_FOLDER_MB: "1" }, 2)).toThrow(/JOB_FOLDER_MB/);
  });
});

describe("parseRoutes", () => {
  it("ignores empty entries and rejects unknown languages or backends", () => {
    expect(parseRoutes(" ,kotlin:acb,")).toEqual({ kotlin: "acb" });
    expect(() => parseRoutes("cobol:acb")).toThrow(/cobol:acb/);
    expect(() => parseRoutes("kotlin:docker")).toThrow(/kotlin:docker/);
    expect(() => parseRoutes("kotlin")).toThrow(/expected language:local/);
  });
});

describe("describeBackends", () => {
  it("names the default backend and the languages routed elsewhere", () => {
    expect(describeBackends(parseSandboxConfig({}, 2))).toBe("local");
    expect(
      describeBackends(
        parseSandboxConfig(
          { VERITY_SANDBOX_URL: "http://acb:8080", VERITY_SANDBOX_ROUTES: "kotlin:acb,scala:acb,python:local" },
          2,
        ),
      ),
    ).toBe("local; acb for kotlin, scala");
  });
});
