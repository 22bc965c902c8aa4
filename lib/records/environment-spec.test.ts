import { describe, expect, it } from "vitest";

import { describeSpec, entriesFromLines, environmentSpecSchema, kindsOf } from "./environment-spec";

describe("a dataset's environment spec", () => {
  it("takes pinned entries of every kind and names the kinds used", () => {
    const spec = environmentSpecSchema.parse({
      python: ["numpy==1.26.4", "scikit-learn==1.5.2"],
      npm: ["js-md5@0.8.3", "@types/node@20.11.0"],
      go: ["github.com/stretchr/testify@v1.8.0"],
      maven: ["com.google.guava:guava:33.3.1-jre"],
      debian: ["libssl-dev=3.0.17-1~deb12u2"],
      rust: ["serde_json@1.0.128", "unicode-normalization@0.1.24", "semver@1.0.0-rc.1"],
    });
    expect(kindsOf(spec)).toEqual(["python", "npm", "go", "maven", "debian", "rust"]);
    expect(describeSpec(environmentSpecSchema.parse({ go: ["github.com/stretchr/testify@v1.8.0"] }))).toBe(
      "go: github.com/stretchr/testify@v1.8.0",
    );
  });

  it("refuses an unpinned entry, naming the form it expects", () => {
    const result = environmentSpecSchema.safeParse({ python: ["numpy"] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toContain("name==version");
    expect(environmentSpecSchema.safeParse({ go: ["github.com/stretchr/testify"] }).success).toBe(false);
  });

  it("takes a Rust crate at one exact crates.io version only, naming the entry it refuses", () => {
    // Cargo reads "1.0" or "^1" as a range: the build must resolve what was declared, nothing newer.
    for (const entry of [
      "serde_json",
      "serde_json@1.0",
      "serde_json@^1.0.128",
      "serde_json@=1.0.128",
      "serde_json@*",
    ]) {
      const result = environmentSpecSchema.safeParse({ rust: [entry] });
      expect(result.success, entry).toBe(false);
      expect(result.error?.issues[0].message).toContain(`"${entry}" is not name@version`);
    }
  });

  it("refuses anything a package manager could read as an option or a path", () => {
    for (const entry of ["--index-url=http://evil==1", "-e==1", "../x==1", "a b==1"])
      expect(environmentSpecSchema.safeParse({ python: [entry] }).success, entry).toBe(false);
    expect(environmentSpecSchema.safeParse({ npm: ["--registry=http://x@1"] }).success).toBe(false);
    expect(environmentSpecSchema.safeParse({ debian: ["-oAPT::x=1"] }).success).toBe(false);
    expect(environmentSpecSchema.safeParse({ maven: ["../../etc:passwd:1"] }).success).toBe(false);
    // A crate's name becomes a key of the build's Cargo.toml and its version a quoted string.
    for (const entry of ["--config=x@1.0.0", 'a"b@1.0.0', 'a@1.0.0"', "a.b@1.0.0", "_a@1.0.0"])
      expect(environmentSpecSchema.safeParse({ rust: [entry] }).success, entry).toBe(false);
  });

  it("refuses an empty spec, a kind it does not know and a duplicate", () => {
    expect(environmentSpecSchema.safeParse({}).success).toBe(false);
    expect(environmentSpecSchema.safeParse({ cabal: ["text-2.1"] }).success).toBe(false);
    expect(environmentSpecSchema.safeParse({ npm: ["a@1.0.0", "a@1.0.0"] }).success).toBe(false);
  });

  it("reads a text area's lines without blanks and comments", () => {
    expect(entriesFromLines("numpy==1.26.4\n\n  # for the stats tasks\npandas==2.2.3  # pinned\r\n")).toEqual([
      "numpy==1.26.4",
      "pandas==2.2.3",
    ]);
  });
});
