// The audit page's query string: filters from a GET form plus the "Older" cursor. Every family of
// event the app writes has a prefix here (lib/server/audit/audit-families.test.ts checks the source).
import { z } from "zod";
import { singleLineText } from "@/lib/validation/text";

export const ACTION_PREFIXES = [
  "label.",
  "adjudication.",
  "user.",
  "invitation.",
  "token.",
  "dataset.",
  "dataset.solutions.",
  "campaign.",
  "item.",
  "comment.",
  "critic.",
  "revision.",
  "release.",
  "gold.",
] as const;
export const TARGET_TYPES = [
  "Annotation",
  "ApiToken",
  "Campaign",
  "CampaignItem",
  "Critic",
  "CriticRun",
  "Dataset",
  "Invitation",
  "Record",
  "User",
] as const;

const auditQuerySchema = z.object({
  action: z.enum(ACTION_PREFIXES).optional(),
  targetType: z.enum(TARGET_TYPES).optional(),
  actor: singleLineText().trim().max(200).optional(),
  since: z.iso.date().optional(),
  campaign: singleLineText().max(100).optional(),
  before: singleLineText().max(100).optional(),
});

export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** Parses the search params; empty fields are "any", an invalid value resets the filters. */
export function parseAuditQuery(raw: Record<string, string | string[] | undefined>): AuditQuery {
  const present = Object.fromEntries(
    Object.entries(raw).flatMap(([key, value]) =>
      typeof value === "string" && value.trim() !== "" ? [[key, value]] : [],
    ),
  );
  const parsed = auditQuerySchema.safeParse(present);
  return parsed.success ? parsed.data : {};
}

/** "?…" for a query (without the cursor unless given). */
export function auditSearch(query: AuditQuery): string {
  const text = new URLSearchParams(
    Object.entries(query).flatMap(([key, value]) => (value ? [[key, value]] : [])),
  ).toString();
  return text ? `?${text}` : "";
}
