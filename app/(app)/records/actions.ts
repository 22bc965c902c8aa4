"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";

import { createAction } from "@/lib/server/action";
import { checkRecordFlakiness } from "@/lib/server/evidence/jobs";
import { clearGoldAnswer, setGoldAnswer } from "@/lib/server/gold/gold";
import { runRecord } from "@/lib/server/runs/run-record";
import { recordFlakyCheckSchema } from "@/lib/validation/evidence";
import { clearGoldSchema, setGoldSchema } from "@/lib/validation/gold";
import { MAX_INT4 } from "@/lib/validation/records";
import { runRecordSchema } from "@/lib/validation/runs";
import { revisionProposalSchema } from "@/lib/validation/revisions";
import { proposeRecordRevision } from "@/lib/server/revisions/propose-revision";

/** Sets a record's gold answer (known verdict and categories). Scope: gold:write. */
export const setGoldAnswerAction = createAction(
  "gold:write",
  setGoldSchema,
  async ({ input: { recordId, ...answer }, actor }) => {
    const saved = await setGoldAnswer({ actor, recordId, answer });
    revalidatePath(`/records/${recordId}`);
    return { valid: saved.valid, categories: saved.categories };
  },
);

/** Removes a record's gold answer. Scope: gold:write. */
export const clearGoldAnswerAction = createAction("gold:write", clearGoldSchema, async ({ input, actor }) => {
  await clearGoldAnswer({ actor, recordId: input.recordId });
  revalidatePath(`/records/${input.recordId}`);
  return { cleared: true };
});

/**
 * Runs a record the actor sees in the sandbox (canonical runs or a scratch copy), as POST
 * /api/v1/records/{id}/runs does; the record page, the review page and the workspace all use it.
 * Scope: sandbox:run.
 */
export const runRecordAction = createAction(
  "sandbox:run",
  runRecordSchema,
  async ({ input: { recordId, ...request }, actor }) => ({
    runs: await runRecord({ actor, recordId, ...request }),
  }),
);

/**
 * Proposes a revision of a record (statement, solution, tests) with a reason and the categories it
 * fixes, and recomputes its evidence, as POST /api/v1/records/{id}/revisions does; the record page,
 * the workspace and the adjudication page use it. Scope: revisions:write.
 */
export const proposeRevisionAction = createAction(
  "revisions:write",
  revisionProposalSchema.and(z.object({ recordId: z.number().int().min(1).max(MAX_INT4) })),
  async ({ input: { recordId, ...proposal }, actor }) => {
    const proposed = await proposeRecordRevision({ actor, recordId, input: proposal });
    revalidatePath(`/records/${recordId}`);
    return { number: proposed.number, evidence: proposed.evidence };
  },
);

/** Runs a record's tests several times alone and stores whether they are flaky, as POST /api/v1/records/{id}/flaky. Scope: datasets:verify. */
export const checkFlakinessAction = createAction(
  "datasets:verify",
  recordFlakyCheckSchema,
  async ({ input: { recordId, repeat }, actor }) => {
    const result = await checkRecordFlakiness({ actor, recordId, repeat });
    revalidatePath(`/records/${recordId}`);
    return result;
  },
);
