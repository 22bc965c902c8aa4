import { Readable } from "node:stream";

import { apiRoute, pathSegment } from "@/lib/server/http";
import { releaseArchive } from "@/lib/server/releases/build-release";

/** GET /api/v1/datasets/{name}/releases/{release}/archive → the release folder as a .tar.gz, the same bytes every time. */
export const GET = apiRoute<{ name: string; release: string }>("releases:read", async ({ request, actor, params }) => {
  const { fileName, stream } = await releaseArchive({
    actor,
    // A reader who goes away ends the archive (and frees its files) even before the first byte.
    signal: request.signal,
    datasetName: pathSegment(params.name),
    name: pathSegment(params.release),
  });
  return new Response(Readable.toWeb(stream) as ReadableStream, {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${fileName}"`,
    },
  });
});
