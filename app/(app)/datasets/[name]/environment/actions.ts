"use server";

import { revalidatePath } from "next/cache";

import { createAction } from "@/lib/server/action";
import { environmentLog } from "@/lib/server/environments/environments";
import { startEnvironmentBuild } from "@/lib/server/environments/start-build";
import { buildEnvironmentSchema, environmentLogInputSchema } from "@/lib/validation/environments";

/**
 * Declares a new environment version and builds it in the background, as POST
 * /api/v1/datasets/{name}/environments does. Scope: datasets:verify.
 */
export const buildEnvironmentAction = createAction(
  "datasets:verify",
  buildEnvironmentSchema,
  async ({ input: { dataset, ...spec }, actor }) => {
    const started = await startEnvironmentBuild({ actor, datasetName: dataset, spec });
    revalidatePath(`/datasets/${encodeURIComponent(dataset)}/environment`);
    return started;
  },
);

/** A version's build log so far, which the environment page polls while it builds. Scope: datasets:verify. */
export const environmentLogAction = createAction(
  "datasets:verify",
  environmentLogInputSchema,
  async ({ input, actor }) => environmentLog({ actor, datasetName: input.dataset, version: input.version }),
);
