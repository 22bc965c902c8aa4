import "server-only";

import { stringify } from "csv-stringify/sync";

import { type AggregationRule, type FinalLabel, finalLabel } from "@/lib/metrics";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";

import { getCampaign } from "./campaigns";
import { prisma } from "./client";
import { exportedRun, latestVerificationRuns, type VerificationRun } from "./runs";
import { criticAsSeen, criticHiddenRecordIds } from "./visibility";

/** Items per query while streaming: memory stays flat however large the campaign. */
const PAGE = 500;

export type ExportKind = "labels" | "verified";
export type ExportFormat = "jsonl" | "csv";

type PageItem = {
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
  adjudication: { valid: boolean; categories: string[] } | null;
  annotations: { valid: boolean; categories: string[]; note: string | null; user: { email: string } }[];
};

async function* campaignPages(campaignId: string, withCode: boolean): AsyncGenerator<PageItem[]> {
  let after = 0;
  for (;;) {
    const items = await prisma().campaignItem.findMany({
      where: { campaignId, position: { gt: after } },
      orderBy: { position: "asc" },
      take: PAGE,
      select: {
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
        adjudication: { select: { valid: true, categories: true } },
        annotations: { orderBy: { createdAt: "asc" }, select: { valid: true, categories: true, note: true, user: { select: { email: true } } } },
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

const LABEL_COLUMNS = ["record_key", "line", "language", "difficulty", "final_label", "categories", "decided_by", "annotator_labels", "critic_pass", "executable_valid"];

function labelRow(item: PageItem, final: FinalLabel) {
  return {
    record_key: item.record.key,
    line: item.record.line,
    language: item.record.language,
    difficulty: item.record.difficulty,
    final_label: final.valid === null ? "unresolved" : final.valid ? "valid" : "invalid",
    categories: final.categories,
    decided_by: final.decidedBy,
    annotator_labels: item.annotations.map((annotation) => ({ annotator: annotation.user.email, label: annotation.valid ? "valid" : "invalid", categories: annotation.categories, note: annotation.note })),
    critic_pass: item.record.critic?.overallPass ?? null,
    executable_valid: item.record.executableValid,
  };
}

/**
 * Streams a campaign export, a line (or CSV row) at a time: `labels` — every item with its final
 * label, categories, who decided, each annotator's label, the critic verdict and executable-valid;
 * `verified` — the final-Valid records in the input format (original and unknown fields) plus a
 * `verification` object. Critic fields blind mode hides from the actor are left out (visibility.ts);
 * the operator CLI (no actor) gets everything. Scope: reports:export.
 */
export async function* exportCampaign({ actor, campaignId, what, format }: { actor: Actor | null; campaignId: string; what: ExportKind; format: ExportFormat }): AsyncGenerator<string> {
  if (actor) {
    assertCan(actor, "reports:export");
    await getCampaign({ actor, campaignId });
  }
  const campaign = await prisma().campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { name: true, finalRule: true, categories: { select: { key: true, invalidating: true } } } });
  const rule = campaign.finalRule as AggregationRule;
  const invalidatingKeys = new Set(campaign.categories.filter((category) => category.invalidating).map((category) => category.key));
  if (what === "labels" && format === "csv") yield stringify([LABEL_COLUMNS]);
  for await (const stored of campaignPages(campaignId, what === "verified")) {
    const hidden = await criticHiddenRecordIds({ actor, recordIds: stored.map((item) => item.record.id) });
    const page = stored.map((item) => ({ ...item, record: { ...item.record, critic: criticAsSeen(item.record.critic, hidden.has(item.record.id)) } }));
    const lines: string[] = [];
    const runs = what === "verified" ? await latestVerificationRuns(page.map((item) => item.record.id)) : new Map<number, VerificationRun[]>();
    for (const item of page) {
      const final = finalLabel({ rule, labels: item.annotations, adjudication: item.adjudication, invalidatingKeys });
      if (what === "labels") {
        const row = labelRow(item, final);
        lines.push(format === "csv" ? stringify([LABEL_COLUMNS.map((column) => { const value = row[column as keyof typeof row]; return typeof value === "object" && value !== null ? JSON.stringify(value) : (value ?? ""); })]) : `${JSON.stringify(row)}\n`);
      } else if (final.valid === true) {
        const { record } = item;
        const original = {
          question: record.question,
          canonical_solution: record.canonicalSolution,
          demo_test_func: record.demoTestFunc,
          full_test_func: record.fullTestFunc,
          language: record.language,
          ...(record.difficulty ? { difficulty: record.difficulty } : {}),
          ...(record.extra as Record<string, unknown>),
          ...criticFieldsBack(record.critic),
        };
        lines.push(`${JSON.stringify({ ...original, verification: { campaign: campaign.name, record_key: record.key, final_label: "valid", decided_by: final.decidedBy, annotators: item.annotations.length, critic_pass: record.critic?.overallPass ?? null, executable_valid: record.executableValid, execution_outcome: record.verificationOutcome, runs: (runs.get(record.id) ?? []).map(exportedRun) } })}\n`);
      }
    }
    if (lines.length) yield lines.join("");
  }
}

/** Finds a campaign's id by name (CLI). */
export async function findCampaignIdByName(name: string): Promise<string | null> {
  return (await prisma().campaign.findUnique({ where: { name }, select: { id: true } }))?.id ?? null;
}
