"use server";

import { createAction } from "@/lib/server/action";
import { checkRecordRevision } from "@/lib/server/revisions/propose-revision";
import { checkRevisionSchema } from "@/lib/validation/revisions";

/**
 * The blind second check of someone else's proposed revision, as POST /api/v1/revisions/{id}/check
 * does: valid accepts it, invalid rejects it. Scope: revisions:check.
 */
export const checkRevisionAction = createAction(
  "revisions:check",
  checkRevisionSchema,
  async ({ input: { revisionId, ...check }, actor }) => {
    const checked = await checkRecordRevision({ actor, revisionId, input: check });
    // No revalidatePath: it would render the check page again, which a checked revision has left
    // (not found) before its form could say what happened; the queue and record pages are dynamic.
    return { status: checked.status, number: checked.number, recordId: checked.recordId };
  },
);
