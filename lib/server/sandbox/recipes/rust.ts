import "server-only";

import { defineRecipe } from "./classify";
import { concatSplice } from "./splice-helpers";

// No dependencies: the job runs offline and there is no crate registry inside the sandbox.
export const CARGO_TOML = `[package]
name = "sandbox"
version = "0.1.0"
edition = "2021"

[dependencies]
`;

export const rustRecipe = defineRecipe({
  language: "rust",
  timeoutAllowanceMs: 10_000,
  failurePatterns: [],
  splice(solution, test) {
    const program = concatSplice(solution, test);
    return {
      files: [
        { path: "Cargo.toml", content: CARGO_TOML },
        { path: "src/main.rs", content: program },
      ],
      program,
      syntaxError: null,
    };
  },
  compile: null,
  // One step like the reference (`cargo test`): a build failure is a RUNTIME_ERROR there too.
  run: { argv: ["cargo", "test", "--offline", "--color", "never"] },
  env: {
    CARGO_HOME: "/job/.cargo",
    CARGO_TARGET_DIR: "/job/target",
    CARGO_NET_OFFLINE: "true",
    CARGO_INCREMENTAL: "0",
    RUST_BACKTRACE: "0",
  },
  toolchain: { commands: ["cargo", "rustc"], version: ["rustc", "--version"] },
  hello: {
    solution: "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    test: "#[test]\nfn test_add() {\n    assert_eq!(add(1, 2), 3);\n}\n",
  },
});
