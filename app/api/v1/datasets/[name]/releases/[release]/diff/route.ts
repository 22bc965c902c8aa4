import { z } from "zod";

import { answer, apiRoute, parseSearchParams, pathSegment } from "@/lib/server/http";
import { diffNamedReleases } from "@/lib/server/releases/build-release";
import { releaseNameSchema } from "@/lib/validation/releases";

const querySchema = z.object({ from: releaseNameSchema });

/** GET /api/v1/datasets/{name}/releases/{release}/diff?from=A → {a, b, added, removed, revised} from release A to this one. */
export const GET = apiRoute<{ name: string; release: string }>("releases:read", async ({ request, actor, params }) => {
  const { from } = parseSearchParams(request, querySchema);
  return answer(
    "GET /datasets/{name}/releases/{release}/diff",
    await diffNamedReleases({ actor, datasetName: pathSegment(params.name), a: from, b: pathSegment(params.release) }),
  );
});
