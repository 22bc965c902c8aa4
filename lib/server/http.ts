import "server-only";

import { z } from "zod";

import type { AnswerOf, JsonOperation } from "@/lib/api/catalog";
import { getRequestActor } from "@/lib/server/auth/actor";
import { config } from "@/lib/server/config";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, Scope } from "@/lib/server/auth/permissions";
import { databaseFailure } from "@/lib/server/db/failures";
import { AppError, HTTP_STATUS } from "@/lib/server/errors";

type RouteContext<P> = { params: Promise<P> };

/** The largest JSON body a route reads (the biggest legitimate one, a scratch run, holds 2 MB of code). */
const MAX_JSON_BYTES = 4 * 1024 * 1024;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Turns an error into the API's JSON error answer: expected failures keep their message, others are logged and hidden. */
export function errorResponse(error: unknown): Response {
  const failure = databaseFailure(error);
  if (failure) {
    console.error(
      `${failure.message} (${error instanceof Error ? error.message.trim().split("\n").at(-1) : String(error)})`,
    );
    return errorResponse(failure);
  }
  if (error instanceof AppError) {
    return Response.json(
      { error: { code: error.code, message: error.message, fieldErrors: error.fieldErrors } },
      { status: HTTP_STATUS[error.code] },
    );
  }
  if (error instanceof z.ZodError) {
    return Response.json(
      { error: { code: "INVALID_INPUT", message: "Invalid input.", fieldErrors: z.flattenError(error).fieldErrors } },
      { status: 422 },
    );
  }
  console.error(error);
  return Response.json(
    { error: { code: "INTERNAL", message: "Something went wrong on the server. It has been logged." } },
    { status: 500 },
  );
}

/**
 * Wraps a route handler: resolves the actor (Bearer token or session), checks the scope, refuses
 * cross-site writes made with the session cookie, and maps errors to JSON answers (401/403/404/409/
 * 413/415/422, 503 when the database is down, never a 500 for bad input).
 */
export function apiRoute<P = Record<string, never>>(
  scope: Scope,
  handler: (args: { request: Request; actor: Actor; params: P }) => Promise<Response>,
) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      const actor = await getRequestActor(request);
      assertCan(actor, scope);
      if (!isTokenRequest(request) && !SAFE_METHODS.has(request.method)) assertSameOrigin(request);
      const params = await context.params;
      // No id or name holds a NUL; PostgreSQL would refuse to even compare one.
      if (Object.values(params ?? {}).some((value) => typeof value === "string" && pathSegment(value).includes("\0")))
        throw new AppError("NOT_FOUND", "Not found.");
      return await handler({ request, actor, params });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/**
 * A route's JSON answer for its operation in the API catalog ("GET /campaigns/{id}"): the body's type
 * is the catalog schema's, so an answer that drifts from what the catalog (and the OpenAPI document)
 * promises fails to compile. Not parsed here: the route tests parse every answer with the schema.
 */
export function answer<K extends JsonOperation>(operation: K, body: AnswerOf<K>, init?: ResponseInit): Response {
  return Response.json(body, init);
}

/** Parses URL search parameters with a zod schema; failures become 422 with field errors. */
export function parseSearchParams<T extends z.ZodType>(request: Request, schema: T): z.infer<T> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = schema.safeParse(params);
  if (!parsed.success)
    throw new AppError(
      "INVALID_INPUT",
      "Invalid query parameters.",
      z.flattenError(parsed.error).fieldErrors as Record<string, string[]>,
    );
  return parsed.data;
}

/** A request that carries its own credentials (an API token) rather than the browser's cookie. */
function isTokenRequest(request: Request): boolean {
  return request.headers.has("authorization");
}

/**
 * CSRF: a browser attaches the session cookie to a form posted from any page of the same site (even
 * another port of the same host), so a cookie-authenticated write must come from Verity's own pages:
 * an Origin equal to the public URL's, or the browser's own word that it is same-origin
 * (Sec-Fetch-Site cannot be set by a page). Token requests carry no ambient credentials.
 */
function assertSameOrigin(request: Request): void {
  if (request.headers.get("sec-fetch-site") === "same-origin") return;
  const origin = request.headers.get("origin");
  if (origin !== null && origin === new URL(config().publicUrl).origin) return;
  throw new AppError(
    "FORBIDDEN",
    "Cross-site request refused: a request signed in with the browser's session must come from Verity's own pages. Scripts and other tools use an API token.",
  );
}

function tooLarge(maxBytes: number): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `The body is larger than the ${formatBytes(maxBytes)} this route accepts.`);
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

/** Refuses (413) a request whose declared Content-Length is over `maxBytes`, before reading anything. */
export function assertContentLength(request: Request, maxBytes: number): void {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
}

/**
 * The request body as a stream of at most `maxBytes`: a declared Content-Length over the limit is
 * refused before reading, and a body that streams past it (chunked, or lying about its length) fails
 * with PAYLOAD_TOO_LARGE as soon as it does, so no route buffers more than its limit.
 */
export async function* limitedBody(request: Request, maxBytes: number): AsyncGenerator<Uint8Array> {
  assertContentLength(request, maxBytes);
  if (!request.body) return;
  const reader = request.body.getReader();
  let size = 0;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      size += chunk.value.byteLength;
      if (size > maxBytes) throw tooLarge(maxBytes);
      yield chunk.value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** The whole body as bytes, at most `maxBytes` of them (see {@link limitedBody}). */
export async function readBody(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  for await (const part of limitedBody(request, maxBytes)) parts.push(part);
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * Reads a JSON body of at most {@link MAX_JSON_BYTES}. A body that is not JSON is a 422, not a 500;
 * a cookie-authenticated one must say it is JSON (415 otherwise), which no cross-site HTML form can.
 */
export async function readJson(request: Request): Promise<unknown> {
  assertJsonType(request);
  return parseJson(await readBody(request, MAX_JSON_BYTES));
}

/** As {@link readJson}, for a route whose body may be left out: no body at all reads as `undefined`. */
export async function readOptionalJson(request: Request): Promise<unknown> {
  const body = await readBody(request, MAX_JSON_BYTES);
  if (body.byteLength === 0) return undefined;
  assertJsonType(request);
  return parseJson(body);
}

function assertJsonType(request: Request): void {
  const type = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (!isTokenRequest(request) && type !== "application/json") {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as JSON, with Content-Type: application/json.");
  }
}

function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(body));
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

/**
 * Whether a GET that would change something (claiming an item) was asked for by the user in this
 * app: a navigation the browser marks as coming from our own pages (`Sec-Fetch-Site: same-origin`)
 * or typed by the user (`none`), loading a document or fetched by the app's router (`empty`), and
 * not a prefetch. An <img>, a link or a form on another site or port is none of these, and a
 * client that sends no Fetch Metadata (old browsers, scripts) is treated the same way: it gets a
 * page with a button instead, whose server action does the write.
 */
export function isDeliberateNavigation(headers: Headers): boolean {
  const site = headers.get("sec-fetch-site");
  const destination = headers.get("sec-fetch-dest");
  const isPrefetch =
    headers.has("next-router-prefetch") ||
    headers.get("purpose")?.toLowerCase() === "prefetch" ||
    (headers.get("sec-purpose")?.toLowerCase().includes("prefetch") ?? false);
  return (
    (site === "same-origin" || site === "none") &&
    (destination === "document" || destination === "empty") &&
    !isPrefetch
  );
}
