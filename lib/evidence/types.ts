import { z } from "zod";

// A record's automatic evidence — how strong its tests are (mutation), whether they give the same
// outcome every time (flaky), and which solver models pass them — as the REST API, the pages and the
// evidence panel carry it. Client-safe: no server imports. The server fills it in
// lib/server/evidence/; each part is null until that evidence has been collected.

/** The two tests of a record, in the order they run. */
const EVIDENCE_TESTS = ["demo", "full"] as const;

/**
 * How one test did against the viable mutants: how many it killed, and killed ÷ viable. A mutant stops
 * at its first failing test, demo first, so the full test's kills are among the mutants the demo let
 * through, and the two scores add up to the record's (analyses before that counted the full test's
 * kills over every viable mutant).
 */
const testStrengthSchema = z.object({
  killed: z.number().int().nonnegative(),
  /** killed ÷ viable; null when no mutant was viable (nothing to measure with). */
  score: z.number().min(0).max(1).nullable(),
});

/** A mutant at least one test accepted: the change, where it is, and which tests let it pass. */
const survivingMutantSchema = z.object({
  /** The mutation operator's name (see lib/evidence/mutation/operators.ts), e.g. "relational". */
  operator: z.string(),
  /** 1-based line and column of the changed token in the canonical solution. */
  line: z.number().int().positive(),
  column: z.number().int().positive(),
  original: z.string(),
  replacement: z.string(),
  /** The solution's line before and after the change, for a one-line diff. */
  before: z.string(),
  after: z.string(),
  /** The tests that PASSED against this mutant (it survived them). */
  acceptedBy: z.array(z.enum(EVIDENCE_TESTS)).min(1),
  /** Why it is likely equivalent to the solution, so no test could reject it; null: a real survivor. */
  equivalentReason: z.string().nullable(),
});
export type SurvivingMutant = z.infer<typeof survivingMutantSchema>;

/** Test strength by mutation: mutants of the canonical solution that the tests should reject. */
const mutationEvidenceSchema = z.object({
  /** Mutants killed by either test ÷ viable mutants; null when none was viable or not applicable. */
  score: z.number().min(0).max(1).nullable(),
  /** Mutants that built and finished in time (the ones that count). */
  viable: z.number().int().nonnegative(),
  /** Viable mutants that at least one test rejected. */
  killed: z.number().int().nonnegative(),
  /** Mutants that did not build or timed out: not counted. */
  stillborn: z.number().int().nonnegative(),
  /** Mutants generated (up to the requested number; a short solution may allow fewer). */
  generated: z.number().int().nonnegative(),
  byTest: z.object({ demo: testStrengthSchema, full: testStrengthSchema }),
  /** Survivors likely equivalent to the solution (each says why among the survivors). */
  likelyEquivalent: z.number().int().nonnegative(),
  /**
   * killed ÷ (viable − likely equivalent): the score over real survivors, which the weak-tests filter
   * and the suspicion order read; null when nothing is left to count.
   */
  realScore: z.number().min(0).max(1).nullable(),
  /** Surviving mutants, strongest first: accepted by the full test before those only the demo accepts. */
  survivors: z.array(survivingMutantSchema),
  /** Why no score could be measured (e.g. the canonical solution fails its own tests); null when measured. */
  notApplicable: z.string().nullable(),
  /**
   * How the mutants of a compiled language ran: how many in the record's switched program (one compile
   * per test for all of them), and why the others were compiled on their own. Null where nothing is
   * compiled per mutant (interpreted languages) or the analysis predates switching.
   */
  switching: z
    .object({
      switched: z.number().int().nonnegative(),
      alone: z.array(z.object({ reason: z.string(), mutants: z.number().int().positive() })),
    })
    .nullable(),
  analysedAt: z.iso.datetime(),
});
export type MutationEvidence = z.infer<typeof mutationEvidenceSchema>;

/** One solver model's result on a record. */
const solverResultSchema = z.object({
  model: z.string(),
  /** The model's solution PASSED both tests. */
  solved: z.boolean(),
});

/** Which solver models' solutions pass the record's tests: k (solved) of n (total). */
const solverEvidenceSchema = z.object({
  solved: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  byModel: z.array(solverResultSchema),
});
export type SolverEvidence = z.infer<typeof solverEvidenceSchema>;

/** A record's evidence as REST and the pages carry it (`evidence` of a record). */
export const recordEvidenceSchema = z.object({
  mutation: mutationEvidenceSchema.nullable(),
  /** True when repeated runs gave different outcomes; false when they agreed; null until checked. */
  flaky: z.boolean().nullable(),
  solvers: solverEvidenceSchema.nullable(),
});
export type RecordEvidence = z.infer<typeof recordEvidenceSchema>;

/** Evidence not collected yet (or hidden from the viewer): every part null. */
export const NO_EVIDENCE: RecordEvidence = { mutation: null, flaky: null, solvers: null };

/**
 * The surviving mutant to show first: a real one before a likely-equivalent one, then one the full
 * test accepts (the private test should be the stronger one), and among those one the demo accepts
 * too; ties keep the stored (generation) order.
 */
export function strongestSurvivor(survivors: readonly SurvivingMutant[]): SurvivingMutant | null {
  // A real survivor says something about the tests; a likely-equivalent one only about the mutant.
  const rank = (mutant: SurvivingMutant) =>
    (mutant.equivalentReason === null ? 4 : 0) +
    (mutant.acceptedBy.includes("full") ? 2 : 0) +
    (mutant.acceptedBy.includes("demo") ? 1 : 0);
  let best: SurvivingMutant | null = null;
  for (const mutant of survivors) if (!best || rank(mutant) > rank(best)) best = mutant;
  return best;
}
