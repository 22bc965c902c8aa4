import { describe, expect, it } from "vitest";

import { CARGO_TOML, RUST_EXTERN_ARGS, RUST_RUN_SCRIPT, rustRecipe } from "./rust";

describe("rust recipe", () => {
  it("writes solution + test to src/main.rs next to the reference's Cargo.toml", () => {
    const job = rustRecipe.splice("fn f() -> i32 { 1 }", "#[test]\nfn t() { assert_eq!(f(), 1); }");
    expect(job.files).toEqual([
      { path: "Cargo.toml", content: CARGO_TOML },
      { path: "src/main.rs", content: "fn f() -> i32 { 1 }\n#[test]\nfn t() { assert_eq!(f(), 1); }" },
    ]);
    expect(CARGO_TOML).toMatch(/\[dependencies\]\nrand = "0\.4"\nregex = "1"\nmd5 = "0\.7\.0"\n$/);
  });

  it("builds only the job's crate as a test harness, linking the prebuilt crates, then runs it", () => {
    expect(rustRecipe.run.argv).toEqual(["sh", "-c", RUST_RUN_SCRIPT]);
    expect(RUST_RUN_SCRIPT).toContain(`[ -s ${RUST_EXTERN_ARGS} ] && set -- @${RUST_EXTERN_ARGS}`);
    expect(RUST_RUN_SCRIPT).toMatch(/rustc "\$@" .*--test .*src\/main\.rs && exec \.\/sandbox-test$/);
    expect(RUST_RUN_SCRIPT).not.toContain("cargo");
  });

  it("classifies cargo test's exit code: 101 is RUNTIME_ERROR", () => {
    const run = { exitCode: 101, timedOut: false, stdout: "test result: FAILED", stderr: "" };
    expect(rustRecipe.classify({ syntaxError: false, compile: null, run })).toBe("RUNTIME_ERROR");
    expect(rustRecipe.classify({ syntaxError: false, compile: null, run: { ...run, exitCode: 0 } })).toBe("PASSED");
  });
});
