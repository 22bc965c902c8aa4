import "server-only";

import { z } from "zod";

import { getSessionActor } from "@/lib/server/auth/actor";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, Scope } from "@/lib/server/auth/permissions";
import { databaseFailure } from "@/lib/server/db/failures";
import { AppError } from "@/lib/server/errors";

export type ActionResult<T> = { ok: true; data: T } | { ok: false; code: string; message: string; fieldErrors?: Record<string, string[]> };

/**
 * The one wrapper for server actions: authenticates, checks the scope, parses input with zod, and
 * turns expected failures into values. The body calls one domain function.
 */
export function createAction<S extends z.ZodType, T>(scope: Scope, schema: S, body: (args: { input: z.infer<S>; actor: Actor }) => Promise<T>) {
  return async (raw: z.input<S>): Promise<ActionResult<T>> => {
    try {
      const actor = await getSessionActor();
      assertCan(actor, scope);
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        return { ok: false, code: "INVALID_INPUT", message: "Please fix the highlighted fields.", fieldErrors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]> };
      }
      return { ok: true, data: await body({ input: parsed.data, actor }) };
    } catch (error) {
      return toActionFailure(error);
    }
  };
}

/** Maps an error to an action failure: AppErrors keep their message; anything else is logged and hidden. */
export function toActionFailure(error: unknown): { ok: false; code: string; message: string; fieldErrors?: Record<string, string[]> } {
  if (error instanceof AppError) return { ok: false, code: error.code, message: error.message, fieldErrors: error.fieldErrors };
  const failure = databaseFailure(error);
  if (failure) {
    console.error(failure.message, error instanceof Error ? error.message.trim().split("\n").at(-1) : "");
    return toActionFailure(failure);
  }
  console.error(error);
  return { ok: false, code: "INTERNAL", message: "Something went wrong on the server. It has been logged; please try again." };
}
