import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CONFORMANCE_TIMEOUT_MS, parseConformanceLines, runConformance, summarizeLanguage } from "./conformance";
import type { RunRequest, SandboxResult } from "./types";

const line = (id: string, language: string, solution: string, reference: string) =>
  JSON.stringify({ id, language, solution, test: "t", reference_outcome: reference });

describe("parseConformanceLines", () => {
  it("reads valid lines and names the file and line of a bad one", () => {
    expect(parseConformanceLines(`${line("a", "ruby", "x", "PASSED")}\n\n`, "f.jsonl")).toHaveLength(1);
    expect(() => parseConformanceLines(`${line("a", "cobol", "x", "PASSED")}`, "f.jsonl")).toThrow(
      /f\.jsonl:1: language/,
    );
    expect(() => parseConformanceLines("{", "g.jsonl")).toThrow(/g\.jsonl:1: not JSON/);
  });
});

describe("summarizeLanguage", () => {
  it("computes PASSED-vs-not and exact agreement and lists mismatches", () => {
    const summary = summarizeLanguage(
      "php",
      5,
      [
        { id: "1", expected: "PASSED", got: "PASSED", stderrHead: "" },
        { id: "2", expected: "RUNTIME_ERROR", got: "WRONG_ANSWER", stderrHead: "x" },
        { id: "3", expected: "PASSED", got: "RUNTIME_ERROR", stderrHead: "y" },
        { id: "4", expected: "SYNTAX_ERROR", got: "SYNTAX_ERROR", stderrHead: "" },
      ],
      null,
    );
    expect(summary.ran).toBe(4);
    expect(summary.passAgreement).toBe(0.75);
    expect(summary.exactAgreement).toBe(0.5);
    expect(summary.mismatches.map((item) => item.id)).toEqual(["2", "3"]);
  });

  it("has no agreement figures when nothing ran", () => {
    const summary = summarizeLanguage("swift", 3, [], "toolchain not found");
    expect(summary).toMatchObject({
      cases: 3,
      ran: 0,
      passAgreement: null,
      exactAgreement: null,
      unavailable: "toolchain not found",
    });
  });
});

describe("runConformance", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "conformance-test-"));
    await writeFile(
      join(dir, "ruby.jsonl"),
      [
        line("ruby-1", "ruby", "ok", "PASSED"),
        line("ruby-2", "ruby", "bad", "RUNTIME_ERROR"),
        line("ruby-3", "ruby", "throw", "PASSED"),
      ].join("\n"),
    );
    await writeFile(join(dir, "swift.jsonl"), line("swift-1", "swift", "ok", "PASSED"));
    await writeFile(join(dir, "notes.txt"), "ignored");
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const fakeRun = async (request: RunRequest): Promise<SandboxResult> => {
    if (request.solution === "throw") throw new Error("backend down");
    return {
      outcome: request.solution === "ok" ? "PASSED" : "WRONG_ANSWER",
      exitCode: 0,
      signal: null,
      stdout: "",
      stderr: "assert failed",
      compileOutput: null,
      timeMs: 1,
      memoryKb: null,
      limit: null,
      stdoutTruncated: false,
      stderrTruncated: false,
      program: "",
      backend: "local",
      language: request.language,
    };
  };

  it("runs available languages, lists unavailable ones and reports progress", async () => {
    const progress: string[] = [];
    const report = await runConformance({
      dir,
      run: fakeRun,
      availability: async (language) =>
        language === "swift"
          ? { available: false, backend: "local", reason: "no swift" }
          : { available: true, backend: "local" },
      onProgress: (item) => progress.push(`${item.language}:${item.done}/${item.total}`),
    });
    expect(report.languages.swift).toMatchObject({ cases: 1, ran: 0, unavailable: "no swift" });
    const ruby = report.languages.ruby;
    expect(ruby?.ran).toBe(3);
    expect(ruby?.passAgreement).toBeCloseTo(2 / 3);
    expect(ruby?.exactAgreement).toBeCloseTo(1 / 3);
    expect(ruby?.mismatches).toEqual([
      { id: "ruby-2", expected: "RUNTIME_ERROR", got: "WRONG_ANSWER", stderrHead: "assert failed" },
      { id: "ruby-3", expected: "PASSED", got: "INTERNAL_ERROR", stderrHead: "backend down" },
    ]);
    expect(progress.at(-1)).toBe("ruby:3/3");
  });

  it("runs with the reference tools' 30 s time limit unless told otherwise", async () => {
    const seen: Array<number | undefined> = [];
    const recordingRun = async (request: RunRequest) => {
      seen.push(request.timeoutMs);
      return fakeRun(request);
    };
    const availability = async () => ({ available: true, backend: "local" as const });
    await runConformance({ dir, language: "swift", run: recordingRun, availability });
    await runConformance({ dir, language: "swift", run: recordingRun, availability, timeoutMs: 5_000 });
    expect(seen).toEqual([30_000, 5_000]);
    expect(CONFORMANCE_TIMEOUT_MS).toBe(30_000);
  });

  it("filters by language", async () => {
    const report = await runConformance({
      dir,
      language: "swift",
      run: fakeRun,
      availability: async () => ({ available: true, backend: "local" }),
    });
    expect(Object.keys(report.languages)).toEqual(["swift"]);
  });
});
