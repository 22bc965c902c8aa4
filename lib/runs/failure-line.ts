// Where a failing run points: the line of the spliced program named in its output, mapped back to
// the solution or the test the annotator reads. Pure functions, shared by the browser and tests.

export type CodePart = "solution" | "test";
export type SourceLine = { part: CodePart; line: number };

// Frames in the runtime or libraries are not the record's code.
const FOREIGN_PATH = /^(?:\/usr\/|\/opt\/|node:|internal\/)|site-packages|node_modules|\/lib\/(?:python|ruby|perl|php)/;

const PYTHON_FRAME = /File "([^"]+)", line (\d+)/g;
const PATH_LINE =
  /((?:\/?[\w.-]+\/)*[\w.-]+\.(?:py|js|mjs|cjs|ts|rb|php|pl|pm|sh|go|rs|java|kt|kts|scala|swift|cs|c|cc|cpp|cxx|h|hpp|dart|ex|exs|jl|r|R|rkt|lua|hs)):(\d+)/g;

/**
 * The 1-based line of the program that a run's output names as the failure, or null. Python
 * tracebacks list the innermost frame last, so the last frame in the job's own file wins; other
 * runtimes and compilers name the failing line first (`file.ext:12`).
 */
export function failingProgramLine(output: string): number | null {
  const ownFrames = [...output.matchAll(PYTHON_FRAME)].filter(([, path]) => !FOREIGN_PATH.test(path));
  if (ownFrames.length > 0) return Number(ownFrames[ownFrames.length - 1][2]);
  for (const [, path, line] of output.matchAll(PATH_LINE)) {
    if (!FOREIGN_PATH.test(path)) return Number(line);
  }
  return null;
}

function linesOf(text: string): string[] {
  return text.replace(/\r\n/g, "\n").split("\n");
}

/** The 0-based program line where `partLines` appear verbatim and in order, or -1. */
function blockStart(programLines: string[], partLines: string[]): number {
  while (partLines.length > 0 && partLines[partLines.length - 1].trim() === "") partLines = partLines.slice(0, -1);
  if (partLines.length === 0) return -1;
  for (let start = 0; start + partLines.length <= programLines.length; start++) {
    if (partLines.every((line, index) => programLines[start + index] === line)) return start;
  }
  return -1;
}

/**
 * Maps a 1-based line of the spliced program back to the solution or the test it came from.
 * Recipes splice by concatenation, hoisting imports or wrapping in a harness, so the parts are found
 * as verbatim blocks; failing that, a program line that occurs exactly once across both parts is
 * matched by its text. Harness lines map to null.
 */
export function mapProgramLine(
  program: string,
  parts: { solution: string; test: string },
  programLine: number,
): SourceLine | null {
  const programLines = linesOf(program);
  const target = programLines[programLine - 1];
  if (target === undefined) return null;
  for (const part of ["test", "solution"] as const) {
    const partLines = linesOf(parts[part]);
    const start = blockStart(programLines, partLines);
    if (start < 0) continue;
    const offset = programLine - 1 - start;
    if (offset >= 0 && offset < partLines.length && partLines[offset] === target) return { part, line: offset + 1 };
  }
  if (target.trim() === "") return null;
  const hits = (["solution", "test"] as const).flatMap((part) =>
    linesOf(parts[part]).flatMap((line, index) => (line.trim() === target.trim() ? [{ part, line: index + 1 }] : [])),
  );
  return hits.length === 1 ? hits[0] : null;
}
