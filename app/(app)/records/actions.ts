"use server";

import { z } from "zod";

import { createAction } from "@/lib/server/action";
import { runRecord } from "@/lib/server/db/runs";
import { MAX_INT4 } from "@/lib/validation/records";
import { runRequestSchema } from "@/lib/validation/runs";

/** Runs a record the actor sees in the sandbox, as POST /api/v1/records/{id}/runs does. Scope: sandbox:run. */
export const runRecordAction = createAction("sandbox:run", runRequestSchema.and(z.object({ recordId: z.number().int().min(1).max(MAX_INT4) })), async ({ input, actor }) => {
  return runRecord({ actor, ...input });
});
