// The review queue's query string, shared by the queue page, its filters and the adjudication view.
import type { EvidenceReason } from "@/lib/evidence/suspicion";
import { queueQuerySchema } from "@/lib/validation/review";

export const QUEUE_LABELS = {
  annotators: "Annotators disagree",
  critic: "Human vs critic",
  execution: "Human vs execution",
  flagged: "Flagged",
} as const;

export type QueueKey = keyof typeof QUEUE_LABELS;
export const QUEUE_KEYS = Object.keys(QUEUE_LABELS) as QueueKey[];

export type QueueQuery = {
  queue?: QueueKey;
  /** An evidence queue (lib/evidence/suspicion.ts) instead of a label queue. */
  look?: EvidenceReason;
  weakBelow?: number;
  language?: string;
  annotator?: string;
  category?: string;
  cursor?: string;
};

/** Parses the page's search params: empty fields (a GET form's "any") are dropped, an invalid value resets the filters. */
export function parseQueueQuery(raw: Record<string, string | string[] | undefined>): QueueQuery {
  const present = Object.fromEntries(
    Object.entries(raw).flatMap(([key, value]) => (typeof value === "string" && value !== "" ? [[key, value]] : [])),
  );
  const parsed = queueQuerySchema.safeParse(present);
  return parsed.success ? parsed.data : {};
}

/** "?queue=…&language=…" for the given query, or "" when it holds no filter. */
export function queueSearch(query: QueueQuery): string {
  const params = new URLSearchParams(
    Object.entries(query).flatMap(([key, value]) =>
      value === undefined || value === "" ? [] : [[key, String(value)]],
    ),
  );
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The filters listReviewQueue takes (the cursor is where a page starts, not a filter). */
export function toQueueFilters(query: QueueQuery) {
  return { queue: query.queue, language: query.language, annotatorId: query.annotator, category: query.category };
}

/** The filters listEvidenceQueue takes, when the query names an evidence queue. */
export function toEvidenceQueueFilters(query: QueueQuery) {
  return query.look ? { reason: query.look, weakBelow: query.weakBelow, language: query.language } : null;
}
