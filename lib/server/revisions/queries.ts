import "server-only";

import type { Prisma } from "@/lib/generated/prisma/client";
import { DEFAULT_CATEGORIES } from "@/lib/annotation/categories";
import { recordTitle } from "@/lib/records/title";
import { ENVIRONMENT_FAILURE, summarizeOutcome, UNAVAILABLE } from "@/lib/records/verification";
import {
  applyChanges,
  contentOfColumns,
  FIELD_COLUMNS,
  REVISABLE_FIELDS,
  type RevisableContent,
  type RevisableField,
} from "@/lib/revisions/fields";
import { unifiedDiff } from "@/lib/revisions/line-diff";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import {
  executionHiddenRecordIds,
  isRevisionRationaleHidden,
  othersJudgementsHiddenRecordIds,
  visibleRecordWhere,
} from "@/lib/server/auth/visibility";
import { AppError } from "@/lib/server/errors";
import type { RevisionCheck, RevisionProposal } from "@/lib/validation/revisions";

// Record revisions: repairs of a record's statement, solution or tests, proposed by a person and
// accepted only after a blind second check by someone else. The record's content columns always
// hold its accepted revision (Record.revision), so every existing reader (workspace, runs, exports,
// verification) sees the repaired record once it is accepted; revision 1 (the import) is written
// as a row before the first repair, so no version is ever lost.

/**
 * Records a revision may be proposed on or checked for by the actor: those they see, and for
 * annotators only in their languages (they repair what they can judge).
 */
function revisableRecordWhere(actor: Actor): Prisma.RecordWhereInput {
  return actor.role === "ANNOTATOR"
    ? { ...visibleRecordWhere(actor), language: { in: actor.languages } }
    : visibleRecordWhere(actor);
}

const NO_RECORD = () => new AppError("NOT_FOUND", "No such record.");
const NO_REVISION = () => new AppError("NOT_FOUND", "No such revision.");

/** Error category keys a revision of a record may name: the defaults and those of its dataset's campaigns. */
async function knownCategoryKeys(tx: Prisma.TransactionClient, datasetId: string): Promise<Set<string>> {
  const rows = await tx.errorCategory.findMany({
    where: { campaign: { datasetId } },
    select: { key: true },
    distinct: ["key"],
  });
  return new Set([...DEFAULT_CATEGORIES.map((category) => category.key), ...rows.map((row) => row.key)]);
}

function refuseUnknown(categories: string[], known: Set<string>): void {
  const unknown = categories.filter((key) => !known.has(key));
  if (unknown.length)
    throw new AppError("INVALID_INPUT", `Unknown error categories: ${unknown.join(", ")}.`, {
      categories: [`Unknown: ${unknown.join(", ")}`],
    });
}

export type ProposedRevision = { id: string; recordId: number; number: number; changedFields: RevisableField[] };

/**
 * Proposes a revision of a record the actor may revise: the changed fields over its current content,
 * a reason and the error categories it fixes. Numbered per record; the import is written as revision 1
 * first if it is not yet. Refused while another repair of the record waits for its check (CONFLICT),
 * when `baseRevision` is behind the record's (CONFLICT), when the actor already has `maxOpen` repairs
 * waiting for their check (CONFLICT; none: no cap), or when nothing changes (INVALID_INPUT).
 * Audited in the same transaction. Scope: revisions:write.
 */
export async function proposeRevision({
  actor,
  recordId,
  input,
  maxOpen,
}: {
  actor: Actor;
  recordId: number;
  input: RevisionProposal;
  maxOpen?: number;
}): Promise<ProposedRevision> {
  assertCan(actor, "revisions:write");
  return prisma().$transaction(async (tx) => {
    const visible = await tx.record.findFirst({
      where: { id: recordId, ...revisableRecordWhere(actor) },
      select: { id: true },
    });
    if (!visible) throw NO_RECORD();
    // The record row locked: two proposals (or a proposal and an acceptance) take turns.
    const [record] = await tx.$queryRaw<
      {
        datasetId: string;
        revision: number;
        question: string;
        canonicalSolution: string;
        demoTestFunc: string;
        fullTestFunc: string;
        createdAt: Date;
        executableValid: boolean | null;
        verifiedAt: Date | null;
      }[]
    >`SELECT "datasetId", revision, question, "canonicalSolution", "demoTestFunc", "fullTestFunc", "createdAt",
             "executableValid", "verifiedAt"
      FROM "Record" WHERE id = ${recordId} FOR UPDATE`;
    if (!record) throw NO_RECORD();
    if (input.baseRevision !== undefined && input.baseRevision !== record.revision)
      throw new AppError(
        "CONFLICT",
        `This record changed since you opened it (now revision ${record.revision}). Reload to edit the current version.`,
      );
    const waiting = await tx.recordRevision.findFirst({
      where: { recordId, status: "PROPOSED" },
      select: { number: true },
    });
    if (waiting)
      throw new AppError(
        "CONFLICT",
        `Revision ${waiting.number} of this record is waiting for its second check; propose yours once it is accepted or rejected.`,
      );
    if (maxOpen !== undefined) {
      // The author's proposals take turns (on other records too), so two at once cannot both pass the cap.
      await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`revisions:open:${actor.id}`}))::text AS locked`;
      const open = await tx.recordRevision.count({ where: { authorId: actor.id, status: "PROPOSED" } });
      if (open >= maxOpen)
        throw new AppError(
          "CONFLICT",
          `You have ${open} repairs waiting for their check, the most one person may have at once; propose another once one of them is accepted or rejected.`,
        );
    }
    refuseUnknown(input.categories, await knownCategoryKeys(tx, record.datasetId));
    const { content, changed } = applyChanges(contentOfColumns(record), input);
    if (changed.length === 0)
      throw new AppError("INVALID_INPUT", "The revision changes nothing: edit the statement, solution or a test.", {
        question: ["Nothing differs from the current version."],
      });
    const count = await tx.recordRevision.count({ where: { recordId } });
    if (count === 0)
      await tx.recordRevision.create({
        data: {
          recordId,
          number: 1,
          status: "ORIGINAL",
          question: record.question,
          canonicalSolution: record.canonicalSolution,
          demoTestFunc: record.demoTestFunc,
          fullTestFunc: record.fullTestFunc,
          // Batch verification's verdict on the import, kept with it: once a repair is accepted the
          // record's columns hold the repair's, and figures counting labels given on the import
          // read the import's execution here (reports.ts).
          executableValid: record.executableValid,
          evidenceAt: record.verifiedAt,
          createdAt: record.createdAt,
        },
      });
    const last = await tx.recordRevision.aggregate({ where: { recordId }, _max: { number: true } });
    const number = (last._max.number ?? 1) + 1;
    const created = await tx.recordRevision.create({
      data: {
        recordId,
        number,
        status: "PROPOSED",
        baseNumber: record.revision,
        question: content.question,
        canonicalSolution: content.canonical_solution,
        demoTestFunc: content.demo_test_func,
        fullTestFunc: content.full_test_func,
        changedFields: changed,
        reason: input.reason,
        categories: [...new Set(input.categories)],
        authorId: actor.id,
      },
      select: { id: true },
    });
    // The reason stays out of the audit row's visible fields until the check (only the author reads it).
    await writeAudit(tx, {
      actorId: actor.id,
      action: "revision.propose",
      targetType: "Record",
      targetId: String(recordId),
      after: { revision: number, base: record.revision, changedFields: changed },
    });
    return { id: created.id, recordId, number, changedFields: changed };
  });
}

/**
 * What a revision editor opens on: the record's current revision and the number of a repair waiting
 * for its check (one waits at a time), for a record the actor may revise; null for any other record,
 * so a page shows no editor where proposing would be refused. Scope: revisions:write.
 */
export async function findRevisionBase({
  actor,
  recordId,
}: {
  actor: Actor;
  recordId: number;
}): Promise<{ current: number; waiting: number | null } | null> {
  assertCan(actor, "revisions:write");
  const record = await prisma().record.findFirst({
    where: { id: recordId, ...revisableRecordWhere(actor) },
    select: { revision: true, revisions: { where: { status: "PROPOSED" }, select: { number: true }, take: 1 } },
  });
  return record ? { current: record.revision, waiting: record.revisions[0]?.number ?? null } : null;
}

/** What a revision's content is run with to recompute its evidence. Scope: revisions:write, on revisions the actor may revise. */
export async function findRevisionToRun({ actor, revisionId }: { actor: Actor; revisionId: string }) {
  assertCan(actor, "revisions:write");
  const revision = await prisma().recordRevision.findFirst({
    where: { id: revisionId, record: revisableRecordWhere(actor) },
    select: {
      id: true,
      canonicalSolution: true,
      demoTestFunc: true,
      fullTestFunc: true,
      record: { select: { id: true, language: true } },
    },
  });
  if (!revision) throw NO_REVISION();
  return { ...revision, language: revision.record.language, recordId: revision.record.id };
}

export type RevisionEvidence = {
  demoOutcome: string;
  fullOutcome: string;
  backend: string | null;
  toolchain: string | null;
};

/**
 * Stores the evidence recomputed on a revision's content (outcomes of its solution on both tests).
 * An accepted revision's evidence is the record's too, so the record's verification follows it.
 * Scope: revisions:write, on revisions the actor may revise.
 */
export async function storeRevisionEvidence({
  actor,
  revisionId,
  evidence,
}: {
  actor: Actor;
  revisionId: string;
  evidence: RevisionEvidence;
}): Promise<void> {
  assertCan(actor, "revisions:write");
  // Unavailable, or a first failing test that failed for want of a dependency: not known.
  const isUnknown =
    evidence.demoOutcome === UNAVAILABLE ||
    evidence.fullOutcome === UNAVAILABLE ||
    summarizeOutcome(evidence.demoOutcome, evidence.fullOutcome) === ENVIRONMENT_FAILURE;
  const data = {
    demoOutcome: evidence.demoOutcome,
    fullOutcome: evidence.fullOutcome,
    executableValid: isUnknown ? null : evidence.demoOutcome === "PASSED" && evidence.fullOutcome === "PASSED",
    evidenceBackend: evidence.backend,
    evidenceToolchain: evidence.toolchain,
    evidenceAt: new Date(),
  };
  await prisma().$transaction(async (tx) => {
    const revision = await tx.recordRevision.findFirst({
      where: { id: revisionId, record: revisableRecordWhere(actor) },
      select: { recordId: true, number: true, status: true, record: { select: { revision: true } } },
    });
    if (!revision) throw NO_REVISION();
    await tx.recordRevision.update({ where: { id: revisionId }, data });
    // SQL rules run by a change of the execution result (prisma/sql): triggers/Record.Record_keep_final_labels.sql
    // and Record.Record_note_changes.sql, running functions/verity_record_execution_changed.sql and
    // verity_note_execution_changes.sql.
    if (revision.status === "ACCEPTED" && revision.record.revision === revision.number)
      await tx.record.update({ where: { id: revision.recordId }, data: recordEvidenceOf(data) });
  });
}

/** A record's verification columns from a revision's evidence. */
function recordEvidenceOf(evidence: {
  demoOutcome: string | null;
  fullOutcome: string | null;
  executableValid: boolean | null;
  evidenceAt: Date | null;
}) {
  const outcome =
    evidence.demoOutcome && evidence.fullOutcome ? summarizeOutcome(evidence.demoOutcome, evidence.fullOutcome) : null;
  return { executableValid: evidence.executableValid, verificationOutcome: outcome, verifiedAt: evidence.evidenceAt };
}

export type RevisionSummary = {
  id: string | null;
  number: number;
  status: "ORIGINAL" | "PROPOSED" | "ACCEPTED" | "REJECTED";
  baseNumber: number | null;
  changedFields: RevisableField[];
  /** Unified diffs against the base revision, per changed field. */
  diffs: { field: RevisableField; diff: string }[];
  /** Null while hidden (isRevisionRationaleHidden) and for the import. */
  author: string | null;
  reason: string | null;
  categories: string[] | null;
  isRationaleHidden: boolean;
  evidence: { demoOutcome: string | null; fullOutcome: string | null; executableValid: boolean | null };
  check: { valid: boolean; categories: string[]; note: string | null; checker: string | null; checkedAt: Date } | null;
  createdAt: Date;
};

const personLabel = (user: { name: string | null; email: string } | null) =>
  user ? (user.name ? `${user.name} (${user.email})` : user.email) : null;

/**
 * A record's revisions, newest first, each as diffs against the revision it was edited from; the
 * import is revision 1 even before any repair. The rationale of a repair waiting for its check is
 * hidden from everyone but its author, and before the actor's first label on an item of a blind
 * campaign so is every judgement of others: authors, reasons, categories, checks and rejected repairs
 * (visibility.ts). Scoped to records the actor sees. Scope: records:read.
 */
export async function listRecordRevisions({
  actor,
  recordId,
}: {
  actor: Actor;
  recordId: number;
}): Promise<{ current: number; areJudgementsHidden: boolean; revisions: RevisionSummary[] }> {
  assertCan(actor, "records:read");
  const record = await prisma().record.findFirst({
    where: { id: recordId, ...visibleRecordWhere(actor) },
    select: {
      revision: true,
      createdAt: true,
      executableValid: true,
      verificationOutcome: true,
      revisions: {
        orderBy: { number: "desc" },
        select: {
          id: true,
          number: true,
          status: true,
          baseNumber: true,
          question: true,
          canonicalSolution: true,
          demoTestFunc: true,
          fullTestFunc: true,
          changedFields: true,
          reason: true,
          categories: true,
          authorId: true,
          author: { select: { name: true, email: true } },
          demoOutcome: true,
          fullOutcome: true,
          executableValid: true,
          checkValid: true,
          checkCategories: true,
          checkNote: true,
          checkedAt: true,
          checker: { select: { name: true, email: true } },
          createdAt: true,
        },
      },
    },
  });
  if (!record) throw NO_RECORD();
  // A campaign showing "nothing" hides execution until the annotator's first label: each revision's too.
  // A blind campaign hides what other people judged of the record until then (visibility.ts).
  const [executionHidden, judgementsHidden] = await Promise.all([
    executionHiddenRecordIds({ actor, recordIds: [recordId] }),
    othersJudgementsHiddenRecordIds({ actor, recordIds: [recordId] }),
  ]);
  const isExecutionHidden = executionHidden.has(recordId);
  const areJudgementsHidden = judgementsHidden.has(recordId);
  const evidenceAsSeen = (evidence: RevisionSummary["evidence"]): RevisionSummary["evidence"] =>
    isExecutionHidden ? { demoOutcome: null, fullOutcome: null, executableValid: null } : evidence;
  if (record.revisions.length === 0)
    return {
      current: record.revision,
      areJudgementsHidden,
      revisions: [
        {
          id: null,
          number: 1,
          status: "ORIGINAL",
          baseNumber: null,
          changedFields: [],
          diffs: [],
          author: null,
          reason: null,
          categories: null,
          isRationaleHidden: false,
          evidence: evidenceAsSeen({ demoOutcome: null, fullOutcome: null, executableValid: record.executableValid }),
          check: null,
          createdAt: record.createdAt,
        },
      ],
    };
  const byNumber = new Map(record.revisions.map((revision) => [revision.number, contentOfColumns(revision)]));
  // A rejected repair says what its checker judged: left out while judgements are hidden (an
  // accepted one is the record's content, shown without who or why).
  const shown = areJudgementsHidden
    ? record.revisions.filter((revision) => revision.status !== "REJECTED" || revision.authorId === actor.id)
    : record.revisions;
  return {
    current: record.revision,
    areJudgementsHidden,
    revisions: shown.map((revision) => {
      const hidden =
        isRevisionRationaleHidden(actor, revision) || (areJudgementsHidden && revision.authorId !== actor.id);
      const base = revision.baseNumber === null ? undefined : byNumber.get(revision.baseNumber);
      const content = contentOfColumns(revision);
      const changedFields = revision.changedFields as RevisableField[];
      return {
        id: revision.id,
        number: revision.number,
        status: revision.status,
        baseNumber: revision.baseNumber,
        changedFields,
        diffs: base ? changedFields.map((field) => ({ field, diff: unifiedDiff(base[field], content[field]) })) : [],
        author: hidden ? null : personLabel(revision.author),
        reason: hidden ? null : revision.reason,
        categories: hidden ? null : revision.categories,
        isRationaleHidden: hidden,
        evidence: evidenceAsSeen({
          demoOutcome: revision.demoOutcome,
          fullOutcome: revision.fullOutcome,
          executableValid: revision.executableValid,
        }),
        check:
          revision.checkValid === null || !revision.checkedAt || areJudgementsHidden
            ? null
            : {
                valid: revision.checkValid,
                categories: revision.checkCategories,
                note: revision.checkNote,
                checker: personLabel(revision.checker),
                checkedAt: revision.checkedAt,
              },
        createdAt: revision.createdAt,
      };
    }),
  };
}

/** Proposed revisions the actor may check: not their own, on records they may revise. */
function checkableWhere(actor: Actor): Prisma.RecordRevisionWhereInput {
  return { status: "PROPOSED", authorId: { not: actor.id }, record: revisableRecordWhere(actor) };
}

export type RepairQueueEntry = {
  id: string;
  recordId: number;
  number: number;
  language: string;
  dataset: string;
  title: string;
  createdAt: Date;
};

/**
 * The repairs queue: proposed revisions waiting for a second check that the actor may give (never
 * their own), oldest first, a page at a time by keyset (the cursor is the last row's id). Entries
 * carry no author, reason or category: the check is blind. Scope: revisions:check.
 */
export async function listRepairs({
  actor,
  cursor,
  limit = 50,
}: {
  actor: Actor;
  cursor?: string;
  limit?: number;
}): Promise<{ repairs: RepairQueueEntry[]; nextCursor: string | null }> {
  assertCan(actor, "revisions:check");
  const after = cursor
    ? await prisma().recordRevision.findUnique({ where: { id: cursor }, select: { createdAt: true } })
    : null;
  const rows = await prisma().recordRevision.findMany({
    where: {
      AND: [
        checkableWhere(actor),
        after
          ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: cursor } }] }
          : {},
      ],
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: limit + 1,
    select: {
      id: true,
      recordId: true,
      number: true,
      question: true,
      createdAt: true,
      record: { select: { language: true, dataset: { select: { name: true } } } },
    },
  });
  const page = rows.slice(0, limit);
  return {
    repairs: page.map((row) => ({
      id: row.id,
      recordId: row.recordId,
      number: row.number,
      language: row.record.language,
      dataset: row.record.dataset.name,
      title: recordTitle(row.question.slice(0, 2000)),
      createdAt: row.createdAt,
    })),
    nextCursor: rows.length > limit ? page[page.length - 1].id : null,
  };
}

export type RevisionToCheck = {
  id: string;
  recordId: number;
  number: number;
  language: string;
  dataset: string;
  content: RevisableContent;
  evidence: { demoOutcome: string | null; fullOutcome: string | null; executableValid: boolean | null };
};

/** The author trying to check their own repair. */
const OWN_REVISION = () =>
  new AppError("FORBIDDEN", "You proposed this revision: a second person has to check it, blind to your reason.");

/**
 * A proposed revision as its checker sees it: the revised record and the evidence recomputed on it,
 * and nothing of its author, reason, categories or the labels on earlier revisions. Its author is
 * refused (FORBIDDEN). Scope: revisions:check.
 */
export async function getRevisionToCheck({
  actor,
  revisionId,
}: {
  actor: Actor;
  revisionId: string;
}): Promise<RevisionToCheck> {
  assertCan(actor, "revisions:check");
  const revision = await prisma().recordRevision.findFirst({
    where: { id: revisionId, status: "PROPOSED", record: revisableRecordWhere(actor) },
    select: {
      id: true,
      recordId: true,
      number: true,
      authorId: true,
      question: true,
      canonicalSolution: true,
      demoTestFunc: true,
      fullTestFunc: true,
      demoOutcome: true,
      fullOutcome: true,
      executableValid: true,
      record: { select: { language: true, dataset: { select: { name: true } } } },
    },
  });
  if (!revision) throw NO_REVISION();
  if (revision.authorId === actor.id) throw OWN_REVISION();
  return {
    id: revision.id,
    recordId: revision.recordId,
    number: revision.number,
    language: revision.record.language,
    dataset: revision.record.dataset.name,
    content: contentOfColumns(revision),
    evidence: {
      demoOutcome: revision.demoOutcome,
      fullOutcome: revision.fullOutcome,
      executableValid: revision.executableValid,
    },
  };
}

/**
 * The blind second check of a proposed revision: a label on the revised record by someone who is not
 * its author (FORBIDDEN otherwise). Valid accepts it: the record's content becomes the revision's,
 * with the evidence recomputed on it. Invalid rejects it; it stays in the history. A revision checked
 * already is CONFLICT (one check decides). Audited in the same transaction. Scope: revisions:check.
 */
export async function checkRevision({
  actor,
  revisionId,
  input,
}: {
  actor: Actor;
  revisionId: string;
  input: RevisionCheck;
}): Promise<{ id: string; recordId: number; number: number; status: "ACCEPTED" | "REJECTED" }> {
  assertCan(actor, "revisions:check");
  return prisma().$transaction(async (tx) => {
    const visible = await tx.recordRevision.findFirst({
      where: { id: revisionId, record: revisableRecordWhere(actor) },
      select: { recordId: true },
    });
    if (!visible) throw NO_REVISION();
    // The record row first, as a proposal takes it: the revision and the record change together.
    await tx.$queryRaw`SELECT id FROM "Record" WHERE id = ${visible.recordId} FOR UPDATE`;
    const revision = await tx.recordRevision.findUniqueOrThrow({
      where: { id: revisionId },
      select: {
        recordId: true,
        number: true,
        status: true,
        baseNumber: true,
        authorId: true,
        question: true,
        canonicalSolution: true,
        demoTestFunc: true,
        fullTestFunc: true,
        demoOutcome: true,
        fullOutcome: true,
        executableValid: true,
        evidenceAt: true,
        record: { select: { datasetId: true, revision: true } },
      },
    });
    if (revision.authorId === actor.id) throw OWN_REVISION();
    if (revision.status !== "PROPOSED")
      throw new AppError(
        "CONFLICT",
        `Revision ${revision.number} was already checked (${revision.status.toLowerCase()}).`,
      );
    refuseUnknown(input.categories, await knownCategoryKeys(tx, revision.record.datasetId));
    const status = input.valid ? "ACCEPTED" : "REJECTED";
    const checked = await tx.recordRevision.updateMany({
      where: { id: revisionId, status: "PROPOSED" },
      data: {
        status,
        checkerId: actor.id,
        checkValid: input.valid,
        checkCategories: [...new Set(input.categories)],
        checkNote: input.note || null,
        checkedAt: new Date(),
      },
    });
    if (checked.count !== 1) throw new AppError("CONFLICT", `Revision ${revision.number} was already checked.`);
    if (input.valid) {
      if (revision.record.revision !== revision.baseNumber)
        throw new AppError(
          "CONFLICT",
          `The record moved on to revision ${revision.record.revision} since this revision was proposed.`,
        );
      // SQL rules run by a change of the execution result or the flaky flag (prisma/sql):
      // triggers/Record.Record_keep_final_labels.sql and Record.Record_note_changes.sql, running
      // functions/verity_record_execution_changed.sql and verity_note_execution_changes.sql.
      await tx.record.update({
        where: { id: revision.recordId },
        data: {
          ...Object.fromEntries(
            REVISABLE_FIELDS.map((field) => [FIELD_COLUMNS[field], revision[FIELD_COLUMNS[field]]]),
          ),
          revision: revision.number,
          ...recordEvidenceOf(revision),
          // Measured on the old content: unknown again until the evidence workers measure the new one.
          flaky: null,
          mutationScore: null,
        },
      });
    }
    await writeAudit(tx, {
      actorId: actor.id,
      action: input.valid ? "revision.accept" : "revision.reject",
      targetType: "Record",
      targetId: String(revision.recordId),
      before: { revision: revision.record.revision },
      after: { revision: revision.number, status, categories: input.categories },
    });
    return { id: revisionId, recordId: revision.recordId, number: revision.number, status };
  });
}
