import "server-only";

import { TOOLCHAINS_DIR } from "@/lib/server/sandbox/isolation";

import { defineRecipe } from "./classify";
import { concatSplice } from "./splice-helpers";

/**
 * The reference's Cargo project depends on these crates (and rebuilds them in every job, 8–14 s on 2
 * cores). The sandbox install builds them once into rlibs under RUST_CRATES_DIR, read-only, and
 * writes the `--extern` arguments that name them into RUST_EXTERN_ARGS (empty when the crates could
 * not be fetched).
 */
const RUST_CRATES = { rand: "0.4", regex: "1", md5: "0.7.0" } as const;
const RUST_CRATES_DIR = `${TOOLCHAINS_DIR}/rust-crates`;
export const RUST_EXTERN_ARGS = `${RUST_CRATES_DIR}/extern.args`;

/** Shown with the program: what the reference's project declares (the job itself is built by rustc). */
export const CARGO_TOML = `[package]
name = "sandbox"
version = "0.1.0"
edition = "2021"

[dependencies]
${Object.entries(RUST_CRATES)
  .map(([crate, version]) => `${crate} = "${version}"`)
  .join("\n")}
`;

/**
 * With a dataset environment's crates (SANDBOX_RUST_ENVIRONMENT, its rust/ folder: environment.ts),
 * rustc reads one argument file made in the job: the reference's arguments without the crates the
 * environment declares (two `--extern` of one name are an error, E0464; the pinned one wins), then
 * the environment's, whose paths are written under /env/rust (the host folder in unsafe mode).
 */
const RUST_ENVIRONMENT_ARGS =
  `{ [ ! -s ${RUST_EXTERN_ARGS} ] || while read -r flag && read -r value; do ` +
  '[ "$flag" = --extern ] && grep -q "^${value%%=*}=" "$SANDBOX_RUST_ENVIRONMENT/extern.args" && continue; ' +
  `printf '%s\\n%s\\n' "$flag" "$value"; done < ${RUST_EXTERN_ARGS}; ` +
  'sed "s|=/env/rust/|=$SANDBOX_RUST_ENVIRONMENT/|" "$SANDBOX_RUST_ENVIRONMENT/extern.args"; } > environment.args';

/**
 * What `cargo test` does for the job's one binary crate, without cargo: compile src/main.rs as a test
 * harness (debug assertions and overflow checks on, as in cargo's dev profile) linking the prebuilt
 * crates, then run it. One step like the reference, so a build failure is a RUNTIME_ERROR there too.
 */
const RUST_BUILD_SCRIPT =
  `set --; [ -s ${RUST_EXTERN_ARGS} ] && set -- @${RUST_EXTERN_ARGS}; ` +
  `[ -z "$SANDBOX_RUST_ENVIRONMENT" ] || { ${RUST_ENVIRONMENT_ARGS} && set -- @environment.args; }; ` +
  'rustc "$@" --edition 2021 --crate-name sandbox --crate-type bin --test -C debug-assertions=on ' +
  "-C overflow-checks=on --color never -o sandbox-test src/main.rs";
export const RUST_RUN_SCRIPT = `${RUST_BUILD_SCRIPT} && exec ./sandbox-test`;

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
  run: { argv: ["sh", "-c", RUST_RUN_SCRIPT] },
  switched: { compile: { argv: ["sh", "-c", RUST_BUILD_SCRIPT] }, run: { argv: ["./sandbox-test"] } },
  env: {
    // What cargo sets for a crate's build, for `env!("CARGO_PKG_NAME")` and the like.
    CARGO_PKG_NAME: "sandbox",
    CARGO_PKG_VERSION: "0.1.0",
    CARGO_CRATE_NAME: "sandbox",
    CARGO_MANIFEST_DIR: "/job",
    RUST_BACKTRACE: "0",
  },
  toolchain: { commands: ["rustc"], version: ["rustc", "--version"] },
  hello: {
    solution: "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    test: "#[test]\nfn test_add() {\n    assert_eq!(add(1, 2), 3);\n}\n",
  },
});
