import { describe, expect, it } from "vitest";

import { CARGO_TOML, rustRecipe } from "./rust";

describe("rust recipe", () => {
  it("writes solution + test to src/main.rs of a dependency-free cargo project", () => {
    const job = rustRecipe.splice("fn f() -> i32 { 1 }", "#[test]\nfn t() { assert_eq!(f(), 1); }");
    expect(job.files).toEqual([
      { path: "Cargo.toml", content: CARGO_TOML },
      { path: "src/main.rs", content: "fn f() -> i32 { 1 }\n#[test]\nfn t() { assert_eq!(f(), 1); }" },
    ]);
    expect(CARGO_TOML).toMatch(/\[dependencies\]\n$/);
    expect(rustRecipe.run.argv).toContain("--offline");
  });

  it("classifies cargo test's exit code: 101 is RUNTIME_ERROR", () => {
    const run = { exitCode: 101, timedOut: false, stdout: "test result: FAILED", stderr: "" };
    expect(rustRecipe.classify({ syntaxError: false, compile: null, run })).toBe("RUNTIME_ERROR");
    expect(rustRecipe.classify({ syntaxError: false, compile: null, run: { ...run, exitCode: 0 } })).toBe("PASSED");
  });
});
