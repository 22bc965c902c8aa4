import { describe, expect, it } from "vitest";

import { LANGUAGES } from "@/lib/records/languages";

import { compareWithReference, parseVersion, REFERENCE_VERSIONS } from "./reference-versions";

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
