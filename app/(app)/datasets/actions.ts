"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";

import { createAction } from "@/lib/server/action";
import { importGoldAnswers } from "@/lib/server/gold/gold";
import { getEvidenceProgress } from "@/lib/server/evidence/batches";
import { startEvidence } from "@/lib/server/evidence/jobs";
import { getVerificationProgress } from "@/lib/server/verification/batches";
import { startVerification } from "@/lib/server/verification/jobs";
import { getSolutionBatchProgress } from "@/lib/server/solvers/get-solution-batch-progress";
import { importAndRunSolutions } from "@/lib/server/solvers/jobs";
import { cutRelease } from "@/lib/server/releases/cut-release";
import { startDatasetEvidenceSchema } from "@/lib/validation/evidence";
import { importGoldSchema } from "@/lib/validation/gold";
import { releaseCreateSchema } from "@/lib/validation/releases";
import { importSolutionsSchema, solutionRunIdSchema } from "@/lib/validation/solutions";
import { datasetHarnessSchema, datasetNameSchema, verifyDatasetSchema } from "@/lib/validation/records";
import { setDatasetHarness } from "@/lib/server/verification/harness";

/** Imports a file of gold answers into a dataset, all or nothing. Scope: gold:write. */
export const importGoldAnswersAction = createAction("gold:write", importGoldSchema, async ({ input, actor }) => {
  const summary = await importGoldAnswers({ actor, datasetName: input.dataset, text: input.text });
  revalidatePath(`/datasets/${encodeURIComponent(input.dataset)}`);
  return summary;
});

// No dataset name or batch id holds a NUL; PostgreSQL would refuse to even compare one.
const name = datasetNameSchema;

/** Starts (or resumes) verifying a dataset's records, as POST /api/v1/datasets/{name}/verifications does. Scope: datasets:verify. */
export const startVerificationAction = createAction(
  "datasets:verify",
  verifyDatasetSchema,
  async ({ input, actor }) => {
    return startVerification({ actor, datasetName: input.dataset, force: input.force, repeat: input.repeat });
  },
);

/** Sets the harness profile each language runs with, as PATCH /api/v1/datasets/{name}/harness does. Scope: datasets:verify. */
export const setDatasetHarnessAction = createAction(
  "datasets:verify",
  datasetHarnessSchema,
  async ({ input, actor }) => {
    const saved = await setDatasetHarness({ actor, datasetName: input.dataset, harness: input.harness });
    revalidatePath(`/datasets/${encodeURIComponent(input.dataset)}`);
    return saved;
  },
);

/** A verification batch's counters, which the dataset page polls while it runs. Scope: records:read. */
export const verificationProgressAction = createAction(
  "records:read",
  z.object({ batchId: name }),
  async ({ input, actor }) => {
    return getVerificationProgress({ actor, batchId: input.batchId });
  },
);

/**
 * Starts (or resumes) mutation analysis and the flakiness check of a dataset's records, as
 * POST /api/v1/datasets/{name}/evidence does. Scope: datasets:verify.
 */
export const startEvidenceAction = createAction(
  "datasets:verify",
  startDatasetEvidenceSchema,
  async ({ input: { dataset, ...options }, actor }) => startEvidence({ actor, datasetName: dataset, ...options }),
);

/** An evidence batch's progress, which the dataset page polls while it runs. Scope: records:read. */
export const evidenceProgressAction = createAction(
  "records:read",
  z.object({ batchId: name }),
  async ({ input, actor }) => getEvidenceProgress({ actor, batchId: input.batchId }),
);

/** Imports a file of model outputs (all or nothing) and queues their runs, as POST /api/v1/datasets/{name}/solutions does. Scope: imports:write. */
export const importSolutionsAction = createAction("imports:write", importSolutionsSchema, async ({ input, actor }) => {
  const summary = await importAndRunSolutions({
    actor,
    datasetName: input.dataset,
    source: (async function* () {
      yield input.text;
    })(),
    defaultModel: input.model ?? null,
    origin: "web",
  });
  revalidatePath(`/datasets/${encodeURIComponent(input.dataset)}/solvers`);
  return summary;
});

/** A solution run's counters, which the solvers page polls while it runs. Scope: records:read. */
export const solutionRunProgressAction = createAction("records:read", solutionRunIdSchema, async ({ input, actor }) => {
  return getSolutionBatchProgress({ actor, batchId: input.batchId });
});

/**
 * Cuts a release of a dataset under a new name, as POST /api/v1/datasets/{name}/releases does: READY
 * with its counts, or BUILDING while a job builds a large one (the release list says how it ends); an
 * existing name is refused (CONFLICT: releases never change). Scope: releases:write.
 */
export const cutReleaseAction = createAction(
  "releases:write",
  releaseCreateSchema.extend({ dataset: name }),
  async ({ input: { dataset, ...release }, actor }) => {
    const { id: _id, ...cut } = await cutRelease({ actor, datasetName: dataset, ...release });
    revalidatePath(`/datasets/${encodeURIComponent(dataset)}`);
    return cut;
  },
);
