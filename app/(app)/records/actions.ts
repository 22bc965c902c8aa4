"use server";

import { revalidatePath } from "next/cache";

import { createAction } from "@/lib/server/action";
import { clearGoldAnswer, setGoldAnswer } from "@/lib/server/db/gold";
import { clearGoldSchema, setGoldSchema } from "@/lib/validation/gold";

/** Sets a record's gold answer (known verdict and categories). Scope: gold:write. */
export const setGoldAnswerAction = createAction("gold:write", setGoldSchema, async ({ input: { recordId, ...answer }, actor }) => {
  const saved = await setGoldAnswer({ actor, recordId, answer });
  revalidatePath(`/records/${recordId}`);
  return { valid: saved.valid, categories: saved.categories };
});

/** Removes a record's gold answer. Scope: gold:write. */
export const clearGoldAnswerAction = createAction("gold:write", clearGoldSchema, async ({ input, actor }) => {
  await clearGoldAnswer({ actor, recordId: input.recordId });
  revalidatePath(`/records/${input.recordId}`);
  return { cleared: true };
});
