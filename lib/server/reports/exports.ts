import "server-only";

import { stringify } from "csv-stringify/sync";
import { z } from "zod";

import type { AggregationRule, FinalLabel } from "@/lib/metrics";
import { spreadsheetSafe } from "@/lib/reports/spreadsheet-safe";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, isSystemActor, type SystemActor } from "@/lib/server/auth/permissions";

import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { prisma } from "@/lib/server/db/client";
import { type FinalLabelColumns, finalLabelsOf, toFinalLabel } from "@/lib/server/review/final-labels";
import type { VerificationRun } from "@/lib/runs/types";
import { exportedRun, latestVerificationRuns } from "@/lib/server/runs/runs";
import { criticAsSeen, criticHiddenRecordIds } from "@/lib/server/auth/visibility";

/** Items per query while streaming: memory stays flat however large the campaign. */
const PAGE = 500;

/** A record's `extra` column: the fields of its source line the record format does not name, exported as they came. */
const extraFieldsSchema = z.record(z.string(), z.unknown());

/** labels: one row per item; annotations: one row per annotation; verified: the final-Valid records. */
export type ExportKind = "labels" | "annotations" | "verified";
export type ExportFormat = "jsonl" | "csv";

type PageItem = {
  id: string;
  position: number;
  record: {
    id: number;
    key: string;
    line: number;
    language: string;
    difficulty: string | null;
    question: string;
    canonicalSolution: string;
    demoTestFunc: string;
    fullTestFunc: string;
    extra: unknown;
    executableValid: boolean | null;
    verificationOutcome: string | null;
    critic: { overallPass: boolean | null; raw: string; reasoning: string | null } | null;
  };
  adjudication: { valid: boolean; categories: string[]; reason: string } | null;
  annotations: {
    valid: boolean;
    categories: string[];
    note: string | null;
    needsReview: boolean;
    preRevealValid: boolean | null;
    activeMs: number;
    revision: number;
    createdAt: Date;
    updatedAt: Date;
    user: { email: string };
  }[];
};

/** The final labels of a page of a campaign's items, from the final-label relation. */
async function pageFinals(campaignId: string, itemIds: string[]): Promise<Map<string, FinalLabel>> {
  const rows = await prisma().$queryRawUnsafe<({ item_id: string } & FinalLabelColumns)[]>(
    `SELECT item_id, final_valid, decided_by, final_categories FROM ${finalLabelsOf("ARRAY[$1]::text[]")} WHERE item_id = ANY($2::text[])`,
    campaignId,
    itemIds,
  );
  return new Map(rows.map((row) => [row.item_id, toFinalLabel(row)]));
}

async function* campaignPages(campaignId: string, withCode: boolean): AsyncGenerator<PageItem[]> {
  let after = 0;
  for (;;) {
    const items = await prisma().campaignItem.findMany({
      where: { campaignId, gold: false, position: { gt: after } },
      orderBy: { position: "asc" },
      take: PAGE,
      select: {
        id: true,
        position: true,
        record: {
          select: {
            id: true,
            key: true,
            line: true,
            language: true,
            difficulty: true,
            question: withCode,
            canonicalSolution: withCode,
            demoTestFunc: withCode,
            fullTestFunc: withCode,
            extra: withCode,
            executableValid: true,
            verificationOutcome: true,
            critic: { select: { overallPass: true, raw: withCode, reasoning: withCode } },
          },
        },
        adjudication: { select: { valid: true, categories: true, reason: true } },
        annotations: {
          orderBy: { createdAt: "asc" },
          select: {
            valid: true,
            categories: true,
            note: true,
            needsReview: true,
            preRevealValid: true,
            activeMs: true,
            revision: true,
            createdAt: true,
            updatedAt: true,
            user: { select: { email: true } },
          },
        },
      },
    });
    if (items.length === 0) return;
    yield items as PageItem[];
    after = items[items.length - 1].position;
  }
}

function criticFieldsBack(critic: PageItem["record"]["critic"]): Record<string, unknown> {
  if (!critic) return {};
  let output: unknown = critic.raw;
  try {
    output = JSON.parse(critic.raw);
  } catch {
    // Plain-text critic output goes back as the text it was.
  }
  return { critic_result: output, ...(critic.reasoning ? { critic_reasoning: critic.reasoning } : {}) };
}

const verdict = (valid: boolean | null) => (valid === null ? null : valid ? "valid" : "invalid");

type Row = Record<string, unknown>;

const ITEM_COLUMNS = [
  "campaign",
  "record_key",
  "line",
  "language",
  "difficulty",
  "final_label",
  "categories",
  "rule",
  "decided_by",
  "adjudication_reason",
  "labels",
  "valid_labels",
  "critic_pass",
  "executable_valid",
];

const annotationColumns = (categoryKeys: string[]) => [
  ...["campaign", "record_key", "line", "language", "difficulty", "annotator", "label"],
  ...categoryKeys.map((key) => `category:${key}`),
  ...["note", "needs_review", "pre_reveal_label", "active_seconds", "revision", "created_at", "revised_at"],
];

/** One row per item: the final label, the campaign rule and how the label was reached. */
function itemRow(campaign: string, rule: AggregationRule, item: PageItem, final: FinalLabel): Row {
  return {
    campaign,
    record_key: item.record.key,
    line: item.record.line,
    language: item.record.language,
    difficulty: item.record.difficulty,
    final_label: verdict(final.valid) ?? "unresolved",
    categories: final.categories,
    rule,
    decided_by: final.decidedBy ?? "unresolved",
    adjudication_reason: item.adjudication?.reason ?? null,
    labels: item.annotations.length,
    valid_labels: item.annotations.filter((annotation) => annotation.valid).length,
    critic_pass: item.record.critic?.overallPass ?? null,
    executable_valid: item.record.executableValid,
  };
}

/** One row per annotation; in CSV each campaign category is a true/false column of its own. */
function annotationRows(campaign: string, item: PageItem, categoryKeys: string[], csv: boolean): Row[] {
  return item.annotations.map((annotation) => ({
    campaign,
    record_key: item.record.key,
    line: item.record.line,
    language: item.record.language,
    difficulty: item.record.difficulty,
    annotator: annotation.user.email,
    label: verdict(annotation.valid),
    ...(csv
      ? Object.fromEntries(categoryKeys.map((key) => [`category:${key}`, annotation.categories.includes(key)]))
      : { categories: annotation.categories }),
    note: annotation.note,
    needs_review: annotation.needsReview,
    // Blind campaigns only: the label given before the critic was shown.
    pre_reveal_label: verdict(annotation.preRevealValid),
    active_seconds: annotation.activeMs / 1000,
    revision: annotation.revision,
    created_at: annotation.createdAt.toISOString(),
    revised_at: annotation.revision > 1 ? annotation.updatedAt.toISOString() : null,
  }));
}

/**
 * A CSV cell: true/false written out, lists joined with "; ", empty only for an unknown (null) value;
 * text that a spreadsheet would run as a formula (a note "=HYPERLINK(…)") is made plain text.
 */
function csvCell(value: unknown): string | number {
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return spreadsheetSafe(value.join("; "));
  return spreadsheetSafe(value as string | number);
}

/**
 * Streams a campaign export, a line (or CSV row) at a time: `labels` — one row per item with its
 * final label, categories, the rule and how it was resolved (adjudication reason included), label
 * counts, the critic verdict and executable-valid; `annotations` — one row per annotation (annotator,
 * verdict, categories, note, pre-reveal label, active time, created and revised at); `verified` — the
 * final-Valid records in the input format (original and unknown fields) plus a `verification` object.
 * CSV writes true/false and leaves a cell empty only when the value is unknown. Critic fields blind
 * mode hides from the actor are left out (visibility.ts); the system actor (operator CLI) gets everything.
 * Scope: reports:export.
 */
export async function* exportCampaign({
  actor,
  campaignId,
  what,
  format,
}: {
  actor: Actor | SystemActor;
  campaignId: string;
  what: ExportKind;
  format: ExportFormat;
}): AsyncGenerator<string> {
  assertCan(actor, "reports:export");
  if (!isSystemActor(actor)) await getCampaign({ actor, campaignId });
  const campaign = await prisma().campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: {
      name: true,
      finalRule: true,
      categories: { orderBy: { position: "asc" }, select: { key: true } },
    },
  });
  const rule: AggregationRule = campaign.finalRule;
  const categoryKeys = campaign.categories.map((category) => category.key);
  const csv = format === "csv" && what !== "verified";
  // The header goes first, so an empty campaign still gives a CSV with its columns.
  const columns = what === "labels" ? ITEM_COLUMNS : annotationColumns(categoryKeys);
  if (csv) yield stringify([columns]);
  for await (const stored of campaignPages(campaignId, what === "verified")) {
    const hidden = await criticHiddenRecordIds({ actor, recordIds: stored.map((item) => item.record.id) });
    const page = stored.map((item) => ({
      ...item,
      record: { ...item.record, critic: criticAsSeen(item.record.critic, hidden.has(item.record.id)) },
    }));
    const lines: string[] = [];
    const finals = await pageFinals(
      campaignId,
      page.map((item) => item.id),
    );
    const runs =
      what === "verified"
        ? await latestVerificationRuns(page.map((item) => item.record.id))
        : new Map<number, VerificationRun[]>();
    for (const item of page) {
      const final = finals.get(item.id)!;
      if (what !== "verified") {
        for (const row of what === "labels"
          ? [itemRow(campaign.name, rule, item, final)]
          : annotationRows(campaign.name, item, categoryKeys, csv)) {
          if (!csv) {
            lines.push(`${JSON.stringify(row)}\n`);
            continue;
          }
          lines.push(stringify([columns.map((column) => csvCell(row[column]))]));
        }
      } else if (final.valid === true) {
        const { record } = item;
        const original = {
          question: record.question,
          canonical_solution: record.canonicalSolution,
          demo_test_func: record.demoTestFunc,
          full_test_func: record.fullTestFunc,
          language: record.language,
          ...(record.difficulty ? { difficulty: record.difficulty } : {}),
          ...extraFieldsSchema.parse(record.extra),
          ...criticFieldsBack(record.critic),
        };
        lines.push(
          `${JSON.stringify({ ...original, verification: { campaign: campaign.name, record_key: record.key, final_label: "valid", decided_by: final.decidedBy, annotators: item.annotations.length, critic_pass: record.critic?.overallPass ?? null, executable_valid: record.executableValid, execution_outcome: record.verificationOutcome, runs: (runs.get(record.id) ?? []).map(exportedRun) } })}\n`,
        );
      }
    }
    if (lines.length) yield lines.join("");
  }
}

/** Finds a campaign's id by name (CLI). */
export async function findCampaignIdByName(name: string): Promise<string | null> {
  return (await prisma().campaign.findUnique({ where: { name }, select: { id: true } }))?.id ?? null;
}
