import { Badge } from "@/components/ui/primitives";
import type { CampaignStatus } from "@/lib/validation/campaigns";

const TONES = { ACTIVE: "green", PAUSED: "amber", CLOSED: "gray", ARCHIVED: "gray" } as const;

/** A campaign's status as a small badge ("active", "paused", …). */
export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return <Badge tone={TONES[status]}>{status.toLowerCase()}</Badge>;
}
