// What a release stores when it is cut, in the shapes the card, the manifest and the diff read.
// Client-safe types: the dataset page shows them too.
import type { ReportRow } from "@/lib/reports/format";

/** How records are chosen: the final label (strongest across campaigns), or an accepted repair. */
export type ReleaseRule = {
  name: "final-label-valid";
  /** Leave out records whose canonical solution does not pass both tests (unknown counts as not passing). */
  requireExecutable: boolean;
  description: string;
};

/** Why a record is in or out, as of the release's creation. */
export type EntryReason = {
  label: "valid" | "invalid" | "unresolved" | "unlabelled";
  decided_by: string | null;
  categories: string[];
  rule:
    | "final-label-valid"
    | "accepted-repair"
    | "gold-answer-valid"
    | "final-label-invalid"
    | "gold-answer-invalid"
    | "unresolved"
    | "unlabelled"
    | "not-executable"
    | "execution-inconclusive";
  evidence: { executable_valid: boolean | null; execution_outcome: string | null; critic_pass: boolean | null };
};

export type ReleaseValidity = {
  byLanguage: Record<string, ReportRow>;
  pooled: ReportRow;
  macro: ReportRow;
  /** The randomly sampled campaigns the rates count. */
  campaigns: string[];
  crossCampaignRule: string;
  /**
   * Suspicion-ordered campaigns, left out of the rates (their items are no sample of the dataset)
   * though their labels still decide which records are in. Absent from releases cut before it was kept.
   */
  leftOut?: { campaigns: string[]; labelledItems: number };
};

export type ReleaseDisclosure = {
  annotatorsPerItem: { mean: number | null; min: number | null; max: number | null; items: number };
  campaigns: { name: string; blind: boolean; goldShare: number; finalRule: string; overlap: number }[];
  sandbox: {
    backends: string;
    /** The toolchains batch verification and revision evidence actually ran on, per language. */
    toolchains: { language: string; backend: string; toolchain: string | null; runs: number }[];
    /** The reference sandbox's toolchain per language the release holds, for comparison. */
    reference: { language: string; label: string }[];
    /**
     * Records whose verification was INCONCLUSIVE (a time-out a busy machine could explain): not
     * known, never counted failing. Absent from releases cut before it was kept.
     */
    inconclusive?: number;
    /**
     * The dataset environments batch verification ran with (version null: none), with what each
     * declared, and the harness profile each language ran with. Absent from releases cut before them.
     */
    environments?: { version: number | null; runs: number; declared: string | null }[];
    harness?: Record<string, string>;
  };
  revisions: { accepted: number; rejected: number; waiting: number };
  /**
   * The campaigns' labels by what their authors were shown when they gave them: the critic hidden
   * (a pre-reveal label: blind campaigns, and open ones over records a blind campaign also holds) or
   * shown. Absent from releases cut before it was kept (their card says it by campaign).
   */
  labels?: { criticHidden: number; criticShown: number };
};

/** Counts per language: records in, records out, and of those in, how many are repaired. */
export type LanguageCounts = Record<string, { records: number; excluded: number; revised: number }>;

/** A release as the card and the REST answer show it. */
export type ReleaseSummary = {
  name: string;
  dataset: string;
  /** ISO 8601, UTC: the release's one timestamp. */
  createdAt: string;
  records: number;
  excluded: number;
  revised: number;
  byLanguage: LanguageCounts;
  rule: ReleaseRule;
  validity: ReleaseValidity;
  disclosure: ReleaseDisclosure;
};

/** Where a release stands: a job stores it while BUILDING; only READY ones are read or downloaded. */
type ReleaseStatus = "BUILDING" | "READY" | "FAILED";

/** One release in a dataset's list: its name, when it was cut, its record counts (0 until READY) and its status. */
export type ReleaseListEntry = {
  name: string;
  createdAt: Date;
  records: number;
  excluded: number;
  revised: number;
  status: ReleaseStatus;
  /** Why it could not be built (FAILED); null otherwise. */
  failureReason: string | null;
};
