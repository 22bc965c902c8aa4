import "server-only";

import type { SandboxLanguage } from "@/lib/server/sandbox/types";

import { defineRecipe } from "./classify";
import { concatSplice } from "./splice-helpers";
import type { Recipe } from "./types";

type SimpleSpec = {
  language: SandboxLanguage;
  file: string;
  /** The interpreter command; the file name is appended. */
  interpreter: readonly string[];
  /** Joins solution and test into the one file; "solution + newline + test" unless the language needs more. */
  splice?: (solution: string, test: string) => string;
  /** Output texts that fail a run with exit code 0 (the reference's `error_check`); most languages have none. */
  failurePatterns?: readonly string[];
  timeoutAllowanceMs?: number;
  env?: Record<string, string>;
  /** Commands the toolchain check looks for; the interpreter alone unless it needs others (e.g. java). */
  commands?: readonly string[];
  version: readonly string[];
  hello: { solution: string; test: string };
  switched?: Recipe["switched"];
};

/** Builds a recipe for a language run as one spliced script file by one interpreter, with no compile step. */
export function simpleRecipe(spec: SimpleSpec): Recipe {
  const splice = spec.splice ?? concatSplice;
  return defineRecipe({
    language: spec.language,
    timeoutAllowanceMs: spec.timeoutAllowanceMs ?? 0,
    failurePatterns: spec.failurePatterns ?? [],
    splice(solution, test) {
      const program = splice(solution, test);
      return { files: [{ path: spec.file, content: program }], program, syntaxError: null };
    },
    compile: null,
    run: { argv: [...spec.interpreter, spec.file] },
    env: spec.env ?? {},
    toolchain: { commands: spec.commands ?? [spec.interpreter[0]], version: spec.version },
    hello: spec.hello,
    ...(spec.switched ? { switched: spec.switched } : {}),
  });
}

/** The reference image's Python libraries (scripts/sandbox-install.sh links the installed version here). */
const PYTHON_LIBS_DIR = "/opt/verity/python-libs";

export const pythonRecipe = simpleRecipe({
  language: "python",
  file: "test.py",
  interpreter: ["python3"],
  // Bytecode caches would land in the job folder and are useless for a one-shot run. PYTHONPATH: the
  // reference image's libraries (numpy, pandas, …), installed read-only by the sandbox install.
  env: { PYTHONDONTWRITEBYTECODE: "1", PYTHONIOENCODING: "utf-8", PYTHONPATH: PYTHON_LIBS_DIR },
  version: ["python3", "--version"],
  hello: { solution: "def add(a, b):\n    return a + b\n", test: "assert add(1, 2) == 3\n" },
});

export const shellRecipe = simpleRecipe({
  language: "shell",
  file: "test.sh",
  interpreter: ["bash"],
  version: ["bash", "--version"],
  hello: {
    solution: "add() {\n  echo $(( $1 + $2 ))\n}\n",
    test: '[ "$(add 1 2)" = "3" ] || exit 1\n',
  },
});

export const elixirRecipe = simpleRecipe({
  language: "elixir",
  file: "test.ex",
  interpreter: ["elixir"],
  version: ["elixir", "--short-version"],
  hello: {
    solution: "defmodule Hello do\n  def add(a, b), do: a + b\nend\n",
    test: "3 = Hello.add(1, 2)\n",
  },
});

export const juliaRecipe = simpleRecipe({
  language: "julia",
  file: "test.jl",
  interpreter: ["julia"],
  // Keep the user depot in the job folder but still see system-wide packages (trailing colon).
  env: { JULIA_DEPOT_PATH: "/job/.julia:" },
  version: ["julia", "--version"],
  hello: { solution: "add(a, b) = a + b\n", test: "@assert add(1, 2) == 3\n" },
});

export const perlRecipe = simpleRecipe({
  language: "perl",
  file: "test.pl",
  interpreter: ["perl"],
  version: ["perl", "-e", 'print "perl $^V\\n"'],
  hello: {
    solution: "sub add { my ($a, $b) = @_; return $a + $b; }\n",
    test: 'die "add is wrong\\n" unless add(1, 2) == 3;\n',
  },
});

export const rRecipe = simpleRecipe({
  language: "r",
  file: "test.r",
  interpreter: ["Rscript"],
  version: ["Rscript", "--version"],
  hello: { solution: "add <- function(a, b) a + b\n", test: "stopifnot(add(1, 2) == 3)\n" },
});

export const rubyRecipe = simpleRecipe({
  language: "ruby",
  file: "test.rb",
  interpreter: ["ruby"],
  version: ["ruby", "--version"],
  hello: {
    solution: "def add(a, b)\n  a + b\nend\n",
    test: 'raise "add is wrong" unless add(1, 2) == 3\n',
  },
});
