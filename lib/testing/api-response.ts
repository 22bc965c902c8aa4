// Route tests read every success answer through the API catalog's schema, so an answer that drifts
// from what the catalog (and the OpenAPI document) promises — a field gone, renamed, or one too many,
// such as a critic field leaking to an annotator — fails the test that received it.
import { z } from "zod";

import { API_OPERATIONS, type Operation } from "@/lib/api/catalog";

type Method = Operation["method"];

/** The catalog's operation for a method and an OpenAPI path ("/campaigns/{id}/claim"). */
function apiOperation(method: Method, path: string): Operation {
  const operation = API_OPERATIONS.find((entry) => entry.method === method && entry.path === path);
  if (!operation) throw new Error(`${method} ${path} is not in the API catalog`);
  return operation;
}

/** Parses a success body (a stream: its lines) with the operation's schema; throws saying which field is wrong. */
export function expectResponse(method: Method, path: string, body: unknown): unknown {
  const { response, stream } = apiOperation(method, path);
  // Not described yet (the catalog test names each such operation): nothing to parse with.
  if (response === undefined) return body;
  if (response === null) throw new Error(`${method} ${path} answers 204 without a body`);
  const schema = stream ? z.array(response) : response;
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new Error(`${method} ${path} answered what the catalog does not say:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * Reads a 2xx answer of a route handler and parses it with the operation's schema: JSON, or JSON
 * Lines for a stream; a 204 must have no body and is null. Fails for any other status.
 */
export async function readResponse(response: Response, method: Method, path: string): Promise<unknown> {
  const { file } = apiOperation(method, path);
  if (file && response.status >= 200 && response.status <= 299) {
    // A file (a release's .tar.gz): its media type is the promise, its bytes the answer.
    const type = response.headers.get("content-type");
    if (type !== file) throw new Error(`${method} ${path} answered ${type}, not ${file}`);
    return Buffer.from(await response.arrayBuffer());
  }
  const text = await response.text();
  if (response.status < 200 || response.status > 299)
    throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  if (response.status === 204) {
    if (text !== "") throw new Error(`${method} ${path} answered 204 with a body`);
    return null;
  }
  const type = response.headers.get("content-type") ?? "";
  const body = type.includes("ndjson")
    ? text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as unknown)
    : (JSON.parse(text) as unknown);
  return expectResponse(method, path, body);
}
