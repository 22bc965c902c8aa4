import { describe, expect, it } from "vitest";

import { GO_ROOT, GO_RUN_SCRIPT, goRecipe, spliceGo } from "./go";

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

  it("does not count a package named in a comment or a string as used", () => {
    // HumanEval-X Go/158: "accepts a list of strings." in its comment kept "strings" in, and Go
    // refused the unused import.
    const program = spliceGo(
      'import (\n\t"sort"\n\t"strings"\n\t"fmt"\n)\n// accepts a list of strings.\nfunc F(w []string) string { sort.Strings(w); return "fmt.Sprint" + `strings.x` }',
      "func TestF(t *testing.T) {}",
    );
    expect(program).toContain('"sort"');
    expect(program).not.toContain('"strings"');
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

  it("writes main_test.go; the run writes go.mod for the Go that runs it, then runs go test", () => {
    const job = goRecipe.splice("package main", "package main\nfunc TestA(t *testing.T) {}");
    expect(job.files.map((file) => file.path)).toEqual(["main_test.go"]);
    expect(goRecipe.run.argv).toEqual(["sh", "-c", GO_RUN_SCRIPT]);
    expect(GO_RUN_SCRIPT).toContain("go env GOVERSION");
    expect(GO_RUN_SCRIPT).toMatch(/> go\.mod && .* && exec go test -count=1 \.$/);
    // Vet's facts about the standard library come from the install's read-only seed, copied into the
    // job's own cache (seconds per run otherwise).
    expect(GO_RUN_SCRIPT).toMatch(/^mkdir -p "\$GOCACHE" && \{ \[ ! -d \/opt\/verity\/go-cache-seed \] \|\| cp -r /);
    expect(goRecipe.env.GOCACHE.startsWith("/job/")).toBe(true);
  });

  it("puts the install's Go (1.24.5) first on PATH and uses its precompiled standard library", () => {
    expect(goRecipe.env.PATH.split(":")[0]).toBe(`${GO_ROOT}/bin`);
    expect(goRecipe.env.GODEBUG).toBe("installgoroot=all");
    expect(goRecipe.env.CGO_ENABLED).toBe("0");
    expect(goRecipe.env.GOTOOLCHAIN).toBe("local");
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
