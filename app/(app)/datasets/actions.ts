"use server";

import { revalidatePath } from "next/cache";

import { createAction } from "@/lib/server/action";
import { importGoldAnswers } from "@/lib/server/db/gold";
import { importGoldSchema } from "@/lib/validation/gold";

/** Imports a file of gold answers into a dataset, all or nothing. Scope: gold:write. */
export const importGoldAnswersAction = createAction("gold:write", importGoldSchema, async ({ input, actor }) => {
  const summary = await importGoldAnswers({ actor, datasetName: input.dataset, text: input.text });
  revalidatePath(`/datasets/${encodeURIComponent(input.dataset)}`);
  return summary;
});
