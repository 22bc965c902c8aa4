import { describe, expect, it } from "vitest";

import { checkPhpSyntax, phpRecipe, splicePhp } from "./php";

describe("splicePhp", () => {
  it("keeps one leading <?php, drops ?> from the solution and <?php from the test", () => {
    const program = splicePhp("<?php\nfunction f() { return 1; }\n?>", "<?php\nassert(f() === 1);\n?>");
    expect(program).toBe("<?php\nfunction f() { return 1; }\nassert(f() === 1);\n?>\n");
    expect(checkPhpSyntax(program)).toBeNull();
  });

  it("adds <?php when the solution has none", () => {
    expect(splicePhp("function f() {}", "f();\n?>").startsWith("<?php\nfunction f() {}")).toBe(true);
  });
});

describe("checkPhpSyntax", () => {
  it("refuses a test that does not end with ?>", () => {
    expect(checkPhpSyntax("<?php\necho 1;\n")).toMatch(/\?>/);
  });

  it("refuses a first line with code after <?php and a second <?php tag", () => {
    expect(checkPhpSyntax("<?php echo 1;\n?>")).toMatch(/first line/);
    expect(checkPhpSyntax("<?php\necho '<?php';\n?>")).toMatch(/exactly one/);
  });

  it("gives SYNTAX_ERROR through the recipe", () => {
    const job = phpRecipe.splice("<?php\nfunction f() {}", "f();");
    expect(job.syntaxError).not.toBeNull();
    expect(phpRecipe.classify({ syntaxError: true, compile: null, run: null })).toBe("SYNTAX_ERROR");
  });

  it("classifies 'failed' as WRONG_ANSWER and a fatal error as RUNTIME_ERROR", () => {
    const run = (stdout: string, exitCode: number) => ({ exitCode, timedOut: false, stdout, stderr: "" });
    expect(phpRecipe.classify({ syntaxError: false, compile: null, run: run("Test failed", 0) })).toBe("WRONG_ANSWER");
    expect(
      phpRecipe.classify({ syntaxError: false, compile: null, run: run("PHP Fatal error: Uncaught Exception", 255) }),
    ).toBe("RUNTIME_ERROR");
    expect(phpRecipe.run.argv).toEqual(["php", "-d", "zend.assertions=1", "test.php"]);
  });
});
