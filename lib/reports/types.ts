// What a report shows: client-safe shapes, no server code.
import type { SamplingMode } from "@/lib/evidence/suspicion";
import type { AggregationRule } from "@/lib/metrics";
import type { ReportRow } from "@/lib/reports/format";

/** Which items a report's rates count: only randomly sampled ones (see SAMPLING_RULE). */
type ReportSampling = {
  /** How this campaign's items were chosen (a dataset report: always "random", the campaigns it counts). */
  mode: SamplingMode;
  note: string;
};

export type CampaignReport = {
  campaign: { id: string; name: string; dataset: string; finalRule: string; overlap: number };
  sampling: ReportSampling;
  byLanguage: Record<string, ReportRow>;
  pooled: ReportRow;
  /** Unweighted mean over languages of each rate; counts are totals; no interval. */
  macro: ReportRow;
  byDifficulty: Record<string, Pick<ReportRow, "sampled" | "resolved" | "valid" | "validity" | "ci">>;
  byCategory: { key: string; label: string; count: number; shareOfInvalid: number | null }[];
  categoriesByLanguage: Record<string, Record<string, number>>;
  /**
   * Records of the report's sample (gold items aside) whose repeated runs gave different outcomes,
   * per language and in all: what batch verification's flaky option or the evidence batches found.
   * A count beside the figures, never part of them: validity rests on people's labels alone.
   */
  flaky: { records: number; byLanguage: Record<string, number> };
};

export type DatasetReport = CampaignReport & {
  /** The campaigns the figures count: the randomly sampled ones. */
  campaigns: { id: string; name: string; finalRule: AggregationRule }[];
  rule: string;
  /** Suspicion-ordered campaigns and their items, which the figures leave out. */
  leftOut: { campaigns: { id: string; name: string }[]; items: number; labelledItems: number };
};
