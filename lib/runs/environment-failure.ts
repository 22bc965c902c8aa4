// Whether a failed run failed because the environment lacks something the program needs (a module,
// header, package, library or crate), read from the toolchain's own message. Pure; no server code.
// The run keeps its reference outcome name (RUNTIME_ERROR, COMPILATION_ERROR): this is a second
// reading beside it, so the conformance with the reference sandbox is untouched.

/** What is missing: a Python/JavaScript/Perl/Ruby module, a C/C++ header, a linked library, a Go/Java/R package, a Rust crate. */
export const ENVIRONMENT_FAILURE_KINDS = ["module", "header", "library", "package", "crate"] as const;
export type EnvironmentFailureKind = (typeof ENVIRONMENT_FAILURE_KINDS)[number];

export type EnvironmentFailure = { kind: EnvironmentFailureKind; missing: string };

/** The parts of a run the classifier reads; the program only for a C++ link step (see linkedLibrary). */
type FailedRun = { language: string; outcome: string; stderr: string; compileOutput: string | null; program?: string };

type Rule = { kind: EnvironmentFailureKind; pattern: RegExp; accept?: (name: string) => boolean };

// A relative or absolute path names the record's own file, not something to install.
const isPackageName = (name: string) => !/^[./]/.test(name);

// Rust's standard library's top-level modules: `use collections::HashMap;` is the record's mistake
// (it means std::collections), though rustc words it like a missing crate.
const RUST_NOT_CRATES = new Set(
  (
    "crate self super std core alloc collections fmt io cmp iter mem ops rc cell sync thread time str string vec " +
    "env fs path process convert hash borrow boxed num char slice error any marker ptr option result net ascii"
  ).split(" "),
);

const NODE_RULES: Rule[] = [
  { kind: "module", pattern: /Cannot find module '([^']+)'/, accept: isPackageName },
  { kind: "module", pattern: /Cannot find package '([^']+)'/, accept: isPackageName },
];

// Per language, the toolchain messages that name a missing dependency. Each is the toolchain's
// wording, taken from real runs (environment-failure.test.ts).
const RULES: Partial<Record<string, Rule[]>> = {
  python: [{ kind: "module", pattern: /^(?:ModuleNotFoundError|ImportError): No module named '?([\w.]+)'?/m }],
  cpp: [
    // "test.cpp:3:10: fatal error: fmt/core.h: No such file or directory": an #include (file:line:col).
    { kind: "header", pattern: /^\S+:\d+:\d+: fatal error: (\S+): No such file or directory/m },
    // GNU ld: "cannot find -lfmt: No such file or directory" (older binutils end after the name).
    { kind: "library", pattern: /cannot find -l([\w+.-]+)/ },
  ],
  go: [
    { kind: "package", pattern: /cannot find module providing package (\S+?):? / },
    { kind: "package", pattern: /no required module provides package (\S+?);/ },
  ],
  java: [{ kind: "package", pattern: /error: package ([\w.]+) does not exist/ }],
  javascript: NODE_RULES,
  typescript: NODE_RULES,
  rust: [
    { kind: "crate", pattern: /error\[E0463\]: can't find crate for `(\w+)`/ },
    // An rlib another rustc built: the environment (or the reference's crates) predates the compiler.
    { kind: "crate", pattern: /error\[E0514\]: found crate `(\w+)` compiled by an incompatible version of rustc/ },
    // A bare name (no path): `use serde_json::Value;` without the crate. A path is the record's own mistake.
    {
      kind: "crate",
      pattern: /error\[E0432\]: unresolved import `(\w+)`/,
      accept: (name) => !RUST_NOT_CRATES.has(name),
    },
  ],
  perl: [{ kind: "module", pattern: /Can't locate \S+\.pm in @INC \(you may need to install the (\S+) module\)/ }],
  ruby: [{ kind: "module", pattern: /cannot load such file -- (\S+) \(LoadError\)/, accept: isPackageName }],
  r: [{ kind: "package", pattern: /there is no package called [‘'"]([^’'"]+)[’'"]/ }],
};

// Only a program that failed to build or run can have failed for want of a dependency: a time
// limit, a wrong answer (exit 0 with failure text) or a pass says nothing of the kind.
const FAILED_OUTCOMES = new Set(["RUNTIME_ERROR", "COMPILATION_ERROR"]);

/**
 * The missing dependency a failed run names, or null when it failed for another reason (or did not
 * fail). Reads the compiler output and stderr only: what a program prints on stdout is its own.
 */
export function environmentFailure(run: FailedRun): EnvironmentFailure | null {
  if (!FAILED_OUTCOMES.has(run.outcome)) return null;
  const rules = RULES[run.language];
  if (!rules) return null;
  const text = `${run.compileOutput ?? ""}\n${run.stderr}`;
  if (run.language === "cpp" && run.program !== undefined) {
    const library = unlinkedLibrary(text, run.program);
    if (library) return { kind: "library", missing: library };
  }
  for (const rule of rules) {
    for (const match of text.matchAll(new RegExp(rule.pattern.source, `${rule.pattern.flags.replace("g", "")}g`))) {
      const name = match[1];
      if (rule.accept === undefined || rule.accept(name)) return { kind: rule.kind, missing: name };
    }
  }
  return null;
}

// The libraries of the reference image a C++ program names by its #include, as the `-l` name its
// symbols are in. A header-only library (Boost's most, Eigen, nlohmann-json) needs no link.
const LIBRARY_OF_HEADER: ReadonlyArray<[RegExp, string]> = [
  [/^openssl\//, "crypto"],
  [/^sqlite3\.h$/, "sqlite3"],
  [/^gmpxx\.h$/, "gmpxx"],
  [/^gmp\.h$/, "gmp"],
  [/^zlib\.h$/, "z"],
  [/^sodium\.h$/, "sodium"],
  [/^(?:cryptopp|crypto\+\+)\//, "cryptopp"],
  [/^gsl\//, "gsl"],
  [/^json\/json\.h$/, "jsoncpp"],
  [/^gtest\//, "gtest"],
  [
    /^boost\/(filesystem|regex|system|thread|program_options|serialization|date_time|iostreams|chrono|timer|locale)\b/,
    "boost_$1",
  ],
];

/**
 * The library a C++ link step failed for: the linker found undefined references and the program
 * includes a header of a library that must be linked (`#include <openssl/md5.h>` without
 * `-lcrypto`). Without such an include an undefined reference is the record's own mistake.
 */
function unlinkedLibrary(toolchainOutput: string, program: string): string | null {
  if (!/undefined reference to `/.test(toolchainOutput)) return null;
  for (const [, header] of program.matchAll(/^\s*#\s*include\s*<([^>]+)>/gm)) {
    for (const [pattern, library] of LIBRARY_OF_HEADER) {
      const match = pattern.exec(header);
      if (match) return library.replace("$1", match[1] ?? "");
    }
  }
  return null;
}

/** "module numpy", "header fmt/core.h", "library -lfmt": how a missing dependency is named on screen. */
export function describeMissing({ kind, missing }: EnvironmentFailure): string {
  return kind === "library" ? `library -l${missing}` : `${kind} ${missing}`;
}
