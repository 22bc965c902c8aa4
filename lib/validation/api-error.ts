import { z } from "zod";

/** What every /api/v1 failure answers (lib/server/http.ts's errorResponse): `{error: {code, message, fieldErrors?}}`. */
export const apiErrorResponseSchema = z.strictObject({
  error: z.strictObject({
    code: z.string(),
    message: z.string(),
    fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
  }),
});
