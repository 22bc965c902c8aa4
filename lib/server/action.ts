import "server-only";

import { z } from "zod";

import { type Action, type ActionFailure, type ActionResult, invalidInput } from "@/lib/actions/result";

import { getSessionActor } from "@/lib/server/auth/actor";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, Scope } from "@/lib/server/auth/permissions";
import { databaseFailure } from "@/lib/server/db/failures";
import { AppError } from "@/lib/server/errors";

/**
 * The one wrapper for server actions: authenticates, checks the scope, parses input with zod, and
 * turns expected failures into values. The body calls one domain function.
 */
export function createAction<S extends z.ZodType, T>(
  scope: Scope,
  schema: S,
  body: (args: { input: z.infer<S>; actor: Actor }) => Promise<T>,
): Action<z.input<S>, T> {
  return async (raw) =>
    settle(async () => {
      const actor = await getSessionActor();
      assertCan(actor, scope);
      return parseThen(schema, raw, (input) => body({ input, actor }));
    });
}

/**
 * The same wrapper for the few actions a signed-out visitor may call (the first admin, accepting an
 * invitation): no session and no scope, so the body must authorise the call itself (the setup code,
 * the invitation token). Next.js still refuses a cross-site call (Origin must match Host).
 */
export function createPublicAction<S extends z.ZodType, T>(
  schema: S,
  body: (args: { input: z.infer<S> }) => Promise<T>,
): Action<z.input<S>, T> {
  return async (raw) => settle(() => parseThen(schema, raw, (input) => body({ input })));
}

async function parseThen<S extends z.ZodType, T>(
  schema: S,
  raw: unknown,
  body: (input: z.infer<S>) => Promise<T>,
): Promise<ActionResult<T>> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return invalidInput(parsed.error);
  return { ok: true, data: await body(parsed.data) };
}

async function settle<T>(run: () => Promise<ActionResult<T>>): Promise<ActionResult<T>> {
  try {
    return await run();
  } catch (error) {
    return toActionFailure(error);
  }
}

/** Maps an error to an action failure: AppErrors keep their message; anything else is logged and hidden. */
function toActionFailure(error: unknown): ActionFailure {
  if (error instanceof AppError)
    return { ok: false, code: error.code, message: error.message, fieldErrors: error.fieldErrors };
  const failure = databaseFailure(error);
  if (failure) {
    console.error(failure.message, error instanceof Error ? error.message.trim().split("\n").at(-1) : "");
    return toActionFailure(failure);
  }
  console.error(error);
  return {
    ok: false,
    code: "INTERNAL",
    message: "Something went wrong on the server. It has been logged; please try again.",
  };
}
