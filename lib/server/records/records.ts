import "server-only";

import { type CriticVerdict, storedCriticRules } from "@/lib/records/critic";
import type { EvidenceReason } from "@/lib/evidence/suspicion";
import { NO_EVIDENCE, type RecordEvidence } from "@/lib/evidence/types";
import type { DatasetFacets, RecordListItem } from "@/lib/records/types";
import { OUTCOME_FILTERS, type OutcomeFilter } from "@/lib/records/verification";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";

import type { Prisma } from "@/lib/generated/prisma/client";

import { prisma } from "@/lib/server/db/client";
import { evidenceOfRecords } from "@/lib/server/evidence/evidence";
import { countEvidenceReasons, evidenceReasonWhere } from "@/lib/server/evidence/reasons";
import {
  criticAsSeen,
  criticHiddenRecordWhere,
  evidenceHiddenRecordWhere,
  executionAsSeen,
  executionHiddenRecordWhere,
  hiddenRecordIds,
  visibleDatasetWhere,
  visibleRecordWhere,
} from "@/lib/server/auth/visibility";

export type DatasetSummary = {
  id: string;
  name: string;
  createdAt: Date;
  records: number;
  byLanguage: Record<string, number>;
};

/** The datasets the actor sees (see visibility.ts) with their record count per language. Scope: records:read. */
export async function listDatasets({ actor }: { actor: Actor }): Promise<DatasetSummary[]> {
  assertCan(actor, "records:read");
  const [datasets, counts] = await Promise.all([
    prisma().dataset.findMany({
      where: visibleDatasetWhere(actor),
      orderBy: { createdAt: "desc" },
      select: { id: true, name: true, createdAt: true },
    }),
    prisma().record.groupBy({
      by: ["datasetId", "language"],
      where: visibleRecordWhere(actor),
      _count: { _all: true },
    }),
  ]);
  return datasets.map((dataset) => {
    const byLanguage: Record<string, number> = {};
    for (const row of counts) if (row.datasetId === dataset.id) byLanguage[row.language] = row._count._all;
    return { ...dataset, records: Object.values(byLanguage).reduce((sum, n) => sum + n, 0), byLanguage };
  });
}

export type RecordView = {
  id: number;
  key: string;
  line: number;
  dataset: string;
  language: string;
  difficulty: string | null;
  question: string;
  canonicalSolution: string;
  demoTestFunc: string;
  fullTestFunc: string;
  extra: Record<string, unknown>;
  /** Null when there is no verdict, and when it is hidden from the actor (isCriticHidden). */
  critic: CriticVerdict | null;
  /** Blind mode keeps this record's critic from the actor for now (see visibility.ts). */
  isCriticHidden: boolean;
  /** Batch verification: canonical solution PASSED both tests; null until verified, and while hidden (isExecutionHidden). */
  executableValid: boolean | null;
  /** Batch verification's outcome: PASSED, the failing test's outcome, UNAVAILABLE; null until verified. */
  verificationOutcome: string | null;
  /** Repeated runs gave different outcomes (true), the same (false); null until checked. */
  flaky: boolean | null;
  /** Mutation, flakiness and solver evidence (lib/evidence/types.ts); parts hidden from the actor are null. */
  evidence: RecordEvidence;
  /** A campaign showing "nothing" keeps this record's execution from the actor for now (see visibility.ts). */
  isExecutionHidden: boolean;
  /** A campaign showing less than "all but the critic" keeps this record's evidence from the actor for now. */
  isEvidenceHidden: boolean;
};

export type RecordFilters = {
  language?: string;
  difficulty?: string;
  critic?: "pass" | "fail" | "none";
  executable?: "valid" | "failed" | "unknown" | "flaky";
  outcome?: OutcomeFilter;
  q?: string;
  /** Where people should look (lib/evidence/suspicion.ts); weakBelow is the weak-tests threshold. */
  evidence?: EvidenceReason;
  weakBelow?: number;
};

/** The fields every record view shows: its identity, content, verification and critic verdict. */
export const recordViewSelect = {
  id: true,
  key: true,
  line: true,
  language: true,
  difficulty: true,
  question: true,
  canonicalSolution: true,
  demoTestFunc: true,
  fullTestFunc: true,
  extra: true,
  executableValid: true,
  verificationOutcome: true,
  flaky: true,
  critic: {
    select: { overallPass: true, failedRules: true, rules: true, keyPoints: true, reasoning: true, raw: true },
  },
} as const satisfies Prisma.RecordSelect;

const recordSelect = {
  ...recordViewSelect,
  dataset: { select: { name: true } },
} as const satisfies Prisma.RecordSelect;

type SelectedRecord = Prisma.RecordGetPayload<{ select: typeof recordSelect }>;

function toRecordView(
  row: SelectedRecord,
  hidden: { isCriticHidden: boolean; isExecutionHidden: boolean; isEvidenceHidden: boolean },
  evidence: RecordEvidence,
): RecordView {
  const { dataset, critic, extra, ...rest } = row;
  const { isCriticHidden, isExecutionHidden, isEvidenceHidden } = hidden;
  return {
    ...executionAsSeen(rest, isExecutionHidden),
    isExecutionHidden,
    isEvidenceHidden,
    // The flag is evidence: hidden where the campaign hides evidence (evidence.flaky is null then).
    flaky: evidence.flaky,
    evidence,
    dataset: dataset.name,
    extra: (extra ?? {}) as Record<string, unknown>,
    critic: criticAsSeen(critic ? { ...critic, rules: storedCriticRules(critic.rules) } : null, isCriticHidden),
    isCriticHidden,
  };
}

async function recordWhere(actor: Actor, datasetId: string, filters: RecordFilters): Promise<Prisma.RecordWhereInput> {
  const where = await columnFilterWhere(actor, datasetId, filters);
  if (!filters.evidence) return where;
  const evidence = await evidenceReasonWhere({ actor, reason: filters.evidence, weakBelow: filters.weakBelow });
  return { AND: [where, evidence] };
}

async function columnFilterWhere(
  actor: Actor,
  datasetId: string,
  filters: RecordFilters,
): Promise<Prisma.RecordWhereInput> {
  // Filtering on what is hidden from the actor would reveal it: such records match no filter on it.
  const hiddenFromFilters: Prisma.RecordWhereInput[] = [
    ...(filters.critic ? [{ NOT: await criticHiddenRecordWhere(actor) }] : []),
    ...(filters.executable === "flaky" ? [{ NOT: evidenceHiddenRecordWhere(actor) }] : []),
    ...(filters.executable || filters.outcome ? [{ NOT: executionHiddenRecordWhere(actor) }] : []),
  ];
  return {
    datasetId,
    ...(filters.language ? { language: filters.language } : {}),
    ...(filters.difficulty ? { difficulty: filters.difficulty } : {}),
    ...(filters.critic === "pass" ? { critic: { overallPass: true } } : {}),
    ...(filters.critic === "fail" ? { critic: { overallPass: false } } : {}),
    ...(filters.critic === "none" ? { critic: null } : {}),
    // Flaky is a state of its own: a record whose tests gave different outcomes is neither valid nor failed.
    ...(filters.executable === "flaky"
      ? { flaky: true }
      : filters.executable
        ? {
            executableValid: filters.executable === "valid" ? true : filters.executable === "failed" ? false : null,
            ...(filters.executable === "unknown" ? {} : { OR: [{ flaky: null }, { flaky: false }] }),
          }
        : {}),
    ...(filters.outcome
      ? { verificationOutcome: filters.outcome === "not_run" ? null : { in: [...OUTCOME_FILTERS[filters.outcome]] } }
      : {}),
    // ILIKE would read % and _ in the search text as wildcards; escape them to search literally.
    ...(filters.q
      ? { question: { contains: filters.q.replace(/[\\%_]/g, "\\$&"), mode: "insensitive" as const } }
      : {}),
    ...(hiddenFromFilters.length > 0 ? { AND: hiddenFromFilters } : {}),
  };
}

/**
 * How many of a dataset's records match the filters: under an evidence reason alone (in one language
 * or all) from the kept counts (countEvidenceReasons), else by counting the matches of `where`.
 */
async function countRecords(
  actor: Actor,
  datasetId: string,
  filters: RecordFilters,
  where: Prisma.RecordWhereInput,
): Promise<number> {
  const { evidence, weakBelow, language, ...others } = filters;
  if (!evidence || Object.values(others).some((value) => value !== undefined && value !== "")) {
    return prisma().record.count({ where });
  }
  const counts = await countEvidenceReasons({ actor, datasetId, reasons: [evidence], language, weakBelow });
  return counts[evidence];
}

async function findDatasetId(actor: Actor, name: string): Promise<string> {
  const dataset = await prisma().dataset.findFirst({
    where: { name, ...visibleDatasetWhere(actor) },
    select: { id: true },
  });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${name}".`);
  return dataset.id;
}

/** The first Markdown heading or sentence of a question, as a one-line title. */
function titleOf(question: string): string {
  const firstLine =
    question
      .split("\n")
      .map((line) => line.replace(/^#+\s*/, "").trim())
      .find(Boolean) ?? "";
  return firstLine.length > 120 ? `${firstLine.slice(0, 117)}…` : firstLine;
}

/**
 * One page of a dataset's records in import order (ascending id), with keyset
 * pagination on id so page 1,000 costs what page 1 does. Scoped to datasets the actor sees; critics
 * hidden from the actor by blind mode are left out. Scope: records:read.
 */
export async function listRecords({
  actor,
  datasetName,
  filters,
  limit,
  cursor,
}: {
  actor: Actor;
  datasetName: string;
  filters: RecordFilters;
  limit: number;
  cursor?: number;
}) {
  assertCan(actor, "records:read");
  const datasetId = await findDatasetId(actor, datasetName);
  const where = await recordWhere(actor, datasetId, filters);
  const rows = await prisma().record.findMany({
    where: cursor ? { ...where, id: { gt: cursor } } : where,
    orderBy: { id: "asc" },
    take: limit + 1,
    select: recordSelect,
  });
  const recordIds = rows.slice(0, limit).map((row) => row.id);
  const [hidden, evidence] = await Promise.all([
    hiddenRecordIds({ actor, recordIds }),
    evidenceOfRecords({ actor, recordIds }),
  ]);
  const page = rows.slice(0, limit).map((row) =>
    toRecordView(
      row,
      {
        isCriticHidden: hidden.critic.has(row.id),
        isExecutionHidden: hidden.execution.has(row.id),
        isEvidenceHidden: hidden.evidence.has(row.id),
      },
      evidence.get(row.id) ?? NO_EVIDENCE,
    ),
  );
  return { records: page, nextCursor: rows.length > limit ? page[page.length - 1].id : null };
}

/** A page of list rows for the browser table plus the filtered total, scoped like listRecords. Scope: records:read. */
export async function browseRecords({
  actor,
  datasetName,
  filters,
  limit,
  cursor,
}: {
  actor: Actor;
  datasetName: string;
  filters: RecordFilters;
  limit: number;
  cursor?: number;
}) {
  assertCan(actor, "records:read");
  const datasetId = await findDatasetId(actor, datasetName);
  const where = await recordWhere(actor, datasetId, filters);
  const [rows, total] = await Promise.all([
    prisma().record.findMany({
      where: cursor ? { ...where, id: { gt: cursor } } : where,
      orderBy: { id: "asc" },
      take: limit + 1,
      select: {
        id: true,
        key: true,
        line: true,
        language: true,
        difficulty: true,
        question: true,
        executableValid: true,
        verificationOutcome: true,
        flaky: true,
        critic: { select: { overallPass: true } },
      },
    }),
    countRecords(actor, datasetId, filters, where),
  ]);
  const recordIds = rows.map((row) => row.id);
  const hidden = await hiddenRecordIds({ actor, recordIds });
  const items: RecordListItem[] = rows.slice(0, limit).map(({ question, critic: stored, flaky, ...row }) => {
    const isCriticHidden = hidden.critic.has(row.id);
    const critic = criticAsSeen(stored, isCriticHidden);
    return {
      ...executionAsSeen(row, hidden.execution.has(row.id)),
      isExecutionHidden: hidden.execution.has(row.id),
      flaky: hidden.evidence.has(row.id) ? null : flaky,
      title: titleOf(question),
      criticPass: critic?.overallPass ?? null,
      hasCritic: critic !== null,
      isCriticHidden,
    };
  });
  return { items, total, nextCursor: rows.length > limit ? items[items.length - 1].id : null };
}

/** One record the actor sees, with its critic verdict unless blind mode hides it, and its evidence. Scope: records:read. */
export async function getRecord({ actor, id }: { actor: Actor; id: number }): Promise<RecordView> {
  assertCan(actor, "records:read");
  const row = await prisma().record.findFirst({ where: { id, ...visibleRecordWhere(actor) }, select: recordSelect });
  if (!row) throw new AppError("NOT_FOUND", "No such record.");
  const [hidden, evidence] = await Promise.all([
    hiddenRecordIds({ actor, recordIds: [id] }),
    evidenceOfRecords({ actor, recordIds: [id] }),
  ]);
  return toRecordView(
    row,
    {
      isCriticHidden: hidden.critic.has(id),
      isExecutionHidden: hidden.execution.has(id),
      isEvidenceHidden: hidden.evidence.has(id),
    },
    evidence.get(id) ?? NO_EVIDENCE,
  );
}

/** The languages and difficulties present in a dataset, for filter menus. Scope: records:read. */
export async function datasetFacets({
  actor,
  datasetName,
}: {
  actor: Actor;
  datasetName: string;
}): Promise<DatasetFacets> {
  assertCan(actor, "records:read");
  const datasetId = await findDatasetId(actor, datasetName);
  const [languages, difficulties] = await Promise.all([
    prisma().record.groupBy({
      by: ["language"],
      where: { datasetId },
      _count: { _all: true },
      orderBy: { language: "asc" },
    }),
    prisma().record.groupBy({ by: ["difficulty"], where: { datasetId }, _count: { _all: true } }),
  ]);
  return {
    languages: languages.map((row) => ({ language: row.language, count: row._count._all })),
    difficulties: difficulties.flatMap((row) => (row.difficulty ? [row.difficulty] : [])).sort(),
  };
}
