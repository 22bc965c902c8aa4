"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";

import { createAction } from "@/lib/server/action";
import { getCriticRunProgress } from "@/lib/server/critics/get-critic-run-progress";
import { saveCritic } from "@/lib/server/critics/save-critic";
import { controlCriticRun, startCriticRun } from "@/lib/server/critics/jobs";
import { criticRunActionSchema, saveCriticSchema, startCriticRunSchema } from "@/lib/validation/critics";

/** Creates a critic or saves a new prompt version of it, as `verity critic add` does. Scope: critics:admin. */
export const saveCriticAction = createAction("critics:admin", saveCriticSchema, async ({ input, actor }) => {
  const saved = await saveCritic({ actor, input });
  revalidatePath("/critics");
  return saved;
});

/** Starts (or resumes) a run of a critic's newest version, as `verity critic run` does. Scope: critics:admin. */
export const startCriticRunAction = createAction("critics:admin", startCriticRunSchema, async ({ input, actor }) => {
  const run = await startCriticRun({
    actor,
    criticName: input.critic,
    datasetName: input.dataset,
    language: input.language,
    campaignId: input.campaignId,
  });
  revalidatePath("/critics");
  return run;
});

/** Pauses, resumes or cancels a critic run. Scope: critics:admin. */
export const controlCriticRunAction = createAction("critics:admin", criticRunActionSchema, async ({ input, actor }) => {
  const status = await controlCriticRun({ actor, runId: input.runId, action: input.action });
  revalidatePath(`/critics/runs/${input.runId}`);
  return status;
});

/** A run's counters, which the run page polls while it runs. Scope: critics:read. */
export const criticRunProgressAction = createAction(
  "critics:read",
  z.object({ runId: criticRunActionSchema.shape.runId }),
  async ({ input, actor }) => getCriticRunProgress({ actor, runId: input.runId }),
);
