// What the campaign pages and the REST API show of a campaign: client-safe shapes, no server code.
import type { CampaignStatus } from "@/lib/validation/campaigns";
import type { SamplingMode } from "@/lib/evidence/suspicion";
import type { PreLabelVisibilityName } from "@/lib/evidence/visibility";
import type { AggregationRule } from "@/lib/metrics/final-label";

export type CampaignSummary = {
  id: string;
  name: string;
  status: CampaignStatus;
  dataset: string;
  languages: string[];
  perLanguage: number | null;
  /** The sample's seed; left out for annotators: with it and the record keys they could tell sample items from gold. */
  seed?: string;
  overlap: number;
  agreementFraction: number;
  blind: boolean;
  /** What annotators see of a record before their first label (lib/evidence/visibility.ts). */
  visibility: PreLabelVisibilityName;
  /** Random (a seeded sample, counted in validity rates) or suspicion-ordered (for cleaning, left out of them). */
  sampling: SamplingMode;
  finalRule: AggregationRule;
  leaseMinutes: number;
  guidelines: string;
  requireInvalidNote: boolean;
  /** Share of each annotator's claims served from gold records; left out for annotators (visibility.ts). */
  goldShare?: number;
  itemCount: number;
  createdAt: Date;
  /**
   * The drawing of its items when a job inserts them (a sample too large to insert inside the
   * request); null when the request drew them. While RUNNING the campaign has no items yet.
   */
  itemDraw: CampaignItemDrawState | null;
};

/** Where the job drawing a large campaign's items stands (lib/server/campaigns/draw-items.ts). */
export type CampaignItemDrawState = {
  status: "RUNNING" | "SUCCEEDED" | "FAILED";
  /** Records the sample was expected to hold when it was queued. */
  total: number;
  /** Why it failed; null otherwise. */
  stopReason: string | null;
};

export type CampaignProgress = {
  items: number;
  annotationsWanted: number;
  annotationsDone: number;
  /**
   * Items with all the labels they want; null for annotators: with an overlap above one, whether
   * their own label completed an item would tell a sample item from a gold one.
   */
  itemsComplete: number | null;
  activeLeases: number;
  mine: { submitted: number; skipped: number; active: number; available: number };
  byLanguage: Record<string, { items: number; annotationsWanted: number; annotationsDone: number }>;
};

export type CampaignListProgress = Pick<
  CampaignProgress,
  "items" | "annotationsWanted" | "annotationsDone" | "itemsComplete"
>;
