import "server-only";

import {
  DEFAULT_MUTANTS,
  generateMutants,
  isFullRunMoot,
  mutantStatus,
  summarizeMutants,
} from "@/lib/evidence/mutation";
import type { Mutant } from "@/lib/evidence/mutation/mutate";
import { isSwitchingLanguage, MUTANT_VARIABLE, mutantSchema, refusedSwitches } from "@/lib/evidence/mutation/schemata";
import { equivalentByText } from "@/lib/evidence/mutation/equivalence";
import type { LocalBackend } from "@/lib/server/sandbox/local";
import { spliceCpp } from "@/lib/server/sandbox/recipes/cpp";
import { flakyVerdict } from "@/lib/evidence/flaky";
import { type Language, parseLanguage } from "@/lib/records/languages";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, isSystemActor, SYSTEM_ACTOR, type SystemActor } from "@/lib/server/auth/permissions";
import type { JobAction, JobStatus } from "@/lib/jobs/types";
import { AppError } from "@/lib/server/errors";
import { runSettingsOfRecord } from "@/lib/server/environments/run-settings";
import {
  type RunOptions,
  type RunRequest,
  getSandboxRouter,
  runInSandbox,
  runSwitchedInSandbox,
  SandboxError,
  type SandboxResult,
  type SwitchedRun,
} from "@/lib/server/sandbox";
import { judgedAlone, runSteadily } from "@/lib/server/sandbox/steady";
import { defineJobQueue, queueItems, workQueue } from "@/lib/server/jobs/engine";
import { getBoss } from "@/lib/server/workers/boss";
import { jobPriority } from "@/lib/server/workers/priority";
import { EVIDENCE_QUEUE } from "@/lib/server/workers/queue-names";
import { verificationJobExpirySeconds } from "@/lib/server/workers/expiry";

import {
  type EvidenceBatchStart,
  type EvidenceTask,
  findRecordAtRevision,
  findRecordForEvidence,
  findRecordToProbe,
  type MutationResult,
  getEvidenceProgress,
  openEvidenceBatch,
  recordIdsForEvidence,
  setEvidenceBatchPaused,
  tasksOf,
  type RecordToProbe,
  type StoredMutant,
  stopEvidenceBatch,
  writeFlakyCheck,
  writeMutationAnalysis,
} from "./batches";

// Evidence collection as a feature: mutation analysis and flakiness checks of records, run through
// the sandbox by the batch workers (the same processes as batch verification) or on request.

export { EVIDENCE_QUEUE };

type EvidenceJob = { batchId: string; recordId: number; task: EvidenceTask };
/** A record's mutation analysis measured again on the content of an accepted repair (no batch). */
type RevisionMutationJob = { recordId: number; revision: number };

/** The evidence queue: a record's mutants take many runs, so a job may last N times a verification. */
const evidenceQueue = defineJobQueue({
  name: EVIDENCE_QUEUE,
  retryLimit: 3,
  retryDelay: 5,
  expireInSeconds: () => verificationJobExpirySeconds() * 20,
});

/**
 * Starts collecting evidence for a dataset (optionally one language): each record gets a mutation
 * job (when `mutants` > 0) and a flakiness job (when `repeat` > 0). A RUNNING batch with the same
 * scope is resumed, queueing only what it lacks. Scope: datasets:verify.
 */
export async function startEvidence({
  actor,
  datasetName,
  language,
  mutants,
  repeat,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  language?: Language;
  mutants: number;
  repeat: number;
}): Promise<EvidenceBatchStart> {
  assertCan(actor, "datasets:verify");
  const batch = await openEvidenceBatch({ actor, datasetName, language, mutants, repeat });
  await queueLackingTasks({ actor, batchId: batch.batchId, tasks: batch.tasks });
  return batch;
}

/** Queues a batch's record tasks that have no result yet (all of them for a new batch). */
async function queueLackingTasks({
  actor,
  batchId,
  tasks,
}: {
  actor: Actor | SystemActor;
  batchId: string;
  tasks: readonly EvidenceTask[];
}): Promise<void> {
  for (const task of tasks) {
    await queueItems({
      queue: evidenceQueue,
      pages: (pageSize) => recordIdsForEvidence({ batchId, task, pageSize }),
      toJob: (recordId) => ({ data: { batchId, recordId, task } satisfies EvidenceJob }),
      priority: jobPriority(actor),
    });
  }
}

/**
 * Pauses, resumes or cancels an evidence batch (the Jobs page and the dataset page). Paused, the
 * workers leave its tasks (a task already running finishes and counts); resumed, what it lacks is
 * queued again; cancelled, it ends FAILED with who cancelled it, and a result still in flight is not
 * written. CONFLICT when the batch is not in a state the action applies to. Scope: datasets:verify.
 */
export async function controlEvidenceBatch({
  actor,
  batchId,
  action,
}: {
  actor: Actor | SystemActor;
  batchId: string;
  action: JobAction;
}): Promise<JobStatus> {
  assertCan(actor, "datasets:verify");
  const progress = await getEvidenceProgress({ actor, batchId });
  const isChanged =
    action === "cancel"
      ? await stopEvidenceBatch({
          actor,
          batchId,
          reason: `Cancelled by ${isSystemActor(actor) ? "Verity" : (actor.name ?? actor.email)}.`,
          isCancel: true,
        })
      : await setEvidenceBatchPaused({ actor, batchId, isPaused: action === "pause" });
  if (!isChanged) {
    const state = progress.isPaused ? "paused" : progress.status.toLowerCase();
    throw new AppError("CONFLICT", `This evidence batch is ${state}: it cannot ${action} now.`);
  }
  if (action === "resume") {
    await queueLackingTasks({ actor, batchId, tasks: tasksOf(progress) });
  }
  return action === "cancel" ? "CANCELLED" : action === "pause" ? "PAUSED" : "RUNNING";
}

/**
 * Queues a record's mutation analysis on its accepted revision: the repaired tests (or solution) get
 * a score of their own, measured by the evidence workers with as many mutants as the record's last
 * analysis asked for (the default when it was never measured). Scope: datasets:verify.
 */
export async function queueRevisionMutation({
  actor,
  recordId,
  revision,
}: {
  actor: Actor | SystemActor;
  recordId: number;
  revision: number;
}): Promise<void> {
  assertCan(actor, "datasets:verify");
  await evidenceQueue.ensure();
  const boss = await getBoss();
  await boss.send(EVIDENCE_QUEUE, { recordId, revision } satisfies RevisionMutationJob, {
    priority: jobPriority(actor),
  });
}

/**
 * Measures an accepted revision's mutation score. A record that moved on to a later revision is
 * left to that revision's own job; a language that cannot run here is stored as not applicable.
 */
export async function measureRevisionMutants(
  { recordId, revision }: RevisionMutationJob,
  ways: MutantWays = SANDBOX_WAYS,
): Promise<void> {
  const actor = SYSTEM_ACTOR.worker;
  const found = await findRecordAtRevision({ actor, recordId, revision });
  if (!found) return;
  const requested = found.lastMutants ?? DEFAULT_MUTANTS;
  let result: MutationResult;
  try {
    result = await analyseMutants(await withRunSettings(found.record), requested, ways);
  } catch (error) {
    if (isIsolationFailure(error)) throw error; // retried by the queue once the sandbox works again
    result = {
      requested,
      generated: 0,
      viable: 0,
      killed: 0,
      demoKilled: 0,
      fullKilled: 0,
      stillborn: 0,
      score: null,
      notApplicable: failureReason(error),
      mutants: [],
    };
  }
  await writeMutationAnalysis({ actor, batchId: null, recordId, result });
}

/** A record with its dataset's run settings (harness profile, environment), as every run of it takes them. */
async function withRunSettings(record: RecordToProbe): Promise<RecordToProbe> {
  return { ...record, settings: await runSettingsOfRecord(record.id) };
}

/** How a record's code is run: the process's sandbox by default; tests pass a backend of their own. */
export type RunFunction = (request: RunRequest, options?: RunOptions) => Promise<SandboxResult>;

type Run = (test: string, solution: string) => Promise<SandboxResult>;

/** What running a record's canonical solution against its tests needs. */
type RecordCode = Pick<RecordToProbe, "language" | "canonicalSolution" | "demoTestFunc" | "fullTestFunc" | "settings">;

function runnerFor(record: RecordCode, isAlone: boolean, runFunction: RunFunction): Run {
  const language = parseLanguage(record.language);
  // Either way a time-out is judged as every run's is: by CPU time alone, else INCONCLUSIVE.
  return async (test, solution) =>
    isAlone
      ? judgedAlone(await runFunction({ language, solution, test, ...record.settings }, { isExclusive: true }))
      : runSteadily({ language, solution, test, ...record.settings }, runFunction);
}

/**
 * How a record's mutants run: each as a program of its own, or (where a language allows) switched;
 * and how survivors are compared compiled (null: not compared).
 */
export type MutantWays = { run: RunFunction; runSwitched: SwitchFunction | null; compileAlike?: CompileAlike | null };
/** The positions of the mutants whose optimised C++ compiles to the same code as the solution's. */
type CompileAlike = (solution: string, test: string, mutants: readonly Mutant[]) => Promise<Set<number>>;
export type SwitchFunction = (
  request: RunRequest,
  variables: readonly Readonly<Record<string, string>>[],
  options?: RunOptions,
) => Promise<SwitchedRun | null>;

// Each program compiled to assembly at -O2 without its file name, then compared with the solution's.
const COMPILE_ALIKE_SCRIPT =
  'asm() { g++ -O2 -S -o "$1.s" "$1" 2>/dev/null && grep -v \'^[[:space:]]*[.]\\(file\\|ident\\)\' "$1.s" > "$1.t"; }; ' +
  'asm original.cpp || exit 0; for m in mutant-*.cpp; do asm "$m" && cmp -s original.cpp.t "$m.t" && echo "${m%.cpp}"; done; exit 0';

/**
 * "The compiled program is identical" (trivial compiler equivalence): C++ survivors compiled with
 * the optimiser, in the sandbox, against the solution; a mutant the compiler turns into the very
 * same code cannot be killed by any test.
 */
export const compileAlikeOn =
  (backend: () => Pick<LocalBackend, "runCommand">): CompileAlike =>
  async (solution, test, mutants) => {
    if (mutants.length === 0) return new Set();
    const files = [
      { path: "original.cpp", content: spliceCpp(solution, test) },
      ...mutants.map((mutant) => ({ path: `mutant-${mutant.position}.cpp`, content: spliceCpp(mutant.source, test) })),
    ];
    const result = await backend().runCommand(["sh", "-c", COMPILE_ALIKE_SCRIPT], {
      files,
      timeoutMs: 60_000,
    });
    const alike = result.stdout.split("\n").map((line) => /^mutant-(\d+)$/.exec(line.trim())?.[1]);
    return new Set(alike.filter((position) => position !== undefined).map(Number));
  };

const SANDBOX_WAYS: MutantWays = {
  run: runInSandbox,
  runSwitched: runSwitchedInSandbox,
  compileAlike: compileAlikeOn(() => getSandboxRouter().local),
};

/**
 * Why each survivor is likely equivalent to the solution: by its text (equivalence.ts), else, in C++,
 * because it compiles to the solution's code. Survivors with no reason are real.
 */
async function equivalentSurvivors(
  record: RecordCode,
  survivors: readonly Mutant[],
  compileAlike: CompileAlike | null | undefined,
): Promise<Map<number, string>> {
  const language = parseLanguage(record.language);
  const reasons = new Map<number, string>();
  for (const mutant of survivors) {
    const reason = equivalentByText(record.canonicalSolution, language, mutant);
    if (reason) reasons.set(mutant.position, reason);
  }
  const toCompile = survivors.filter((mutant) => !reasons.has(mutant.position));
  if (language === "cpp" && compileAlike && toCompile.length > 0) {
    const alike = await compileAlike(record.canonicalSolution, record.demoTestFunc, toCompile).catch(
      () => new Set<number>(),
    );
    for (const position of alike)
      reasons.set(position, "optimised, it compiles to exactly the solution's code: no test can tell them apart");
  }
  return reasons;
}

/**
 * The fewest mutants worth a switched program (two elsewhere): one compile and a run with no mutant on
 * cost more than one mutant's own compile and run, except in Kotlin, whose switched compile and two
 * plain-JVM runs (3.3 + 0.3 s here) cost less than one `kotlinc -script` run of the mutant (4–5 s).
 */
const FEWEST_SWITCHED: Partial<Record<Language, number>> = { kotlin: 1 };

// A compiler that refuses a switch names its line; after this many rounds the rest go on their own.
const SWITCH_ROUNDS = 4;

/**
 * The outcomes of `mutants` against one test from one switched program: compiled once, run with no
 * mutant on (it must pass, as the solution does) and once per mutant. A switch the compiler refuses
 * (a mutant that does not build, say) joins `alone` with its reason and the program is compiled
 * again without it; a program that cannot be switched at all leaves every mutant to run alone. A
 * time-out is not taken from here: it is run again on its own, where the load is judged.
 */
async function switchedOutcomes(
  record: RecordCode,
  test: string,
  mutants: readonly Mutant[],
  alone: Map<number, string>,
  runSwitched: SwitchFunction,
): Promise<Map<number, SandboxResult>> {
  const language = parseLanguage(record.language);
  for (let round = 0; round < SWITCH_ROUNDS; round++) {
    const schema = mutantSchema(record.canonicalSolution, language, mutants, alone);
    if (!schema || !isSwitchingLanguage(language)) return new Map();
    for (const { position, reason } of schema.unswitched) alone.set(position, reason);
    const fewest = FEWEST_SWITCHED[language] ?? 2;
    if (schema.positions.length < fewest) {
      for (const position of schema.positions)
        alone.set(position, `a switched program pays off from ${fewest === 1 ? "one mutant" : "two mutants"} on`);
      return new Map();
    }
    const switched = await runSwitched({ language, solution: schema.source, test, ...record.settings }, [
      {},
      ...schema.positions.map((position) => ({ [MUTANT_VARIABLE]: String(position) })),
    ]);
    if (!switched) return new Map();
    if (!switched.isCompiled) {
      const refused = refusedSwitches(switched.program, switched.compileOutput, schema);
      const reason = refused.length
        ? "the compiler refused its switch, as it may refuse the mutant itself"
        : "the switched program did not compile for a reason no one switch explains";
      for (const position of refused.length ? refused : schema.positions) alone.set(position, reason);
      continue;
    }
    const [baseline, ...runs] = switched.runs;
    if (baseline?.outcome !== "PASSED") {
      const reason = `the switched program with no mutant on did not pass (${baseline?.outcome ?? "no run"})`;
      for (const position of schema.positions) alone.set(position, reason);
      return new Map();
    }
    // A run not judged in the switched program (null) or timed out there runs again on its own.
    const judged = new Map<number, SandboxResult>();
    schema.positions.forEach((position, index) => {
      const result = runs[index];
      if (result && result.outcome !== "TIME_LIMIT_EXCEEDED") judged.set(position, result);
    });
    return judged;
  }
  for (const mutant of mutants)
    if (!alone.has(mutant.position))
      alone.set(mutant.position, `the switched program did not compile in ${SWITCH_ROUNDS} tries`);
  return new Map();
}

/**
 * A record's mutation analysis: the canonical solution must pass both tests first (else there is
 * nothing to measure), then each mutant runs the demo test and, unless stillborn, the full test.
 * Where the language allows, the mutants run switched in one program per test (one compile each);
 * the rest, and any switched run that timed out, run as programs of their own.
 */
export async function analyseMutants(
  record: RecordToProbe,
  requested: number,
  ways: MutantWays = SANDBOX_WAYS,
): Promise<MutationResult> {
  const run = runnerFor(record, false, ways.run);
  const empty = {
    requested,
    generated: 0,
    viable: 0,
    killed: 0,
    demoKilled: 0,
    fullKilled: 0,
    stillborn: 0,
    inconclusive: 0,
  };
  if (record.executableValid !== true) {
    const demo = await run(record.demoTestFunc, record.canonicalSolution);
    const full = demo.outcome === "PASSED" ? await run(record.fullTestFunc, record.canonicalSolution) : null;
    if (full?.outcome !== "PASSED")
      return {
        ...empty,
        score: null,
        mutants: [],
        notApplicable: `the canonical solution does not pass its own ${full ? "full" : "demo"} test (${(full ?? demo).outcome.toLowerCase().replaceAll("_", " ")})`,
      };
  }
  const language = parseLanguage(record.language);
  const mutants = generateMutants(record.canonicalSolution, language, requested);
  const isSwitching = ways.runSwitched !== null && isSwitchingLanguage(language);
  const alone = new Map<number, string>();
  const switchedDemo =
    isSwitching && ways.runSwitched
      ? await switchedOutcomes(record, record.demoTestFunc, mutants, alone, ways.runSwitched)
      : new Map<number, SandboxResult>();
  const demos = new Map<number, SandboxResult>();
  for (const mutant of mutants) {
    demos.set(mutant.position, switchedDemo.get(mutant.position) ?? (await run(record.demoTestFunc, mutant.source)));
  }
  const needFull = mutants.filter((mutant) => !isFullRunMoot(demos.get(mutant.position)!.outcome));
  const switchedFull =
    isSwitching && ways.runSwitched && needFull.length > 0
      ? await switchedOutcomes(record, record.fullTestFunc, needFull, alone, ways.runSwitched)
      : new Map<number, SandboxResult>();
  const stored: StoredMutant[] = [];
  for (const mutant of mutants) {
    const demo = demos.get(mutant.position)!;
    const full = isFullRunMoot(demo.outcome)
      ? null
      : (switchedFull.get(mutant.position) ?? (await run(record.fullTestFunc, mutant.source)));
    const { source: _source, start: _start, end: _end, ...fields } = mutant;
    stored.push({
      ...fields,
      demoOutcome: demo.outcome,
      fullOutcome: full?.outcome ?? null,
      status: mutantStatus(demo.outcome, full?.outcome ?? null),
      isSwitched: switchedDemo.has(mutant.position) && (full === null || switchedFull.has(mutant.position)),
      aloneReason: isSwitching ? (alone.get(mutant.position) ?? null) : null,
    });
  }
  const summary = summarizeMutants(
    stored.map((mutant) => ({ demoOutcome: mutant.demoOutcome!, fullOutcome: mutant.fullOutcome })),
  );
  const survivors = mutants.filter((_, index) => stored[index].status === "SURVIVED");
  const equivalent = await equivalentSurvivors(record, survivors, ways.compileAlike);
  for (const mutant of stored) mutant.equivalentReason = equivalent.get(mutant.position) ?? null;
  return {
    ...summary,
    likelyEquivalent: equivalent.size,
    requested,
    mutants: stored,
    notApplicable: mutants.length === 0 ? "the operators found nothing to change in the solution" : null,
  };
}

/**
 * Runs both tests `repeat` times, each run alone on the sandbox; one "DEMO/FULL" outcome pair per
 * repeat. Also the flaky option of batch verification (lib/server/verification/jobs.ts).
 */
export async function repeatTests(
  record: RecordCode,
  repeat: number,
  runFunction: RunFunction = runInSandbox,
): Promise<string[]> {
  const run = runnerFor(record, true, runFunction);
  const outcomes: string[] = [];
  for (let index = 0; index < repeat; index++) {
    const demo = await run(record.demoTestFunc, record.canonicalSolution);
    const full = await run(record.fullTestFunc, record.canonicalSolution);
    outcomes.push(`${demo.outcome}/${full.outcome}`);
  }
  return outcomes;
}

function isIsolationFailure(error: unknown): error is SandboxError {
  return error instanceof SandboxError && error.code === "SANDBOX_ISOLATION_FAILED";
}

/** Why a record could not be probed, as a sentence for notApplicable. */
function failureReason(error: unknown): string {
  if (error instanceof SandboxError) return "its language cannot run in this sandbox";
  console.error(error);
  return "the sandbox failed unexpectedly (see the server log)";
}

/**
 * One record task of a batch. A language that cannot run here is stored as not applicable; a
 * sandbox whose isolation fails stops the batch (nothing else could run either).
 */
async function collectEvidence({ batchId, recordId, task }: EvidenceJob): Promise<void> {
  const actor = SYSTEM_ACTOR.worker;
  const found = await findRecordForEvidence({ actor, batchId, recordId, task });
  if (!found) return;
  try {
    const record = await withRunSettings(found.record);
    if (task === "mutation") {
      const result = await analyseMutants(record, found.mutants);
      await writeMutationAnalysis({ actor, batchId, recordId, result });
    } else {
      const outcomes = await repeatTests(record, found.repeat);
      await writeFlakyCheck({
        actor,
        batchId,
        recordId,
        repeats: found.repeat,
        outcomes,
        flaky: flakyVerdict(outcomes),
      });
    }
  } catch (error) {
    if (isIsolationFailure(error)) {
      await stopEvidenceBatch({
        actor,
        batchId,
        reason: `Stopped: the sandbox failed before a program started (${error.message}).`,
      });
      return;
    }
    const isErrored = !(error instanceof SandboxError);
    if (task === "mutation") {
      const reason = failureReason(error);
      await writeMutationAnalysis({
        actor,
        batchId,
        recordId,
        isErrored,
        result: {
          requested: found.mutants,
          generated: 0,
          viable: 0,
          killed: 0,
          demoKilled: 0,
          fullKilled: 0,
          stillborn: 0,
          score: null,
          notApplicable: reason,
          mutants: [],
        },
      });
    } else {
      failureReason(error);
      await writeFlakyCheck({ actor, batchId, recordId, repeats: found.repeat, outcomes: [], flaky: null, isErrored });
    }
  }
}

/**
 * Checks one record for flaky tests now (the record page's button and REST): runs both tests
 * `repeat` times alone and stores the verdict. Scope: datasets:verify.
 */
export async function checkRecordFlakiness({
  actor,
  recordId,
  repeat,
}: {
  actor: Actor | SystemActor;
  recordId: number;
  repeat: number;
}): Promise<{ flaky: boolean | null; outcomes: string[] }> {
  assertCan(actor, "datasets:verify");
  const record = await withRunSettings(await findRecordToProbe({ actor, recordId }));
  const outcomes = await repeatTests(record, repeat);
  const flaky = flakyVerdict(outcomes);
  await writeFlakyCheck({ actor, batchId: null, recordId, repeats: repeat, outcomes, flaky });
  return { flaky, outcomes };
}

/**
 * Starts `concurrency` evidence workers in this process, beside its verification workers (the same
 * heartbeat holds their jobs, so a dead worker's evidence jobs are retried too).
 */
export async function startEvidenceWorkers({
  workerId,
  concurrency,
}: {
  workerId: string;
  concurrency: number;
}): Promise<string[]> {
  return workQueue<EvidenceJob | RevisionMutationJob>({
    queue: evidenceQueue,
    workerId,
    concurrency,
    run: (job) => ("revision" in job ? measureRevisionMutants(job) : collectEvidence(job)),
  });
}
