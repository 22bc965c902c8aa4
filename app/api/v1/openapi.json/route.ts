import { openApiDocument } from "@/lib/api/catalog";
import { config } from "@/lib/server/config";

/** GET /api/v1/openapi.json — the OpenAPI document of the whole /api/v1 (public, like any API description). */
export function GET(): Response {
  return Response.json(openApiDocument(config().publicUrl));
}
