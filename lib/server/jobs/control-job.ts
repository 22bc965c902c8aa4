import "server-only";

import { type JobAction, type JobKind, type JobStatus } from "@/lib/jobs/types";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, SystemActor } from "@/lib/server/auth/permissions";
import { controlCriticRun } from "@/lib/server/critics/jobs";
import { controlEvidenceBatch } from "@/lib/server/evidence/jobs";
import { controlVerification } from "@/lib/server/verification/jobs";
import { AppError } from "@/lib/server/errors";

import { JOB_KIND_REGISTRY } from "./kinds";

/** Each kind named in the plural, for "only … can". */
const KIND_PLURALS: Record<JobKind, string> = {
  import: "imports",
  verification: "verifications",
  evidence: "evidence batches",
  solutions: "solution runs",
  critic: "critic runs",
  campaign: "campaign item draws",
  release: "release cuts",
  extension: "campaign extensions",
  deletion: "campaign deletions",
};

type Control = (args: { actor: Actor | SystemActor; id: string; action: JobAction }) => Promise<JobStatus>;

// The existing operation behind each kind's actions (the registry says which actions and scopes):
// the same code the kind's own page calls, so permissions, conditional updates and audit rows are
// those of today's buttons. A kind without an entry supports no action yet.
const CONTROLS: Partial<Record<JobKind, Control>> = {
  critic: ({ actor, id, action }) => controlCriticRun({ actor, runId: id, action }),
  evidence: ({ actor, id, action }) => controlEvidenceBatch({ actor, batchId: id, action }),
  verification: ({ actor, id, action }) => controlVerification({ actor, batchId: id, action }),
};

/**
 * Pauses, resumes or cancels a job through its kind's own operation. INVALID_INPUT for an action
 * the kind does not support; FORBIDDEN without the operation's scope; NOT_FOUND and CONFLICT as the
 * operation answers them. Scope: records:read, then the operation's own (critics:admin for critic runs,
 * datasets:verify for evidence batches and verifications).
 */
export async function controlJob({
  actor,
  kind,
  id,
  action,
}: {
  actor: Actor | SystemActor;
  kind: JobKind;
  id: string;
  action: JobAction;
}): Promise<{ kind: JobKind; id: string; status: JobStatus }> {
  assertCan(actor, "records:read");
  const scope = JOB_KIND_REGISTRY[kind].controls[action];
  const control = CONTROLS[kind];
  if (!scope || !control) {
    const supporting = Object.values(JOB_KIND_REGISTRY)
      .filter((entry) => entry.controls[action])
      .map((entry) => KIND_PLURALS[entry.kind]);
    throw new AppError(
      "INVALID_INPUT",
      `A job of kind "${kind}" cannot ${action}${supporting.length ? `: only ${supporting.join(", ")} can` : ""}.`,
      { action: [`Not supported for a job of kind "${kind}".`] },
    );
  }
  assertCan(actor, scope);
  return { kind, id, status: await control({ actor, id, action }) };
}
