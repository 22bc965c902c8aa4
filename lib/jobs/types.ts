// The Jobs page's vocabulary: every kind of long work Verity keeps in a table of its own, read as
// one shape (lib/server/jobs reads the tables; this file is client-safe).

/**
 * The kinds of long work, one per table that holds a lifecycle: imports, batches, runs, large
 * campaigns' item draws, releases, records added to campaigns, campaigns removed.
 */
export const JOB_KINDS = [
  "import",
  "verification",
  "evidence",
  "solutions",
  "critic",
  "campaign",
  "release",
  "extension",
  "deletion",
] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** A job's state, whatever its table calls it: only critic runs can be paused or cancelled today. */
export const JOB_STATUSES = ["RUNNING", "PAUSED", "CANCELLED", "SUCCEEDED", "FAILED"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** What a person can do to a job that supports it (each kind says which, and which operation does it). */
export const JOB_ACTIONS = ["pause", "resume", "cancel"] as const;
export type JobAction = (typeof JOB_ACTIONS)[number];

/** What a kind counts as done of total. */
export type JobUnit = "bytes" | "records" | "record tasks" | "solutions" | "items";

/** How each kind is named to people. */
export const JOB_KIND_LABELS: Record<JobKind, string> = {
  import: "Import",
  verification: "Verification",
  evidence: "Evidence (mutants, flaky reruns)",
  solutions: "Solution run",
  critic: "Critic run",
  campaign: "Campaign items drawn",
  release: "Release cut",
  extension: "Campaign records added",
  deletion: "Campaign deleted",
};

/** The statuses each action may start from (the operations behind them decide again, in their transaction). */
export const ACTION_FROM: Record<JobAction, readonly JobStatus[]> = {
  pause: ["RUNNING"],
  resume: ["PAUSED"],
  cancel: ["RUNNING", "PAUSED"],
};

/** One job as the Jobs page, `GET /api/v1/jobs` and `verity jobs` show it. */
export type JobView = {
  id: string;
  kind: JobKind;
  status: JobStatus;
  done: number;
  total: number;
  unit: JobUnit;
  /** Who started it; null when Verity did (the CLI, the demo, start-up). */
  startedBy: { name: string | null; email: string } | null;
  createdAt: Date;
  /** When its work began: every kind starts when it is created (nothing waits in a queue of its own yet). */
  startedAt: Date;
  finishedAt: Date | null;
  dataset: string | null;
  /** Its scope beyond the dataset (a language, a critic and version, a file), in words. */
  scope: string;
  /** Its result so far, in words ("12 pass · 2 fail"). */
  result: string;
  /** Why it stopped before its end, or an import's failure; null otherwise. */
  stopReason: string | null;
  /** The page that shows it in full (its batch page, its dataset's evidence, its run page). */
  href: string;
  /** The actions the caller may take on it now. */
  actions: JobAction[];
  /** Items (in `unit`) per minute since it started; null when nothing can be said yet. */
  perMinute: number | null;
  /** Seconds until it ends at that rate, for a running job; null otherwise. */
  etaSeconds: number | null;
};

export type JobPage = { jobs: JobView[]; nextCursor: string | null };
