import "server-only";

import { parseLanguage } from "@/lib/records/languages";
import { UNAVAILABLE } from "@/lib/records/verification";
import type { Actor } from "@/lib/server/auth/permissions";
import { runInSandbox, SandboxError } from "@/lib/server/sandbox";
import { runSteadily } from "@/lib/server/sandbox/steady";
import type { RevisionProposal } from "@/lib/validation/revisions";

import {
  findRevisionToRun,
  type ProposedRevision,
  proposeRevision,
  type RevisionEvidence,
  storeRevisionEvidence,
} from "./queries";

// Proposing a repair as a feature: the stored revision (queries.ts) and the evidence recomputed on
// its content in the sandbox, so its checker and the release see how the revised record runs.

/**
 * Recomputes a revision's execution evidence: its solution against its demo and full tests, as batch
 * verification runs a record (a time limit under load is run again alone). A language that cannot
 * run here is UNAVAILABLE, not a failure. Scope: revisions:write (via the data functions).
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
    const demo = await runSteadily(
      { language, solution: revision.canonicalSolution, test: revision.demoTestFunc },
      runInSandbox,
    );
    const full = await runSteadily(
      { language, solution: revision.canonicalSolution, test: revision.fullTestFunc },
      runInSandbox,
    );
    evidence = {
      demoOutcome: demo.outcome,
      fullOutcome: full.outcome,
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
 * Proposes a revision of a record (see proposeRevision for the rules) and recomputes its evidence
 * before answering, so the repairs queue shows how the revised record runs. Scope: revisions:write.
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
  const proposed = await proposeRevision({ actor, recordId, input });
  return { ...proposed, evidence: await recomputeRevisionEvidence({ actor, revisionId: proposed.id }) };
}
