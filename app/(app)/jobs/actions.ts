"use server";

import { revalidatePath } from "next/cache";

import { createAction } from "@/lib/server/action";
import { controlJob } from "@/lib/server/jobs/control-job";
import { jobControlSchema } from "@/lib/validation/jobs";

/**
 * Pauses, resumes or cancels a job from the Jobs page through its kind's own operation (critic runs:
 * controlCriticRun, critics:admin). Scope: records:read, then the operation's.
 */
export const controlJobAction = createAction("records:read", jobControlSchema, async ({ input, actor }) => {
  const changed = await controlJob({ actor, ...input });
  revalidatePath("/jobs");
  return changed;
});
