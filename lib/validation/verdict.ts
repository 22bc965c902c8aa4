import { z } from "zod";

import { singleLineText } from "./text";

// What a label and a reviewer's decision both give: a verdict, and for an invalid one the error
// categories that make it so. The workspace's and the review page's forms check with these messages.

/** The verdict and its error categories; refine an object built on it with `namesACategory, CATEGORY_NEEDED`. */
export const verdictFields = {
  valid: z.boolean({ error: "Choose Valid or Invalid." }),
  categories: z.array(singleLineText().max(41)).max(40).default([]),
};

/** An invalid verdict names at least one error category. */
export function namesACategory(body: { valid: boolean; categories: string[] }) {
  return body.valid || body.categories.length > 0;
}

export const CATEGORY_NEEDED = { message: "Pick at least one error category.", path: ["categories"] };
