import { RefreshWhileRunning } from "@/components/jobs/refresh-while-running";
import { Card } from "@/components/ui/primitives";
import type { CampaignItemDrawState } from "@/lib/campaigns/types";
import { countOf } from "@/lib/format/count";

/**
 * A large campaign whose items a job is drawing (or could not): what is happening and when items
 * come, refreshing the page until they are in. Nothing for a campaign whose items are drawn.
 */
export function ItemDrawNotice({ itemDraw }: { itemDraw: CampaignItemDrawState | null }) {
  if (!itemDraw || itemDraw.status === "SUCCEEDED") return null;
  const isRunning = itemDraw.status === "RUNNING";
  return (
    <Card title={isRunning ? "Drawing items…" : "Items not drawn"} className="mb-4">
      <p className="text-sm text-slate-700" role="status" data-testid="item-draw">
        {isRunning
          ? `Drawing up to ${countOf(itemDraw.total, "item")} for this campaign in the background (see Jobs). This page shows them as soon as they are in; until then nobody can claim one.`
          : `Its items could not be drawn: ${itemDraw.stopReason ?? "the job failed"}.`}
      </p>
      <RefreshWhileRunning isRunning={isRunning} everyMs={2000} />
    </Card>
  );
}
