import { describe, expect, it } from "vitest";

import { GO_MOD, goRecipe, spliceGo } from "./go";

describe("spliceGo", () => {
  it("merges imports into one package main and drops the unused ones", () => {
    const solution =
      'package main\n\nimport (\n\t"fmt"\n\t"strings"\n)\n\nfunc Up(s string) string { return strings.ToUpper(s) }';
    const test =
      'package main\n\nimport (\n\t"testing"\n\t"strings"\n)\n\nfunc TestDemo(t *testing.T) {\n\tif Up("a") != "A" {\n\t\tt.Fail()\n\t}\n}';
    const program = spliceGo(solution, test);
    expect(program.match(/^package main$/gm)).toHaveLength(1);
    expect(program.match(/"strings"/g)).toHaveLength(1);
    expect(program).toContain('"testing"');
    // fmt is imported but never used: Go would refuse to compile it.
    expect(program).not.toContain('"fmt"');
  });

  it("keeps aliased and blank imports", () => {
    const program = spliceGo(
      'package main\nimport str "strings"\nimport _ "embed"\nfunc f() string { return str.ToLower("A") }',
      "func TestX(t *testing.T) {}",
    );
    expect(program).toContain('str "strings"');
    expect(program).toContain('_ "embed"');
  });

  it("adds a test calling the entry point when the test has no TestXxx", () => {
    const program = spliceGo(
      "package main\nfunc f() int { return 1 }",
      'package main\nfunc demoTesting() {\n\tif f() != 1 {\n\t\tpanic("x")\n\t}\n}',
    );
    expect(program).toContain("func TestSandboxEntry(t *testing.T) {\n\tdemoTesting()\n}");
    expect(program).toContain('"testing"');
  });

  it("writes a module next to main_test.go and runs go test", () => {
    const job = goRecipe.splice("package main", "package main\nfunc TestA(t *testing.T) {}");
    expect(job.files.map((file) => file.path)).toEqual(["go.mod", "main_test.go"]);
    expect(goRecipe.run.argv.slice(0, 2)).toEqual(["go", "test"]);
    expect(goRecipe.env.GOCACHE.startsWith("/job/")).toBe(true);
  });

  it("sets the language version to the installed Go 1.23 and uses its precompiled standard library", () => {
    // With `go 1.19` here, min/max and range-over-int are refused even by Go 1.23.
    expect(GO_MOD).toBe("module sandbox\n\ngo 1.23\n");
    expect(goRecipe.env.PATH.split(":")[0]).toBe("/usr/lib/go-1.23/bin");
    expect(goRecipe.env.GODEBUG).toBe("installgoroot=all");
    expect(goRecipe.env.CGO_ENABLED).toBe("0");
  });
});

describe("go classification", () => {
  it("uses the exit code of go test: a failing test or build is RUNTIME_ERROR", () => {
    const run = { exitCode: 1, timedOut: false, stdout: "--- FAIL: TestDemo", stderr: "" };
    expect(goRecipe.classify({ syntaxError: false, compile: null, run })).toBe("RUNTIME_ERROR");
    expect(goRecipe.classify({ syntaxError: false, compile: null, run: { ...run, exitCode: 0, stdout: "ok" } })).toBe(
      "PASSED",
    );
  });
});
