import { Readable } from "node:stream";

import { z } from "zod";

import { downloadFileName } from "@/lib/reports/format";
import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { exportCampaign } from "@/lib/server/reports/exports";
import { apiRoute, parseSearchParams } from "@/lib/server/http";

const querySchema = z.object({
  what: z.enum(["labels", "annotations", "verified"]),
  format: z.enum(["jsonl", "csv"]).default("jsonl"),
});

/** GET /api/v1/campaigns/{id}/export?what=labels|annotations|verified[&format=jsonl|csv] → a streamed export (CSV for labels and annotations). */
export const GET = apiRoute<{ id: string }>("reports:export", async ({ request, actor, params }) => {
  const { what, format } = parseSearchParams(request, querySchema);
  // Checked before streaming starts, so a missing campaign is a 404 rather than a broken stream.
  const campaign = await getCampaign({ actor, campaignId: params.id });
  const outputFormat = what === "verified" ? "jsonl" : format;
  // A byte stream (not object mode): web streams must carry Uint8Array chunks, not strings.
  const body = Readable.toWeb(
    Readable.from(exportCampaign({ actor, campaignId: params.id, what, format: outputFormat }), { objectMode: false }),
  ) as ReadableStream<Uint8Array>;
  const fileName = downloadFileName({ name: campaign.name, what, extension: outputFormat });
  return new Response(body, {
    headers: {
      "content-type": outputFormat === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName}"`,
    },
  });
});
