// Evidence planted where the app keeps it, for integration tests of the filters, queues and the
// suspicion order: every combination of the facts that decide an evidence reason.
import type { SuspicionFacts } from "@/lib/evidence/suspicion";
import { prisma } from "@/lib/server/db/client";

/** Every combination of the evidence that decides a reason (mutation score, flaky, solvers, critic, execution). */
export function combinations(): SuspicionFacts[] {
  const out: SuspicionFacts[] = [];
  for (const mutationScore of [null, 0.25, 0.5, 0.75])
    for (const flaky of [null, false, true])
      for (const [solversTotal, solversSolved] of [
        [0, 0],
        [2, 0],
        [3, 1],
        [2, 2],
      ])
        for (const criticPass of [null, true, false])
          for (const executableValid of [null, true, false])
            out.push({ mutationScore, flaky, solversTotal, solversSolved, criticPass, executableValid });
  return out;
}

/** Stores records' evidence where the app keeps it: their columns, critic verdicts and solver solutions. */
export async function plantEvidence(records: { id: number; facts: SuspicionFacts }[]) {
  for (const { id, facts } of records)
    await prisma().record.update({
      where: { id },
      data: { mutationScore: facts.mutationScore, flaky: facts.flaky, executableValid: facts.executableValid },
    });
  await prisma().criticVerdict.createMany({
    data: records.flatMap(({ id, facts }) =>
      facts.criticPass === null
        ? []
        : [{ recordId: id, overallPass: facts.criticPass, failedRules: [], keyPoints: [], raw: "{}" }],
    ),
  });
  await prisma().solution.createMany({
    data: records.flatMap(({ id, facts }) => [
      ...Array.from({ length: facts.solversTotal }, (_, model) => ({
        recordId: id,
        model: `model-${model}`,
        code: "",
        outcome: model < facts.solversSolved ? "PASSED" : "WRONG_ANSWER",
        passed: model < facts.solversSolved,
      })),
      // A solution still waiting to run counts for nobody.
      { recordId: id, model: "pending", code: "" },
    ]),
  });
}
