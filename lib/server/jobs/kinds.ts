import "server-only";

import type { Prisma } from "@/lib/generated/prisma/client";
import type { JobCursor } from "@/lib/jobs/cursor";
import type { JobAction, JobKind, JobStatus, JobUnit } from "@/lib/jobs/types";
import { countOf } from "@/lib/format/count";
import { languageName } from "@/lib/records/languages";
import { type Actor, isSystemActor, type Scope, type SystemActor } from "@/lib/server/auth/permissions";
import { visibleCampaignWhere, visibleDatasetWhere } from "@/lib/server/auth/visibility";
import { prisma } from "@/lib/server/db/client";

// The registry of job kinds: one entry per table that holds long work, each saying how to read its
// rows as a job, who may read them, and which of pause/resume/cancel it supports with the scope of
// the existing operation that performs it (control-job.ts holds the operations). A thin read model
// over the tables as their lifecycles leave them; it changes no lifecycle.

/** A job as its table gives it, before the rate, the ETA and the caller's actions are added. */
export type JobRow = {
  id: string;
  kind: JobKind;
  status: JobStatus;
  done: number;
  total: number;
  unit: JobUnit;
  createdById: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  dataset: string | null;
  scope: string;
  result: string;
  stopReason: string | null;
  href: string;
};

type ReadArgs = {
  actor: Actor | SystemActor;
  cursor: JobCursor | undefined;
  /** The statuses to read (already those this kind can have); undefined: all. */
  statuses: JobStatus[] | undefined;
  take: number;
};

export type JobKindEntry = {
  kind: JobKind;
  /** The scope reading this kind needs; annotators see, beyond it, only the datasets they see. */
  readScope: Scope;
  /** The statuses this kind's table can hold. */
  statuses: readonly JobStatus[];
  /** The actions it supports, each with the scope of the operation behind it (control-job.ts). */
  controls: Partial<Record<JobAction, Scope>>;
  read: (args: ReadArgs) => Promise<JobRow[]>;
};

const BATCH_STATUSES = ["RUNNING", "SUCCEEDED", "FAILED"] as const satisfies readonly JobStatus[];
type BatchStatus = (typeof BATCH_STATUSES)[number];

/** The status condition of a table whose lifecycle knows RUNNING, SUCCEEDED and FAILED (JobStatus in the schema). */
function batchStatusWhere(statuses: JobStatus[] | undefined): { status?: { in: BatchStatus[] } } {
  if (!statuses) return {};
  return {
    status: {
      in: statuses.filter((status): status is BatchStatus => (BATCH_STATUSES as readonly string[]).includes(status)),
    },
  };
}

const PAUSABLE_STATUSES = [
  "RUNNING",
  "PAUSED",
  "CANCELLED",
  "SUCCEEDED",
  "FAILED",
] as const satisfies readonly JobStatus[];

/**
 * The status condition of a batch table that can pause and cancel (EvidenceBatch, VerificationBatch):
 * a paused batch is RUNNING and paused, a cancelled one FAILED and cancelled.
 */
function pausableStatusWhere(
  statuses: JobStatus[] | undefined,
): Prisma.EvidenceBatchWhereInput & Prisma.VerificationBatchWhereInput {
  if (!statuses) return {};
  const each: Record<JobStatus, Prisma.EvidenceBatchWhereInput & Prisma.VerificationBatchWhereInput> = {
    RUNNING: { status: "RUNNING", pausedAt: null },
    PAUSED: { status: "RUNNING", pausedAt: { not: null } },
    CANCELLED: { cancelledAt: { not: null } },
    SUCCEEDED: { status: "SUCCEEDED" },
    FAILED: { status: "FAILED", cancelledAt: null },
  };
  return { OR: statuses.map((status) => each[status]) };
}

/** How the list shows a pausable batch's status (pausableStatusWhere's reading, backwards). */
function pausableStatus(row: { status: BatchStatus; pausedAt: Date | null; cancelledAt: Date | null }): JobStatus {
  if (row.cancelledAt) return "CANCELLED";
  return row.pausedAt && row.status === "RUNNING" ? "PAUSED" : row.status;
}

/**
 * The keyset condition of one kind's rows after the cursor, in the list's order (createdAt, kind,
 * id, all descending): at the cursor's instant, a kind after the cursor's takes all its rows, the
 * cursor's own kind those with a smaller id, a kind before it none.
 */
function afterCursor(kind: JobKind, cursor: JobCursor | undefined) {
  if (!cursor) return {};
  if (kind === cursor.kind)
    return { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] };
  return { createdAt: kind < cursor.kind ? { lte: cursor.createdAt } : { lt: cursor.createdAt } };
}

/** Annotators read jobs of the datasets they see only; everyone else (and Verity itself) every dataset's. */
function datasetScope(actor: Actor | SystemActor): { dataset?: Prisma.DatasetWhereInput } {
  return isSystemActor(actor) ? {} : { dataset: visibleDatasetWhere(actor) };
}

const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/**
 * The page of one kind's rows after the cursor among those `where` keeps: the keyset condition, the
 * order it assumes and the limit, which hold only together.
 */
function newestPage<Where extends object>(
  kind: JobKind,
  { cursor, take }: Pick<ReadArgs, "cursor" | "take">,
  where: Where,
) {
  // Both as conditions of their own: a kind's status filter and its cursor may each be an OR.
  return { where: { AND: [afterCursor(kind, cursor), where] }, orderBy: NEWEST_FIRST, take };
}

/** The columns the counted batch tables (verification, evidence, solutions, critic runs) share. */
const BATCH_COLUMNS = {
  id: true,
  status: true,
  total: true,
  done: true,
  stopReason: true,
  createdById: true,
  createdAt: true,
  finishedAt: true,
  dataset: { select: { name: true } },
} as const;

/** The fields of a job that a counted batch gives as its columns hold them (BATCH_COLUMNS). */
function batchFields(row: {
  id: string;
  total: number;
  done: number;
  stopReason: string | null;
  createdById: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  dataset: { name: string };
}): Pick<JobRow, "id" | "done" | "total" | "createdById" | "createdAt" | "finishedAt" | "dataset" | "stopReason"> {
  return {
    id: row.id,
    done: row.done,
    total: row.total,
    createdById: row.createdById,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
    dataset: row.dataset.name,
    stopReason: row.stopReason,
  };
}

function parts(...pieces: (string | false | null | undefined)[]): string {
  return pieces.filter(Boolean).join(" · ");
}

function languageScope(language: string | null): string {
  return language ? `${languageName(language)} only` : "every language";
}

const importKind: JobKindEntry = {
  kind: "import",
  readScope: "imports:write",
  statuses: BATCH_STATUSES,
  controls: {},
  read: async ({ cursor, statuses, take }) => {
    const rows = await prisma().importJob.findMany({
      ...newestPage("import", { cursor, take }, batchStatusWhere(statuses)),
      select: {
        id: true,
        datasetId: true,
        datasetName: true,
        fileName: true,
        source: true,
        status: true,
        bytesTotal: true,
        bytesRead: true,
        imported: true,
        duplicates: true,
        skipped: true,
        message: true,
        createdById: true,
        createdAt: true,
        finishedAt: true,
      },
    });
    return rows.map((row) => {
      const done = Number(row.bytesRead);
      return {
        id: row.id,
        kind: "import" as const,
        status: row.status,
        done,
        // A streamed upload without a length has no known total until it ends.
        total: Math.max(done, Number(row.bytesTotal ?? row.bytesRead)),
        unit: "bytes" as const,
        createdById: row.createdById,
        createdAt: row.createdAt,
        finishedAt: row.finishedAt,
        dataset: row.datasetName,
        scope: parts(row.fileName ?? row.source),
        result: parts(
          countOf(row.imported, "record") + " imported",
          row.duplicates > 0 && `${countOf(row.duplicates, "duplicate")}`,
          row.skipped > 0 && `${row.skipped} skipped`,
        ),
        stopReason: row.status === "FAILED" ? (row.message ?? "the import failed") : null,
        href:
          row.status === "SUCCEEDED" && row.datasetId
            ? `/datasets/${encodeURIComponent(row.datasetName)}`
            : "/admin/import",
      };
    });
  },
};

const verificationKind: JobKindEntry = {
  kind: "verification",
  readScope: "records:read",
  statuses: PAUSABLE_STATUSES,
  // setVerificationBatchPaused and cancelVerificationBatch through controlVerification
  // (lib/server/verification/jobs.ts), as the verification page's buttons.
  controls: { pause: "datasets:verify", resume: "datasets:verify", cancel: "datasets:verify" },
  read: async ({ actor, cursor, statuses, take }) => {
    const rows = await prisma().verificationBatch.findMany({
      ...newestPage("verification", { cursor, take }, { ...pausableStatusWhere(statuses), ...datasetScope(actor) }),
      select: {
        ...BATCH_COLUMNS,
        language: true,
        force: true,
        repeat: true,
        executableValid: true,
        failed: true,
        unavailable: true,
        environmentFailed: true,
        inconclusive: true,
        errored: true,
        flaky: true,
        pausedAt: true,
        cancelledAt: true,
      },
    });
    return rows.map((row) => ({
      ...batchFields(row),
      kind: "verification" as const,
      status: pausableStatus(row),
      unit: "records" as const,
      scope: parts(
        languageScope(row.language),
        row.force ? "every record again" : "records not yet verified",
        row.repeat > 0 && `tests run ${row.repeat}× for flakiness`,
      ),
      result: parts(
        `${row.executableValid} pass`,
        `${row.failed} fail`,
        row.unavailable > 0 && `${row.unavailable} cannot run here`,
        row.environmentFailed > 0 && `${row.environmentFailed} environment`,
        row.inconclusive > 0 && `${row.inconclusive} inconclusive`,
        row.errored > 0 && `${row.errored} errored`,
        row.repeat > 0 && `${row.flaky} flaky`,
      ),
      href: `/verifications/${encodeURIComponent(row.id)}`,
    }));
  },
};

const evidenceKind: JobKindEntry = {
  kind: "evidence",
  readScope: "records:read",
  statuses: PAUSABLE_STATUSES,
  // setEvidenceBatchPaused and stopEvidenceBatch through controlEvidenceBatch (lib/server/evidence/jobs.ts),
  // as the dataset page's buttons.
  controls: { pause: "datasets:verify", resume: "datasets:verify", cancel: "datasets:verify" },
  read: async ({ actor, cursor, statuses, take }) => {
    const rows = await prisma().evidenceBatch.findMany({
      ...newestPage("evidence", { cursor, take }, { ...pausableStatusWhere(statuses), ...datasetScope(actor) }),
      select: {
        ...BATCH_COLUMNS,
        language: true,
        mutants: true,
        repeat: true,
        errored: true,
        pausedAt: true,
        cancelledAt: true,
      },
    });
    return rows.map((row) => ({
      ...batchFields(row),
      kind: "evidence" as const,
      status: pausableStatus(row),
      unit: "record tasks" as const,
      scope: parts(
        languageScope(row.language),
        row.mutants > 0 && `${countOf(row.mutants, "mutant")} a record`,
        row.repeat > 0 && `tests run ${row.repeat}× for flakiness`,
      ),
      result: parts(`${row.done - row.errored} collected`, row.errored > 0 && `${row.errored} errored`),
      href: `/datasets/${encodeURIComponent(row.dataset.name)}`,
    }));
  },
};

const solutionsKind: JobKindEntry = {
  kind: "solutions",
  readScope: "records:read",
  statuses: BATCH_STATUSES,
  controls: {},
  read: async ({ actor, cursor, statuses, take }) => {
    const rows = await prisma().solutionBatch.findMany({
      ...newestPage("solutions", { cursor, take }, { ...batchStatusWhere(statuses), ...datasetScope(actor) }),
      select: {
        ...BATCH_COLUMNS,
        origin: true,
        fileName: true,
        models: true,
        passed: true,
        failed: true,
        unavailable: true,
        inconclusive: true,
        errored: true,
      },
    });
    return rows.map((row) => ({
      ...batchFields(row),
      kind: "solutions" as const,
      status: row.status,
      unit: "solutions" as const,
      scope: parts(
        row.models.length > 0 ? row.models.join(", ") : "no model named",
        row.fileName,
        row.origin === "revision" && "after an accepted repair",
      ),
      result: parts(
        `${row.passed} passed`,
        `${row.failed} failed`,
        row.unavailable > 0 && `${row.unavailable} cannot run here`,
        row.inconclusive > 0 && `${row.inconclusive} inconclusive`,
        row.errored > 0 && `${row.errored} errored`,
      ),
      href: `/datasets/${encodeURIComponent(row.dataset.name)}/solvers`,
    }));
  },
};

const CRITIC_STATUSES = [
  "RUNNING",
  "PAUSED",
  "CANCELLED",
  "SUCCEEDED",
  "FAILED",
] as const satisfies readonly JobStatus[];

const criticKind: JobKindEntry = {
  kind: "critic",
  // Run verdicts are critic output: never for annotators (docs/security.md, "Critics run from Verity").
  readScope: "critics:read",
  statuses: CRITIC_STATUSES,
  // changeCriticRunStatus through controlCriticRun (lib/server/critics/jobs.ts), as the run page's buttons.
  controls: { pause: "critics:admin", resume: "critics:admin", cancel: "critics:admin" },
  read: async ({ cursor, statuses, take }) => {
    const rows = await prisma().criticRun.findMany({
      ...newestPage("critic", { cursor, take }, statuses ? { status: { in: statuses } } : {}),
      select: {
        ...BATCH_COLUMNS,
        language: true,
        campaignId: true,
        pass: true,
        fail: true,
        unreadable: true,
        errored: true,
        version: { select: { number: true, critic: { select: { name: true } } } },
      },
    });
    return rows.map((row) => ({
      ...batchFields(row),
      kind: "critic" as const,
      status: (CRITIC_STATUSES as readonly string[]).includes(row.status) ? (row.status as JobStatus) : "FAILED",
      unit: "records" as const,
      scope: parts(
        `${row.version.critic.name} version ${row.version.number}`,
        languageScope(row.language),
        row.campaignId && "one campaign's sample",
      ),
      result: parts(
        `${row.pass} pass`,
        `${row.fail} fail`,
        row.unreadable > 0 && `${row.unreadable} unreadable`,
        row.errored > 0 && `${row.errored} errored`,
      ),
      href: `/critics/runs/${encodeURIComponent(row.id)}`,
    }));
  },
};

const campaignKind: JobKindEntry = {
  kind: "campaign",
  // Like the campaign itself: whoever can read records sees the campaigns in their languages.
  readScope: "records:read",
  statuses: BATCH_STATUSES,
  controls: {},
  read: async ({ actor, cursor, statuses, take }) => {
    const rows = await prisma().campaignItemDraw.findMany({
      ...newestPage(
        "campaign",
        { cursor, take },
        {
          ...batchStatusWhere(statuses),
          ...(isSystemActor(actor) ? {} : { campaign: visibleCampaignWhere(actor) }),
        },
      ),
      select: {
        id: true,
        status: true,
        total: true,
        stopReason: true,
        createdById: true,
        createdAt: true,
        finishedAt: true,
        campaign: {
          select: { id: true, name: true, sampling: true, itemCount: true, dataset: { select: { name: true } } },
        },
      },
    });
    return rows.map((row) => {
      const isDrawn = row.status === "SUCCEEDED";
      return {
        id: row.id,
        kind: "campaign" as const,
        status: row.status,
        // One insert draws every item: nothing, then all of them.
        done: isDrawn ? row.campaign.itemCount : 0,
        total: isDrawn ? row.campaign.itemCount : row.total,
        unit: "records" as const,
        createdById: row.createdById,
        createdAt: row.createdAt,
        finishedAt: row.finishedAt,
        dataset: row.campaign.dataset.name,
        scope: parts(
          row.campaign.name,
          row.campaign.sampling === "SUSPICION" ? "most suspicious first" : "random sample",
        ),
        result: isDrawn
          ? `${countOf(row.campaign.itemCount, "item")} drawn`
          : row.status === "RUNNING"
            ? "drawing items…"
            : "no items drawn",
        stopReason: row.stopReason,
        href: `/campaigns/${encodeURIComponent(row.campaign.id)}`,
      };
    });
  },
};

/** A release's status as a job's: BUILDING runs, READY succeeded. */
const RELEASE_STATUS = { BUILDING: "RUNNING", READY: "SUCCEEDED", FAILED: "FAILED" } as const;

const releaseKind: JobKindEntry = {
  kind: "release",
  readScope: "releases:read",
  statuses: BATCH_STATUSES,
  controls: {},
  read: async ({ actor, cursor, statuses, take }) => {
    const wanted = statuses
      ? (Object.keys(RELEASE_STATUS) as (keyof typeof RELEASE_STATUS)[]).filter((status) =>
          statuses.includes(RELEASE_STATUS[status]),
        )
      : undefined;
    const rows = await prisma().release.findMany({
      ...newestPage(
        "release",
        { cursor, take },
        { ...(wanted ? { status: { in: wanted } } : {}), ...datasetScope(actor) },
      ),
      select: {
        id: true,
        name: true,
        status: true,
        records: true,
        excluded: true,
        revised: true,
        failureReason: true,
        createdById: true,
        createdAt: true,
        finishedAt: true,
        dataset: { select: { name: true } },
      },
    });
    return rows.map((row) => {
      const isBuilt = row.status === "READY";
      // One transaction stores every entry: nothing, then all of them.
      const entries = row.records + row.excluded;
      return {
        id: row.id,
        kind: "release" as const,
        status: RELEASE_STATUS[row.status],
        done: entries,
        total: entries,
        unit: "records" as const,
        createdById: row.createdById,
        createdAt: row.createdAt,
        finishedAt: row.finishedAt,
        dataset: row.dataset.name,
        scope: row.name,
        result: isBuilt
          ? parts(
              `${row.records.toLocaleString("en-US")} in`,
              row.revised > 0 && `${row.revised.toLocaleString("en-US")} revised`,
              `${row.excluded.toLocaleString("en-US")} out`,
            )
          : row.status === "BUILDING"
            ? "being cut…"
            : "not cut",
        stopReason: row.failureReason,
        href: `/datasets/${encodeURIComponent(row.dataset.name)}`,
      };
    });
  },
};

const extensionKind: JobKindEntry = {
  kind: "extension",
  readScope: "records:read",
  statuses: BATCH_STATUSES,
  controls: {},
  read: async ({ actor, cursor, statuses, take }) => {
    const rows = await prisma().campaignExtension.findMany({
      ...newestPage(
        "extension",
        { cursor, take },
        {
          ...batchStatusWhere(statuses),
          campaign: isSystemActor(actor) ? { status: { not: "DELETING" } } : visibleCampaignWhere(actor),
        },
      ),
      select: {
        id: true,
        status: true,
        total: true,
        added: true,
        perLanguage: true,
        languages: true,
        stopReason: true,
        createdById: true,
        createdAt: true,
        finishedAt: true,
        campaign: { select: { id: true, name: true, dataset: { select: { name: true } } } },
      },
    });
    return rows.map((row) => ({
      id: row.id,
      kind: "extension" as const,
      status: row.status,
      // One insert adds every item: nothing, then all of them.
      done: row.added ?? 0,
      total: row.added ?? row.total,
      unit: "items" as const,
      createdById: row.createdById,
      createdAt: row.createdAt,
      finishedAt: row.finishedAt,
      dataset: row.campaign.dataset.name,
      scope: parts(
        row.campaign.name,
        row.perLanguage === null ? "every record" : `${row.perLanguage} a language`,
        row.languages.map(languageName).join(", "),
      ),
      result:
        row.status === "SUCCEEDED"
          ? `${countOf(row.added ?? 0, "item")} added`
          : row.status === "RUNNING"
            ? "adding records…"
            : "nothing added",
      stopReason: row.stopReason,
      href: `/campaigns/${encodeURIComponent(row.campaign.id)}`,
    }));
  },
};

const deletionKind: JobKindEntry = {
  kind: "deletion",
  readScope: "records:read",
  statuses: BATCH_STATUSES,
  controls: {},
  read: async ({ actor, cursor, statuses, take }) => {
    const rows = await prisma().campaignDeletion.findMany({
      ...newestPage(
        "deletion",
        { cursor, take },
        {
          ...batchStatusWhere(statuses),
          // As the campaign was seen: annotators, those in their languages.
          ...(isAnnotatorOnly(actor) ? { languages: { hasSome: actor.languages } } : {}),
        },
      ),
      select: {
        id: true,
        status: true,
        items: true,
        campaignName: true,
        stopReason: true,
        createdById: true,
        createdAt: true,
        finishedAt: true,
        dataset: { select: { name: true } },
      },
    });
    return rows.map((row) => ({
      id: row.id,
      kind: "deletion" as const,
      status: row.status,
      // One statement removes every item: nothing, then all of them.
      done: row.status === "SUCCEEDED" ? row.items : 0,
      total: row.items,
      unit: "items" as const,
      createdById: row.createdById,
      createdAt: row.createdAt,
      finishedAt: row.finishedAt,
      dataset: row.dataset.name,
      scope: row.campaignName,
      result:
        row.status === "SUCCEEDED"
          ? `${countOf(row.items, "item")} removed`
          : row.status === "RUNNING"
            ? "being deleted…"
            : "not deleted",
      stopReason: row.stopReason,
      href: "/campaigns",
    }));
  },
};

/** Whether the actor is a person who sees only the campaigns in their languages (visibleCampaignWhere). */
function isAnnotatorOnly(actor: Actor | SystemActor): actor is Actor {
  return !isSystemActor(actor) && actor.role === "ANNOTATOR";
}

/** Every kind of long work, in the list's order of kinds. A new kind of job is one entry here. */
export const JOB_KIND_REGISTRY: Record<JobKind, JobKindEntry> = {
  import: importKind,
  verification: verificationKind,
  evidence: evidenceKind,
  solutions: solutionsKind,
  critic: criticKind,
  campaign: campaignKind,
  release: releaseKind,
  extension: extensionKind,
  deletion: deletionKind,
};

/** The names and emails of the people who started jobs, by id (one query for a page). */
export async function startersOf(ids: string[]): Promise<Map<string, { name: string | null; email: string }>> {
  if (ids.length === 0) return new Map();
  const users = await prisma().user.findMany({
    where: { id: { in: ids } },
    select: { id: true, name: true, email: true },
  });
  return new Map(users.map(({ id, name, email }) => [id, { name, email }]));
}
