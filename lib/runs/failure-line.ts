// Where a failing run points: the line of the spliced program named in its output, mapped back to
// the solution or the test the annotator reads. Pure functions, shared by the browser and tests.

type CodePart = "solution" | "test";
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

/** What of a stored or fresh run says where it failed. */
export type RunOutput = {
  kind: string;
  outcome: string;
  compileOutput: string | null;
  stderr: string;
  stdout: string;
  program: string;
};

/**
 * Where a failed run of the canonical solution points in the record's code: the program line its
 * output names, mapped back to the solution or to the test that ran (demo or full). Null for a pass
 * or when no line of the record's own code is named.
 */
export function failingSource(
  run: RunOutput,
  code: { solution: string; demo: string; full: string },
): { source: SourceLine; programLine: number } | null {
  if (run.outcome === "PASSED") return null;
  const programLine = failingProgramLine(`${run.compileOutput ?? ""}\n${run.stderr}\n${run.stdout}`);
  if (programLine === null) return null;
  const source = mapProgramLine(
    run.program,
    { solution: code.solution, test: run.kind === "DEMO" ? code.demo : code.full },
    programLine,
  );
  return source ? { source, programLine } : null;
}

/** A line to point at in the workspace's code pane: which test (or the solution) and its 1-based line. */
export type CodeHighlight = { file: "solution" | "demo" | "full"; line: number };

/** Where a run's failing line sits for the code pane: a test line belongs to the test that ran. */
export function toHighlight(source: SourceLine, kind: string): CodeHighlight {
  return { file: source.part === "solution" ? "solution" : kind === "DEMO" ? "demo" : "full", line: source.line };
}

/** The line of the first of these runs that points at one (in the order given), or null. */
export function firstFailingLine(
  runs: RunOutput[],
  code: { solution: string; demo: string; full: string },
): CodeHighlight | null {
  for (const run of runs) {
    const failing = failingSource(run, code);
    if (failing) return toHighlight(failing.source, run.kind);
  }
  return null;
}
