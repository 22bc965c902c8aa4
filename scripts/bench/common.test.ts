import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it, vi } from "vitest";

import {
  benchJson,
  chooseAppPorts,
  choosePort,
  freePort,
  startBenchRun,
  writeBenchmarkSection,
  writeBenchmarkSubsection,
} from "./common";

/** Listens on `port` on loopback, then closes: resolves true when nothing else held it. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

describe("freePort", () => {
  it("gives a port above the well-known ones that can be listened on at once", async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(1024);
    expect(port).toBeLessThanOrEqual(65535);
    expect(await canListen(port)).toBe(true);
  });

  it("never gives a port something is listening on", async () => {
    const held = createServer();
    await new Promise<void>((resolve) => held.listen(0, "127.0.0.1", resolve));
    const heldPort = (held.address() as { port: number }).port;
    try {
      const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
      expect(ports).not.toContain(heldPort);
    } finally {
      held.close();
    }
  });
});

describe("choosePort", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("takes the flag before the environment, and the environment before a free port", async () => {
    vi.stubEnv("VERITY_BENCH_TEST_PORT", "4321");
    expect(await choosePort("1234", "VERITY_BENCH_TEST_PORT")).toBe(1234);
    expect(await choosePort(undefined, "VERITY_BENCH_TEST_PORT")).toBe(4321);
    vi.stubEnv("VERITY_BENCH_TEST_PORT", "");
    expect(await canListen(await choosePort(undefined, "VERITY_BENCH_TEST_PORT"))).toBe(true);
  });

  it("refuses a value that is not a port, naming where it came from", async () => {
    await expect(choosePort("70000", "VERITY_BENCH_TEST_PORT")).rejects.toThrow(/port flag.*70000/);
    vi.stubEnv("VERITY_BENCH_TEST_PORT", "abc");
    await expect(choosePort(undefined, "VERITY_BENCH_TEST_PORT")).rejects.toThrow(/VERITY_BENCH_TEST_PORT.*abc/);
  });

  it("gives two app instances two different free ports, or consecutive ones after --app-port", async () => {
    vi.stubEnv("VERITY_BENCH_APP_PORT", "");
    const [first, second] = await chooseAppPorts({}, 2);
    expect(first).not.toBe(second);
    expect(await chooseAppPorts({ "app-port": "5100" }, 2)).toEqual([5100, 5101]);
  });
});

describe("--json", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("puts the figures, the machine and the load before and after in one JSON line", () => {
    const line = benchJson(
      "bench:report",
      { report: { p50: 120.5, p95: 290 } },
      { machine: { cpu: "Test CPU", cores: 2, memory: "4.0 GiB", node: "v20" }, load: { before: 1.5, after: 2 } },
    );
    expect(line).not.toContain("\n");
    expect(JSON.parse(line)).toEqual({
      benchmark: "bench:report",
      report: { p50: 120.5, p95: 290 },
      machine: { cpu: "Test CPU", cores: 2, memory: "4.0 GiB", node: "v20" },
      load: { before: 1.5, after: 2 },
    });
  });

  it("prints the JSON object as the last line of standard output, the machine and load on standard error", () => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => void stdout.push(line));
    vi.spyOn(console, "error").mockImplementation((line: string) => void stderr.push(line));
    const run = startBenchRun("bench:test", { json: true });
    console.log("| a table | of figures |");
    run.finish({ nextItemReady: { p50: 100, p95: 200 } });

    const last = JSON.parse(stdout.at(-1) ?? "");
    expect(last.nextItemReady).toEqual({ p50: 100, p95: 200 });
    expect(last.machine.cores).toBeGreaterThan(0);
    expect(last.machine.cpu).not.toBe("");
    expect(typeof last.load.before).toBe("number");
    expect(typeof last.load.after).toBe("number");
    expect(stderr.join("\n")).toMatch(/cores.*1-minute load at the start [\d.]+/);
    expect(stderr.join("\n")).toMatch(/1-minute load at the end [\d.]+/);
  });

  it("prints no JSON without --json", () => {
    const stdout: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => void stdout.push(line));
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    startBenchRun("bench:test", { json: false }).finish({ figure: 1 });
    expect(stdout).toEqual([]);
  });
});

describe("docs/benchmarks.md's issue sections", () => {
  const doc = [
    "# Benchmarks",
    "",
    "## Current figures",
    "",
    "| figure |",
    "",
    "## Report",
    "",
    "old report",
    "",
    "## Issue sections",
    "",
    "## Issue 40",
    "",
    "the lead's",
    "",
  ].join("\n");

  function withDoc(run: (path: string) => void): string {
    const dir = mkdtempSync(join(tmpdir(), "bench-doc-"));
    try {
      const path = join(dir, "benchmarks.md");
      writeFileSync(path, doc);
      run(path);
      return readFileSync(path, "utf8");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("adds a benchmark's new section above the issue sections, which stay last", () => {
    const text = withDoc((path) => {
      writeBenchmarkSection("## Workspace", "## Workspace\n\nnew figures\n", path);
      writeBenchmarkSubsection("## Scale-out", "### Open loop", "### Open loop\n\nopen figures\n", path);
    });
    expect(text.indexOf("## Workspace")).toBeLessThan(text.indexOf("## Issue sections"));
    expect(text.indexOf("### Open loop")).toBeLessThan(text.indexOf("## Issue sections"));
    expect(text.indexOf("## Scale-out")).toBeLessThan(text.indexOf("### Open loop"));
    expect(text.trimEnd().endsWith("## Issue 40\n\nthe lead's")).toBe(true);
  });

  it("replaces an existing section in place", () => {
    const text = withDoc((path) => writeBenchmarkSection("## Report", "## Report\n\nnew report\n", path));
    expect(text).toContain("new report");
    expect(text).not.toContain("old report");
    expect(text.indexOf("## Report")).toBeLessThan(text.indexOf("## Issue sections"));
  });
});
