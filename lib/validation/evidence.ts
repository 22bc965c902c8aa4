import { z } from "zod";

import { DEFAULT_REPEAT, MAX_REPEAT } from "@/lib/evidence/flaky";

/** A flakiness check of one record on request: how many times to run each test (2 to 20, default 3). */
export const flakyCheckSchema = z.object({
  repeat: z
    .number({ error: `A whole number from 2 to ${MAX_REPEAT}.` })
    .int(`A whole number from 2 to ${MAX_REPEAT}.`)
    .min(2, "At least 2 runs are needed to see a difference.")
    .max(MAX_REPEAT, `A whole number from 2 to ${MAX_REPEAT}.`)
    .default(DEFAULT_REPEAT),
});
