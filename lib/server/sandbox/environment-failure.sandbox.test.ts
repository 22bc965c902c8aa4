import { describe, expect, it } from "vitest";

import type { Language } from "@/lib/records/languages";
import { environmentFailure } from "@/lib/runs/environment-failure";
import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import { createLocalBackend } from "./local";
import { runSteadily } from "./steady";

// Records that need something this sandbox does not have, run for real: the toolchain's own words
// must still read as an environment failure (a new compiler that words it differently fails here),
// while the outcome stays the reference sandbox's name. And a record's own mistakes must not.
const MISSING: {
  language: Language;
  solution: string;
  test: string;
  outcome: string;
  kind: string;
  missing: string;
}[] = [
  {
    language: "python",
    solution: "import networkx_verity_absent\n\ndef f():\n    return 1\n",
    test: "assert f() == 1\n",
    outcome: "RUNTIME_ERROR",
    kind: "module",
    missing: "networkx_verity_absent",
  },
  {
    language: "cpp",
    solution: '#include <fmt/core.h>\n#include <string>\n\nstd::string f() { return fmt::format("{}", 1); }\n',
    test: '#include <cassert>\nint main() {\n    assert(f() == "1");\n    return 0;\n}\n',
    outcome: "COMPILATION_ERROR",
    kind: "header",
    missing: "fmt/core.h",
  },
  {
    language: "go",
    solution: 'package main\n\nimport "github.com/google/uuid"\n\nfunc NewID() string { return uuid.NewString() }\n',
    test: 'package main\n\nimport "testing"\n\nfunc TestID(t *testing.T) {\n\tif NewID() == "" {\n\t\tt.Fatal("empty")\n\t}\n}\n',
    outcome: "RUNTIME_ERROR",
    kind: "package",
    missing: "github.com/google/uuid",
  },
  {
    language: "java",
    solution:
      "import com.fasterxml.jackson.databind.ObjectMapper;\n\npublic class Codec {\n    public String encode(Object o) throws Exception { return new ObjectMapper().writeValueAsString(o); }\n}\n",
    test: 'import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nclass CodecTest {\n    @Test\n    public void encodes() throws Exception { assertEquals("1", new Codec().encode(1)); }\n}\n',
    outcome: "COMPILATION_ERROR",
    kind: "package",
    missing: "com.fasterxml.jackson.databind",
  },
  {
    language: "javascript",
    solution: 'const _ = require("lodash");\nfunction chunk(xs, n) { return _.chunk(xs, n); }\n',
    test: 'const assert = require("assert");\nassert.deepStrictEqual(chunk([1, 2, 3], 2), [[1, 2], [3]]);\n',
    outcome: "RUNTIME_ERROR",
    kind: "module",
    missing: "lodash",
  },
  {
    language: "rust",
    solution: "use serde_json::Value;\npub fn parse(s: &str) -> Value { serde_json::from_str(s).unwrap() }\n",
    test: '#[test]\nfn parses() { assert!(parse("1").is_number()); }\n',
    outcome: "RUNTIME_ERROR",
    kind: "crate",
    missing: "serde_json",
  },
  {
    language: "ruby",
    solution: 'require "nokogiri"\n\ndef f\n  1\nend\n',
    test: 'raise "wrong" unless f == 1\n',
    outcome: "RUNTIME_ERROR",
    kind: "module",
    missing: "nokogiri",
  },
];

// The record's own mistakes, worded close to a missing dependency: never the environment's.
const OWN: { language: Language; solution: string; test: string }[] = [
  {
    language: "python",
    solution: "from numpy import no_such_function\n\ndef f():\n    return 1\n",
    test: "assert f() == 1\n",
  },
  {
    language: "rust",
    solution: "use std::collections::HashMapp;\npub fn f() -> i32 { 1 }\n",
    test: "#[test]\nfn t() { assert_eq!(f(), 1); }\n",
  },
  {
    language: "go",
    solution: 'package main\n\nimport "strngs"\n\nfunc F() string { return strngs.ToUpper("a") }\n',
    test: 'package main\n\nimport "testing"\n\nfunc TestF(t *testing.T) {\n\tif F() != "A" {\n\t\tt.Fatal("wrong")\n\t}\n}\n',
  },
];

const backend = createLocalBackend({ isUnsafe: false, concurrency: 2, memoryLimitMb: 1024, workDir: null });
const status = await backend.isolation();
const isSkipped = skipWithoutSandbox(status.problem);

describe("a run that fails for want of a dependency, in the real toolchains", () => {
  it.skipIf(isSkipped).each(MISSING)(
    "$language: $kind $missing",
    async ({ language, solution, test, outcome, kind, missing }) => {
      const result = await runSteadily({ language, solution, test, timeoutMs: 30_000 }, backend.run);
      expect(result.outcome, `${result.stderr}\n${result.compileOutput ?? ""}`).toBe(outcome);
      expect(environmentFailure(result)).toEqual({ kind, missing });
    },
    300_000,
  );

  it.skipIf(isSkipped).each(OWN)(
    "$language: the record's own mistake is not the environment's",
    async ({ language, solution, test }) => {
      const result = await runSteadily({ language, solution, test, timeoutMs: 30_000 }, backend.run);
      expect(result.outcome).not.toBe("PASSED");
      expect(environmentFailure(result), `${result.stderr}\n${result.compileOutput ?? ""}`).toBeNull();
    },
    300_000,
  );
});
