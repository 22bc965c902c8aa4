import { describe, expect, it } from "vitest";

import { LANGUAGES } from "@/lib/records/languages";

import { compareWithReference, parseVersion, REFERENCE_VERSIONS, withInstalledExtras } from "./reference-versions";

describe("parseVersion", () => {
  it("finds the version number in common version outputs", () => {
    expect(parseVersion("go version go1.23.5 linux/amd64")).toBe("1.23.5");
    expect(parseVersion("rustc 1.96.0 (ac68faa20 2026-05-25)")).toBe("1.96.0");
    expect(parseVersion("javac 17.0.15")).toBe("17.0.15");
    expect(parseVersion("v20.19.2")).toBe("20.19.2");
    expect(parseVersion("8")).toBe("8");
    expect(parseVersion("no digits")).toBeNull();
  });

  it("uses the reference entry's pattern when the first number is not the runtime's", () => {
    const output = "tsx v4.23.15\nnode v20.19.2\n";
    expect(compareWithReference("typescript", output)).toEqual({
      reference: "Node 18.20.8 (tsx)",
      local: "20.19.2",
      skew: "newer",
    });
  });
});

describe("compareWithReference", () => {
  it("flags Debian 12's Go as older than the reference's 1.24 and Go 1.24.x as the same", () => {
    expect(compareWithReference("go", "go version go1.23.5 linux/amd64").skew).toBe("older");
    expect(compareWithReference("go", "go version go1.19.8 linux/amd64").skew).toBe("older");
    expect(compareWithReference("go", "go version go1.24.1 linux/amd64").skew).toBe("same");
  });

  it("compares only the major version where the reference pins only that", () => {
    expect(compareWithReference("java", "javac 17.0.15").skew).toBe("same");
    expect(compareWithReference("javascript", "v18.19.0").skew).toBe("same");
    expect(compareWithReference("javascript", "v20.19.2").skew).toBe("newer");
  });

  it("says unknown when the reference follows the current release, publishes nothing, or nothing ran", () => {
    expect(compareWithReference("rust", "rustc 1.96.0")).toEqual({
      reference: "current stable Rust, crates rand 0.4, regex 1, md5 0.7.0",
      local: "1.96.0",
      skew: "unknown",
    });
    expect(compareWithReference("ruby", "ruby 3.1.2p20").skew).toBe("unknown");
    expect(compareWithReference("go", null)).toEqual({ reference: "Go 1.24.5", local: null, skew: "unknown" });
  });

  it("has an entry for every language", () => {
    expect(Object.keys(REFERENCE_VERSIONS).sort()).toEqual([...LANGUAGES].sort());
  });
});

describe("withInstalledExtras", () => {
  const registries = {
    junitConsoleJar: "/opt/verity/java-libs-1.11.4/lib/junit-platform-console-standalone-1.11.4.jar",
    rustExternArgs: [
      "-L",
      "dependency=/opt/verity/rust-crates/deps",
      "--extern",
      "rand=/opt/verity/rust-crates/deps/librand-1.rlib",
      "--extern",
      "regex=/opt/verity/rust-crates/deps/libregex-2.rlib",
      "--extern",
      "md5=/opt/verity/rust-crates/deps/libmd5-3.rlib",
    ].join("\n"),
  };
  // What sandbox-install.sh leaves when Maven Central and crates.io cannot be reached.
  const fallback = { junitConsoleJar: "/usr/share/java/junit-platform-console-standalone.jar", rustExternArgs: "" };

  it("leaves Java and Rust as they are with the registries' JUnit console and crates", () => {
    const java = compareWithReference("java", "javac 17.0.15");
    expect(withInstalledExtras("java", java, registries)).toEqual(java);
    const rust = compareWithReference("rust", "rustc 1.96.0");
    expect(withInstalledExtras("rust", rust, registries)).toEqual(rust);
  });

  it("makes Java older than the reference on Debian's JUnit console, and says so", () => {
    const result = withInstalledExtras("java", compareWithReference("java", "javac 17.0.15"), fallback);
    expect(result.skew).toBe("older");
    expect(result.note).toMatch(/Debian's junit5.*not the reference's 1\.11\.4/);
    const versioned = { ...fallback, junitConsoleJar: "/usr/share/java/junit-platform-console-standalone-1.9.1.jar" };
    expect(withInstalledExtras("java", compareWithReference("java", "javac 17"), versioned).note).toMatch(
      /^JUnit console 1\.9 /,
    );
  });

  it("makes Rust older than the reference without the prebuilt crates, naming the missing ones", () => {
    const none = withInstalledExtras("rust", compareWithReference("rust", "rustc 1.96.0"), fallback);
    expect(none.skew).toBe("older");
    expect(none.note).toMatch(/^no prebuilt crates rand, regex, md5: records that use them fail to build/);
    const onlyRand = { ...fallback, rustExternArgs: "--extern\nrand=/x/librand.rlib" };
    expect(withInstalledExtras("rust", compareWithReference("rust", "rustc 1.96"), onlyRand).note).toMatch(
      /^no prebuilt crates regex, md5:/,
    );
  });

  it("does not touch other languages", () => {
    const go = compareWithReference("go", "go version go1.23.5 linux/amd64");
    expect(withInstalledExtras("go", go, fallback)).toEqual(go);
  });
});
