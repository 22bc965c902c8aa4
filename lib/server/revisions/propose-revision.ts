import "server-only";

import { parseLanguage } from "@/lib/records/languages";
import { ENVIRONMENT_FAILURE, UNAVAILABLE } from "@/lib/records/verification";
import { environmentFailure } from "@/lib/runs/environment-failure";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { config } from "@/lib/server/config";
import { queueRevisionMutation } from "@/lib/server/evidence/jobs";
import { runSettingsOfRecord } from "@/lib/server/environments/run-settings";
import { admitToRunBudget } from "@/lib/server/runs/run-record";
import { rerunRecordSolutions } from "@/lib/server/solvers/jobs";
import { runInSandbox, SandboxError, type SandboxResult } from "@/lib/server/sandbox";
import { runSteadily } from "@/lib/server/sandbox/steady";
import type { RevisionCheck, RevisionProposal } from "@/lib/validation/revisions";

import {
  checkRevision,
  findRevisionToRun,
  type ProposedRevision,
  proposeRevision,
  type RevisionEvidence,
  storeRevisionEvidence,
} from "./queries";

// Repairs as a feature: the stored revision (queries.ts) and the evidence recomputed on its content
// in the sandbox, so its checker and the release see how the revised record runs; once accepted, the
// rest of the record's evidence (mutation score, solver results) is measured again on it.

/**
 * Recomputes a revision's execution evidence: its solution against its demo and full tests, as batch
 * verification runs a record (a time limit under load is judged again by CPU time, in one sandbox
 * slot). A language that cannot run here is UNAVAILABLE, not a failure. Scope: revisions:write (via
 * the data functions).
 */
async function recomputeRevisionEvidence({
  actor,
  revisionId,
}: {
  actor: Actor;
  revisionId: string;
}): Promise<RevisionEvidence> {
  const revision = await findRevisionToRun({ actor, revisionId });
  let evidence: RevisionEvidence;
  try {
    const language = parseLanguage(revision.language);
    // The record's dataset decides how it runs (harness profile, environment), for a repair as for the record.
    const settings = await runSettingsOfRecord(revision.recordId);
    const demo = await runSteadily(
      { language, solution: revision.canonicalSolution, test: revision.demoTestFunc, ...settings },
      runInSandbox,
      {},
      { isInOneSlot: true },
    );
    const full = await runSteadily(
      { language, solution: revision.canonicalSolution, test: revision.fullTestFunc, ...settings },
      runInSandbox,
      {},
      { isInOneSlot: true },
    );
    // A test that failed for want of a dependency says nothing about the revision (as in batch verification).
    const outcomeOf = (result: SandboxResult) => (environmentFailure(result) ? ENVIRONMENT_FAILURE : result.outcome);
    evidence = {
      demoOutcome: outcomeOf(demo),
      fullOutcome: outcomeOf(full),
      backend: full.backend,
      toolchain: full.toolchain ?? demo.toolchain ?? null,
    };
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    console.error(`revisions: revision ${revisionId} could not run: ${error.message}`);
    evidence = { demoOutcome: UNAVAILABLE, fullOutcome: UNAVAILABLE, backend: null, toolchain: null };
  }
  await storeRevisionEvidence({ actor, revisionId, evidence });
  return evidence;
}

/**
 * Proposes a revision of a record (see proposeRevision for the rules, among them the cap on a
 * person's repairs waiting at once) and recomputes its evidence before answering, so the repairs
 * queue shows how the revised record runs. Its runs draw on the author's run budget like any run
 * of theirs (refused RATE_LIMITED, with nothing stored, when it is spent). Scope: revisions:write.
 */
export async function proposeRecordRevision({
  actor,
  recordId,
  input,
}: {
  actor: Actor;
  recordId: number;
  input: RevisionProposal;
}): Promise<ProposedRevision & { evidence: RevisionEvidence }> {
  assertCan(actor, "revisions:write");
  const release = await admitToRunBudget(actor);
  try {
    const proposed = await proposeRevision({ actor, recordId, input, maxOpen: config().openRepairsPerUser });
    return { ...proposed, evidence: await recomputeRevisionEvidence({ actor, revisionId: proposed.id }) };
  } finally {
    await release();
  }
}

/**
 * Queues what an accepted repair makes stale: the record's mutation analysis and the runs of its
 * imported solutions, both on the revised content. Done by Verity's workers for the record, not for
 * the checker (who may not start evidence batches), hence the worker actor. A queue that fails is
 * logged, not thrown: the acceptance stands, and `verity evidence` / a new import measure it again.
 */
async function queueAcceptedRevisionEvidence(recordId: number, revision: number): Promise<void> {
  const actor = SYSTEM_ACTOR.worker;
  try {
    await queueRevisionMutation({ actor, recordId, revision });
    await rerunRecordSolutions({ actor, recordId });
  } catch (error) {
    console.error(`revisions: the evidence of record ${recordId} revision ${revision} could not be queued:`, error);
  }
}

/**
 * The blind second check of a proposed revision (see checkRevision for the rules); an accepted one
 * has its mutation score and solver results measured again on the revised record. Scope: revisions:check.
 */
export async function checkRecordRevision({
  actor,
  revisionId,
  input,
}: {
  actor: Actor;
  revisionId: string;
  input: RevisionCheck;
}): ReturnType<typeof checkRevision> {
  const checked = await checkRevision({ actor, revisionId, input });
  if (checked.status === "ACCEPTED") await queueAcceptedRevisionEvidence(checked.recordId, checked.number);
  return checked;
}
