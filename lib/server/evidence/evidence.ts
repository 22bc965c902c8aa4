import "server-only";

import { scoreOverRealSurvivors } from "@/lib/evidence/mutation/equivalence";
import { type MutationEvidence, NO_EVIDENCE, type RecordEvidence, type SurvivingMutant } from "@/lib/evidence/types";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, SystemActor } from "@/lib/server/auth/permissions";

import { prisma } from "@/lib/server/db/client";
import { evidenceHiddenRecordIds } from "@/lib/server/auth/visibility";
import { solverEvidenceOf } from "@/lib/server/solvers/solver-evidence-of";

// The stored side of a record's evidence, read for the REST API and the pages. Mutation analyses and
// flakiness checks are written by lib/server/evidence/batches.ts; solver results (k of n models) come
// from lib/server/solvers/solver-evidence-of.ts.

type AnalysisRow = {
  recordId: number;
  generated: number;
  viable: number;
  killed: number;
  demoKilled: number;
  fullKilled: number;
  stillborn: number;
  likelyEquivalent: number;
  score: number | null;
  notApplicable: string | null;
  createdAt: Date;
  switching: MutationEvidence["switching"];
  mutants: {
    operator: string;
    line: number;
    column: number;
    original: string;
    replacement: string;
    before: string;
    after: string;
    demoOutcome: string | null;
    fullOutcome: string | null;
    equivalentReason: string | null;
  }[];
};

/**
 * How each analysis's mutants ran: the switched count and the reasons others ran alone, for the
 * analyses that had any switching (a compiled language measured since mutant schemata).
 */
async function switchingOf(analysisIds: string[]): Promise<Map<string, NonNullable<MutationEvidence["switching"]>>> {
  const byAnalysis = new Map<string, NonNullable<MutationEvidence["switching"]>>();
  if (analysisIds.length === 0) return byAnalysis;
  const groups = await prisma().mutant.groupBy({
    by: ["analysisId", "isSwitched", "aloneReason"],
    where: { analysisId: { in: analysisIds }, OR: [{ isSwitched: true }, { aloneReason: { not: null } }] },
    _count: { _all: true },
    orderBy: [{ analysisId: "asc" }, { aloneReason: "asc" }],
  });
  for (const group of groups) {
    const entry = byAnalysis.get(group.analysisId) ?? { switched: 0, alone: [] };
    if (group.isSwitched) entry.switched += group._count._all;
    else if (group.aloneReason) entry.alone.push({ reason: group.aloneReason, mutants: group._count._all });
    byAnalysis.set(group.analysisId, entry);
  }
  return byAnalysis;
}

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/** A stored analysis as the API carries it. Pure. */
function toMutationEvidence(row: AnalysisRow): MutationEvidence {
  const survivors: SurvivingMutant[] = row.mutants.map((mutant) => ({
    operator: mutant.operator,
    line: mutant.line,
    column: mutant.column,
    original: mutant.original,
    replacement: mutant.replacement,
    before: mutant.before,
    after: mutant.after,
    equivalentReason: mutant.equivalentReason,
    acceptedBy: [
      ...(mutant.demoOutcome === "PASSED" ? (["demo"] as const) : []),
      ...(mutant.fullOutcome === "PASSED" ? (["full"] as const) : []),
    ],
  }));
  // Strongest first: a mutant the full test accepts says more about the tests than one only the demo lets through.
  survivors.sort((a, b) => Number(b.acceptedBy.includes("full")) - Number(a.acceptedBy.includes("full")));
  return {
    score: row.score,
    viable: row.viable,
    killed: row.killed,
    stillborn: row.stillborn,
    generated: row.generated,
    likelyEquivalent: row.likelyEquivalent,
    realScore: row.score === null ? null : scoreOverRealSurvivors(row.killed, row.viable, row.likelyEquivalent),
    byTest: {
      demo: { killed: row.demoKilled, score: ratio(row.demoKilled, row.viable) },
      full: { killed: row.fullKilled, score: ratio(row.fullKilled, row.viable) },
    },
    survivors,
    notApplicable: row.notApplicable,
    switching: row.switching,
    analysedAt: row.createdAt.toISOString(),
  };
}

/**
 * The evidence of the given records, keyed by id, in a few queries: the newest mutation analysis of
 * each (with its surviving mutants), the flaky flag and the solver results. The caller has scoped the records to the
 * actor; evidence the campaign's visibility keeps from the actor comes back as NO_EVIDENCE.
 * Scope: records:read.
 */
export async function evidenceOfRecords({
  actor,
  recordIds,
}: {
  actor: Actor | SystemActor;
  recordIds: number[];
}): Promise<Map<number, RecordEvidence>> {
  assertCan(actor, "records:read");
  const evidence = new Map<number, RecordEvidence>();
  if (recordIds.length === 0) return evidence;
  const [records, analyses, hidden, solvers] = await Promise.all([
    prisma().record.findMany({ where: { id: { in: recordIds } }, select: { id: true, flaky: true } }),
    prisma().mutationAnalysis.findMany({
      where: { recordId: { in: recordIds } },
      orderBy: [{ recordId: "asc" }, { createdAt: "desc" }, { id: "desc" }],
      distinct: ["recordId"],
      select: {
        id: true,
        recordId: true,
        generated: true,
        viable: true,
        killed: true,
        demoKilled: true,
        fullKilled: true,
        stillborn: true,
        likelyEquivalent: true,
        score: true,
        notApplicable: true,
        createdAt: true,
        mutants: {
          where: { status: { not: "STILLBORN" }, OR: [{ demoOutcome: "PASSED" }, { fullOutcome: "PASSED" }] },
          orderBy: { position: "asc" },
          select: {
            operator: true,
            line: true,
            column: true,
            original: true,
            replacement: true,
            before: true,
            after: true,
            demoOutcome: true,
            fullOutcome: true,
            equivalentReason: true,
          },
        },
      },
    }),
    evidenceHiddenRecordIds({ actor, recordIds }),
    solverEvidenceOf({ actor, recordIds }),
  ]);
  const switching = await switchingOf(analyses.map((row) => row.id));
  const mutationByRecord = new Map(
    analyses.map((row) => [row.recordId, toMutationEvidence({ ...row, switching: switching.get(row.id) ?? null })]),
  );
  for (const record of records) {
    evidence.set(
      record.id,
      hidden.has(record.id)
        ? NO_EVIDENCE
        : {
            mutation: mutationByRecord.get(record.id) ?? null,
            flaky: record.flaky,
            solvers: solvers.get(record.id) ?? null,
          },
    );
  }
  return evidence;
}

/**
 * One record's evidence for a page that has already read the record within the actor's scope (the
 * workspace, the adjudication page); hidden parts are null. Scope: records:read.
 */
export async function getRecordEvidence({
  actor,
  recordId,
}: {
  actor: Actor | SystemActor;
  recordId: number;
}): Promise<RecordEvidence> {
  return (await evidenceOfRecords({ actor, recordIds: [recordId] })).get(recordId) ?? NO_EVIDENCE;
}
