import "server-only";

import type { Outcome, SandboxLanguage } from "@/lib/server/sandbox/types";

/** A file the recipe writes into the job folder, relative to it. */
export type JobFile = { path: string; content: string };

/** What splicing a solution and a test produces. */
type SplicedJob = {
  files: JobFile[];
  /** The program text shown to users (the main source file). */
  program: string;
  /** Set when the spliced program is refused before running (e.g. PHP without a closing `?>`). */
  syntaxError: string | null;
  /**
   * One sentence for the run detail when the reference's behaviour, reproduced here, is a quirk a
   * person would not expect (e.g. Java's public test class); shown before the compiler's output.
   */
  referenceNote?: string | null;
};

/** One command run inside the sandbox, from the job folder. */
type Step = { argv: string[] };

/** What a step did, as far as classification cares. */
export type StepOutcome = {
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
};

export type ClassifyInput = {
  syntaxError: boolean;
  compile: StepOutcome | null;
  run: StepOutcome | null;
};

/**
 * How a program is compiled once and run many times. `runEnv` lets the runs share what the first one
 * leaves (a JVM's class-data archive): `first` goes to the first run, `rest` to the others.
 */
export type Switched = {
  compile: Step;
  /** Variables of the compile step alone (a JVM compiler's start-up options). */
  compileEnv?: Readonly<Record<string, string>>;
  run: Step;
  files?: readonly JobFile[];
  runEnv?: { first: Readonly<Record<string, string>>; rest: Readonly<Record<string, string>> };
};

export type Recipe = {
  language: SandboxLanguage;
  /** Added to the base timeout of every step (reference `timelimit_factor`). */
  timeoutAllowanceMs: number;
  /**
   * Substrings of stdout+stderr that turn a run that exited 0 into WRONG_ANSWER (the reference's
   * per-language `error_check`; most languages have none).
   */
  failurePatterns: readonly string[];
  /** A second look at a run that exited 0 with no failure text (Java reads JUnit's summary). */
  checkPassedRun?: (run: StepOutcome) => Outcome;
  splice(solution: string, test: string): SplicedJob;
  compile: Step | null;
  run: Step;
  /**
   * How one program is compiled once and run many times (a record's switched mutants): a compile
   * step that leaves a runnable program, and the step that runs it. Recipes with a compile step of
   * their own need none (their compile and run are that); the one-step ones say how to split it.
   * Extra files the two steps need go with the spliced ones.
   */
  switched?: Switched;
  /** Extra environment inside the sandbox (caches and homes inside the job folder). */
  env: Readonly<Record<string, string>>;
  /** Commands that must be on the sandbox PATH, other files it needs, and how to ask for a version. */
  toolchain: { commands: readonly string[]; files?: readonly string[]; version: readonly string[] };
  /** A tiny passing solution/test pair for `doctor`. */
  hello: { solution: string; test: string };
  /** The outcome of a run: `classifyRun` with this recipe's rules (see `defineRecipe`). */
  classify(input: ClassifyInput): Outcome;
};
