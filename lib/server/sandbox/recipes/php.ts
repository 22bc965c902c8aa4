import "server-only";

import { defineRecipe } from "./classify";
import { splitLines } from "./splice-helpers";

/** Splices PHP: `?>` dropped from the solution, one leading `<?php`, the test's `<?php` removed. */
export function splicePhp(solution: string, test: string): string {
  let head = solution.replaceAll("?>", "").trim();
  if (!head.startsWith("<?php")) head = `<?php\n${head}`;
  const tail = test.replaceAll("<?php", "").trim();
  return `${head}\n${tail}\n`;
}

/**
 * The reference's PHP syntax gate: exactly one `<?php`, alone on the first line, and a last line that
 * is `?>`. Returns why the program is refused, or null. Tests without a closing `?>` fail here.
 */
export function checkPhpSyntax(program: string): string | null {
  const openTags = program.match(/<\?php/g)?.length ?? 0;
  if (openTags !== 1) return `expected exactly one "<?php" tag, found ${openTags}`;
  const lines = splitLines(program);
  if (!/^<\?php\s*$/.test(lines[0] ?? "")) return 'the first line must be "<?php" alone';
  const last = lines.at(-1) === "" ? lines.at(-2) : lines.at(-1);
  if (!/^\s*\?>$/.test(last ?? "")) return 'the program must end with a "?>" line';
  return null;
}

export const phpRecipe = defineRecipe({
  language: "php",
  timeoutAllowanceMs: 0,
  failurePatterns: ["assert()", "failed"],
  splice(solution, test) {
    const program = splicePhp(solution, test);
    return {
      files: [{ path: "test.php", content: program }],
      program,
      syntaxError: checkPhpSyntax(program),
    };
  },
  compile: null,
  run: { argv: ["php", "-d", "zend.assertions=1", "test.php"] },
  env: {},
  toolchain: { commands: ["php"], version: ["php", "--version"] },
  hello: {
    solution: "<?php\nfunction add($a, $b) {\n    return $a + $b;\n}\n?>",
    test: '<?php\nif (add(1, 2) !== 3) { throw new Exception("add is wrong"); }\n?>',
  },
});
