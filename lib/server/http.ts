import "server-only";

import { z } from "zod";

import { getRequestActor } from "@/lib/server/auth/actor";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, Scope } from "@/lib/server/auth/permissions";
import { databaseFailure } from "@/lib/server/db/failures";
import { AppError, HTTP_STATUS } from "@/lib/server/errors";

type RouteContext<P> = { params: Promise<P> };

/** Turns an error into the API's JSON error answer: expected failures keep their message, others are logged and hidden. */
export function errorResponse(error: unknown): Response {
  const failure = databaseFailure(error);
  if (failure) {
    console.error(`${failure.message} (${error instanceof Error ? error.message.trim().split("\n").at(-1) : String(error)})`);
    return errorResponse(failure);
  }
  if (error instanceof AppError) {
    return Response.json({ error: { code: error.code, message: error.message, fieldErrors: error.fieldErrors } }, { status: HTTP_STATUS[error.code] });
  }
  if (error instanceof z.ZodError) {
    return Response.json({ error: { code: "INVALID_INPUT", message: "Invalid input.", fieldErrors: z.flattenError(error).fieldErrors } }, { status: 422 });
  }
  console.error(error);
  return Response.json({ error: { code: "INTERNAL", message: "Something went wrong on the server. It has been logged." } }, { status: 500 });
}

/**
 * Wraps a route handler: resolves the actor (Bearer token or session), checks the scope, and maps
 * errors to JSON answers (401/403/404/409/422, never a 500 for bad input).
 */
export function apiRoute<P = Record<string, never>>(scope: Scope, handler: (args: { request: Request; actor: Actor; params: P }) => Promise<Response>) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      const actor = await getRequestActor(request);
      assertCan(actor, scope);
      return await handler({ request, actor, params: await context.params });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/** Parses URL search parameters with a zod schema; failures become 422 with field errors. */
export function parseSearchParams<T extends z.ZodType>(request: Request, schema: T): z.infer<T> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new AppError("INVALID_INPUT", "Invalid query parameters.", z.flattenError(parsed.error).fieldErrors as Record<string, string[]>);
  return parsed.data;
}

/** Reads a JSON body; a body that is not JSON is a 422, not a 500. */
export async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new AppError("INVALID_INPUT", "The body must be JSON.");
  }
}

/** A URL path segment as text; tolerates both raw and already-decoded segments (a bad escape stays as is). */
export function pathSegment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
