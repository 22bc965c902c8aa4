import "server-only";

/** Splits source into lines, accepting CRLF. */
export function splitLines(source: string): string[] {
  return source.split(/\r?\n/);
}

/**
 * Moves the lines matching `isHoisted` out of every part, dedupes them (first occurrence wins, compared
 * trimmed) and returns them with the remaining bodies. Used for `import`/`using` hoisting.
 */
export function hoistLines(
  parts: readonly string[],
  isHoisted: (line: string) => boolean,
): { hoisted: string[]; bodies: string[] } {
  const seen = new Set<string>();
  const hoisted: string[] = [];
  const bodies = parts.map((part) => {
    const kept: string[] = [];
    for (const line of splitLines(part)) {
      if (isHoisted(line)) {
        const key = line.trim();
        if (!seen.has(key)) {
          seen.add(key);
          hoisted.push(key);
        }
      } else {
        kept.push(line);
      }
    }
    return kept.join("\n").trim();
  });
  return { hoisted, bodies };
}

/** Joins non-empty blocks with a blank line between them and a final newline. */
export function joinBlocks(blocks: readonly string[]): string {
  return `${blocks.filter((block) => block.trim() !== "").join("\n\n")}\n`;
}

/** The reference's default splice: solution, a newline, test. */
export function concatSplice(solution: string, test: string): string {
  return `${solution}\n${test}`;
}
