import { afterEach, describe, expect, it, vi } from "vitest";

import { skipWithoutSandbox } from "./sandbox-gate";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("skipWithoutSandbox", () => {
  it("runs the test when nothing is missing", () => {
    vi.stubEnv("CI", "true");
    expect(skipWithoutSandbox(null)).toBe(false);
    expect(skipWithoutSandbox("")).toBe(false);
  });

  it("skips on a developer's machine", () => {
    vi.stubEnv("CI", "");
    expect(skipWithoutSandbox("bubblewrap is not installed")).toBe(true);
    vi.stubEnv("CI", "false");
    expect(skipWithoutSandbox("go is not installed", "go")).toBe(true);
  });

  it("fails in CI when bubblewrap or an installable toolchain is missing", () => {
    vi.stubEnv("CI", "true");
    expect(() => skipWithoutSandbox("bubblewrap is not installed")).toThrow(
      /CI=true.*bubblewrap is not installed.*sandbox:install/,
    );
    expect(() => skipWithoutSandbox("go is not installed", "go")).toThrow(/go is not installed/);
  });

  it("still skips in CI a language that sandbox:install has no toolchain for", () => {
    vi.stubEnv("CI", "true");
    expect(skipWithoutSandbox("swift is not installed", "swift")).toBe(true);
    expect(skipWithoutSandbox("dotnet is not installed", "csharp")).toBe(true);
  });

  it("fails in CI when Kotlin or Scala, installed from Maven Central, is missing", () => {
    vi.stubEnv("CI", "true");
    expect(() => skipWithoutSandbox("kotlinc is not installed", "kotlin")).toThrow(/kotlinc/);
    expect(() => skipWithoutSandbox("scala is not installed", "scala")).toThrow(/scala/);
  });
});
