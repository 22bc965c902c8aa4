import "server-only";

import { describeSpec, environmentSpecSchema } from "@/lib/records/environment-spec";
import { harnessChoiceSchema } from "@/lib/records/harness";

import { INCONCLUSIVE } from "@/lib/records/verification";
import type { DiffEntry } from "@/lib/releases/diff";
import { releaseDisclosureSchema, releaseRuleSchema, releaseValiditySchema } from "@/lib/validation/releases";
import type {
  EntryReason,
  LanguageCounts,
  ReleaseDisclosure,
  ReleaseListEntry,
  ReleaseRule,
  ReleaseSummary,
  ReleaseValidity,
} from "@/lib/releases/types";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import { finalLabelsOf } from "@/lib/server/review/final-labels";
import { AppError } from "@/lib/server/errors";

// Releases: named, immutable snapshots of a dataset. Cutting one stores which record revisions are in
// and which records are out and why (ReleaseEntry), with the rule, the validity table and the method
// as they were; every later read (card, data files, archive, diff) reads only what was stored, so a
// label given after the cut never changes a release. Record revisions are immutable rows
// (revisions/queries.ts), so (record, revision) names the same content for ever.

type AnyActor = Actor | SystemActor;

/** A dataset's id and its campaigns, oldest first (the order the cross-campaign rule breaks ties by). */
export async function findDatasetForRelease({ actor, datasetName }: { actor: AnyActor; datasetName: string }) {
  assertCan(actor, "releases:read");
  const dataset = await prisma().dataset.findUnique({
    where: { name: datasetName },
    select: {
      id: true,
      name: true,
      campaigns: {
        // A campaign being deleted has no labels (only those are deleted) and is gone from every list.
        where: { status: { not: "DELETING" } },
        orderBy: { createdAt: "asc" },
        select: { id: true, name: true, blind: true, goldShare: true, finalRule: true, overlap: true },
      },
    },
  });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  return dataset;
}

/** What the method disclosure reports from the data: label counts per item, toolchains run, repairs, what labels were given seeing. Scope: releases:write. */
export async function releaseMethodFacts({
  actor,
  datasetId,
  campaignIds,
}: {
  actor: AnyActor;
  datasetId: string;
  campaignIds: string[];
}): Promise<{
  annotatorsPerItem: ReleaseDisclosure["annotatorsPerItem"];
  toolchains: ReleaseDisclosure["sandbox"]["toolchains"];
  revisions: ReleaseDisclosure["revisions"];
  labels: NonNullable<ReleaseDisclosure["labels"]>;
  languages: string[];
  inconclusive: number;
  environments: NonNullable<ReleaseDisclosure["sandbox"]["environments"]>;
  harness: Record<string, string>;
}> {
  assertCan(actor, "releases:write");
  const [[perItem], toolchains, revisions, languages, inconclusive, [labels], environmentRuns, dataset] =
    await Promise.all([
      prisma().$queryRawUnsafe<{ mean: number | null; min: number | null; max: number | null; items: number }[]>(
        `SELECT avg(n)::float8 AS mean, min(n) AS min, max(n) AS max, count(*)::int AS items
       FROM ${finalLabelsOf("$1::text[]")} WHERE n > 0`,
        campaignIds,
      ),
      // Batch verification's runs and the evidence recomputed on accepted repairs: what the labels saw.
      prisma().$queryRaw<{ language: string; backend: string; toolchain: string | null; runs: number }[]>`
      SELECT language, backend, toolchain, sum(runs)::int AS runs FROM (
        SELECT r.language, rr.backend, rr.toolchain, count(*) AS runs
        FROM "RunResult" rr JOIN "Record" r ON r.id = rr."recordId"
        WHERE r."datasetId" = ${datasetId} AND rr."batchId" IS NOT NULL
        GROUP BY 1, 2, 3
        UNION ALL
        SELECT r.language, rv."evidenceBackend", rv."evidenceToolchain", 2 * count(*)
        FROM "RecordRevision" rv JOIN "Record" r ON r.id = rv."recordId"
        WHERE r."datasetId" = ${datasetId} AND rv.status = 'ACCEPTED' AND rv."evidenceBackend" IS NOT NULL
        GROUP BY 1, 2, 3
      ) runs GROUP BY 1, 2, 3 ORDER BY 1, 2, 3 NULLS FIRST`,
      prisma().recordRevision.groupBy({
        by: ["status"],
        where: { record: { datasetId }, status: { not: "ORIGINAL" } },
        _count: { _all: true },
      }),
      prisma().record.findMany({ where: { datasetId }, select: { language: true }, distinct: ["language"] }),
      prisma().record.count({ where: { datasetId, verificationOutcome: INCONCLUSIVE } }),
      // What each label's author was shown: a pre-reveal copy is kept exactly when the critic was hidden
      // from them on every read (submitAnnotation), whatever the campaign is called. Gold items count in no figure.
      prisma().$queryRaw<{ criticHidden: number; criticShown: number }[]>`
      SELECT (count(*) FILTER (WHERE a."preRevealValid" IS NOT NULL))::int AS "criticHidden",
             (count(*) FILTER (WHERE a."preRevealValid" IS NULL))::int AS "criticShown"
      FROM "Annotation" a JOIN "CampaignItem" i ON i.id = a."itemId"
      WHERE i."campaignId" = ANY(${campaignIds}::text[]) AND NOT i.gold`,
      // Which environment version the verification runs had mounted, with what that version declared.
      prisma().$queryRaw<{ version: number | null; runs: number; spec: unknown }[]>`
      SELECT rr."environmentVersion" AS version, count(*)::int AS runs, e.spec
      FROM "RunResult" rr JOIN "Record" r ON r.id = rr."recordId"
      LEFT JOIN "DatasetEnvironment" e ON e."datasetId" = r."datasetId" AND e.version = rr."environmentVersion"
      WHERE r."datasetId" = ${datasetId} AND rr."batchId" IS NOT NULL
      GROUP BY 1, 3 ORDER BY 1 NULLS FIRST`,
      prisma().dataset.findUnique({ where: { id: datasetId }, select: { harness: true } }),
    ]);
  const count = (status: string) => revisions.find((row) => row.status === status)?._count._all ?? 0;
  return {
    annotatorsPerItem: perItem,
    toolchains,
    revisions: { accepted: count("ACCEPTED"), rejected: count("REJECTED"), waiting: count("PROPOSED") },
    labels,
    languages: languages.map((row) => row.language).sort(),
    inconclusive,
    environments: environmentRuns.map((row) => {
      const spec = environmentSpecSchema.safeParse(row.spec);
      return { version: row.version, runs: row.runs, declared: spec.success ? describeSpec(spec.data) : null };
    }),
    harness: Object.fromEntries(
      Object.entries(harnessChoiceSchema.safeParse(dataset?.harness ?? {}).data ?? {}).flatMap(([language, profile]) =>
        profile ? [[language, profile]] : [],
      ),
    ),
  };
}

/** How many records a dataset has: whether its release is built inside the request (build-release.ts). */
export async function countDatasetRecords({ datasetId }: { datasetId: string }): Promise<number> {
  return prisma().record.count({ where: { datasetId } });
}

/**
 * Reserves a release's name for a dataset: a BUILDING release with its rule and no entries yet,
 * which nothing reads, downloads or diffs until storeReleaseEntries makes it READY. Refuses a name
 * the dataset has, whatever its status (CONFLICT). Scope: releases:write.
 */
export async function reserveRelease({
  actor,
  datasetId,
  name,
  rule,
}: {
  actor: AnyActor;
  datasetId: string;
  name: string;
  rule: ReleaseRule;
}): Promise<{ id: string }> {
  assertCan(actor, "releases:write");
  const conflict = () =>
    new AppError("CONFLICT", `This dataset has a release named "${name}" already: releases never change.`, {
      name: ["Choose another name."],
    });
  if (await prisma().release.findUnique({ where: { datasetId_name: { datasetId, name } }, select: { id: true } }))
    throw conflict();
  try {
    return await prisma().release.create({
      data: {
        datasetId,
        name,
        rule,
        records: 0,
        excluded: 0,
        revised: 0,
        status: "BUILDING",
        createdById: personIdOf(actor),
      },
      select: { id: true },
    });
  } catch (error) {
    // Two cuts of one name at once: the unique index refuses the second.
    if (error instanceof Error && "code" in error && error.code === "P2002") throw conflict();
    throw error;
  }
}

/** A release to build: its dataset's name and its status; null when it is gone. No scope: the job's. */
export async function findReleaseToBuild({ releaseId }: { releaseId: string }) {
  const release = await prisma().release.findUnique({
    where: { id: releaseId },
    select: { id: true, status: true, dataset: { select: { name: true } } },
  });
  if (!release) return null;
  return { id: release.id, status: release.status, datasetName: release.dataset.name };
}

/**
 * Stores a BUILDING release's entries and makes it READY, in one transaction: one entry per record
 * with the revision it is at and, by the rule, whether it is in: a record at an accepted repair is in
 * (its blind check labelled the revised record valid; labels on earlier revisions no longer speak
 * for it); else its final label decides (the strongest across campaigns, as in the dataset report),
 * or for a gold record its known verdict; unresolved and unlabelled records are out; with the rule's
 * `requireExecutable` a record whose solution did not pass both tests is out too. The release row is
 * locked first, so a job delivered twice (a retry, a worker thought dead) waits for the first and
 * then finds it READY: nothing is stored twice, and a build killed half-way leaves nothing (the
 * transaction rolls back). Audited, as its starter. No scope: the job's (cutRelease checked it).
 */
export async function storeReleaseEntries({
  releaseId,
  campaignIds,
  validity,
  disclosure,
}: {
  releaseId: string;
  campaignIds: string[];
  validity: ReleaseValidity;
  disclosure: ReleaseDisclosure;
}): Promise<{ outcome: "built"; records: number; excluded: number; revised: number } | { outcome: "not building" }> {
  return prisma().$transaction(
    async (tx) => {
      const [release] = await tx.$queryRaw<
        { status: string; datasetId: string; name: string; rule: unknown; createdById: string | null }[]
      >`
        SELECT status, "datasetId", name, rule, "createdById" FROM "Release" WHERE id = ${releaseId} FOR UPDATE`;
      if (!release || release.status !== "BUILDING") return { outcome: "not building" as const };
      const rule = releaseRuleSchema.parse(release.rule);
      await tx.$executeRawUnsafe(
        `WITH finals AS (
           SELECT DISTINCT ON (record_id) record_id, n, final_valid, decided_by, final_categories
           FROM ${finalLabelsOf("$2::text[]")}
           ORDER BY record_id, strength DESC, array_position($2::text[], campaign_id) DESC
         ),
         chosen AS (
           -- A gold record's known verdict (an admin's, the answer gold items measure annotators
           -- against) decides it as a final label would; an accepted repair still comes first (the
           -- answer is about the content it replaced).
           -- One revision per entry: the execution is the revision's own (kept on the record with
           -- its content); the imported critic judged the import, so a repaired record has none.
           SELECT r.id, r.revision, r."executableValid" AS exec, r."verificationOutcome" AS outcome,
                  CASE WHEN r.revision > 1 THEN NULL ELSE cv."overallPass" END AS critic, f.final_valid,
                  CASE WHEN g."recordId" IS NOT NULL THEN 'gold' ELSE f.decided_by END AS decided_by,
                  CASE WHEN g."recordId" IS NOT NULL THEN g.categories ELSE coalesce(f.final_categories, '{}') END AS categories,
                  CASE
                    WHEN r.revision > 1 THEN 'accepted-repair'
                    WHEN g.valid THEN 'gold-answer-valid'
                    WHEN NOT g.valid THEN 'gold-answer-invalid'
                    WHEN f.final_valid THEN 'final-label-valid'
                    WHEN NOT f.final_valid THEN 'final-label-invalid'
                    WHEN coalesce(f.n, 0) > 0 THEN 'unresolved'
                    ELSE 'unlabelled'
                  END AS chosen_by
           FROM "Record" r
           LEFT JOIN finals f ON f.record_id = r.id
           LEFT JOIN "GoldLabel" g ON g."recordId" = r.id
           LEFT JOIN "CriticVerdict" cv ON cv."recordId" = r.id
           WHERE r."datasetId" = $1
         ),
         judged AS (
           SELECT *, chosen_by IN ('accepted-repair', 'gold-answer-valid', 'final-label-valid') AS is_valid FROM chosen
         )
         INSERT INTO "ReleaseEntry" ("releaseId", "recordId", revision, included, reason)
         SELECT $3, id, revision, is_valid AND (NOT $4 OR exec IS TRUE),
           jsonb_build_object(
             'label', CASE WHEN is_valid THEN 'valid' WHEN chosen_by IN ('final-label-invalid', 'gold-answer-invalid') THEN 'invalid'
                           WHEN chosen_by = 'unresolved' THEN 'unresolved' ELSE 'unlabelled' END,
             'decided_by', CASE WHEN chosen_by = 'accepted-repair' THEN 'blind-check' ELSE decided_by END,
             'categories', CASE WHEN chosen_by = 'accepted-repair' THEN '[]'::jsonb ELSE to_jsonb(categories) END,
             'rule', CASE WHEN is_valid AND $4 AND outcome = 'INCONCLUSIVE' THEN 'execution-inconclusive'
                          WHEN is_valid AND $4 AND exec IS NOT TRUE THEN 'not-executable' ELSE chosen_by END,
             'evidence', jsonb_build_object('executable_valid', exec, 'execution_outcome', outcome, 'critic_pass', critic))
         FROM judged`,
        release.datasetId,
        campaignIds,
        releaseId,
        rule.requireExecutable,
      );
      const [counts] = await tx.$queryRaw<{ records: number; excluded: number; revised: number }[]>`
        SELECT (count(*) FILTER (WHERE included))::int AS records, (count(*) FILTER (WHERE NOT included))::int AS excluded,
               (count(*) FILTER (WHERE included AND revision > 1))::int AS revised
        FROM "ReleaseEntry" WHERE "releaseId" = ${releaseId}`;
      await tx.release.update({
        where: { id: releaseId },
        data: { ...counts, validity, disclosure, status: "READY", finishedAt: new Date() },
      });
      await writeAudit(tx, {
        actorId: release.createdById,
        action: "release.create",
        targetType: "Dataset",
        targetId: release.datasetId,
        after: { release: release.name, ...counts },
      });
      return { outcome: "built" as const, ...counts };
    },
    // The entries of 100,000 records take about 15 s on a loaded two-core machine.
    { timeout: 30 * 60_000 },
  );
}

/**
 * Ends a BUILDING release as FAILED with the reason (its build failed in a way a retry would repeat,
 * or could not be queued): the list says so, and its name stays taken. A release that ended
 * meanwhile is left as it is. No scope: the job's, or the cut's own failure.
 */
export async function failReleaseBuild({ releaseId, reason }: { releaseId: string; reason: string }): Promise<void> {
  await prisma().release.updateMany({
    where: { id: releaseId, status: "BUILDING" },
    data: { status: "FAILED", failureReason: reason, finishedAt: new Date() },
  });
}

/** A stored release by dataset and name, NOT_FOUND otherwise. Scope: releases:read. */
export async function findRelease({
  actor,
  datasetName,
  name,
}: {
  actor: AnyActor;
  datasetName: string;
  name: string;
}): Promise<{ id: string; summary: ReleaseSummary }> {
  assertCan(actor, "releases:read");
  const release = await prisma().release.findFirst({
    where: { name, dataset: { name: datasetName } },
    select: {
      id: true,
      name: true,
      createdAt: true,
      records: true,
      excluded: true,
      revised: true,
      rule: true,
      validity: true,
      disclosure: true,
      status: true,
      failureReason: true,
      dataset: { select: { name: true } },
    },
  });
  if (!release) throw new AppError("NOT_FOUND", `Dataset "${datasetName}" has no release named "${name}".`);
  // Half-built or failed: nothing of it may be read or downloaded (build-release.ts).
  if (release.status === "BUILDING")
    throw new AppError("CONFLICT", `Release "${name}" is still being cut: try again when the list says it is ready.`);
  if (release.status === "FAILED")
    throw new AppError("CONFLICT", `Release "${name}" could not be cut: ${release.failureReason ?? "its job failed"}.`);
  const rows = await prisma().$queryRaw<{ language: string; records: number; excluded: number; revised: number }[]>`
    SELECT r.language, (count(*) FILTER (WHERE e.included))::int AS records,
           (count(*) FILTER (WHERE NOT e.included))::int AS excluded,
           (count(*) FILTER (WHERE e.included AND e.revision > 1))::int AS revised
    FROM "ReleaseEntry" e JOIN "Record" r ON r.id = e."recordId"
    WHERE e."releaseId" = ${release.id} GROUP BY r.language ORDER BY r.language`;
  const byLanguage: LanguageCounts = Object.fromEntries(
    rows.map(({ language, ...counts }) => [language, counts] as const),
  );
  return {
    id: release.id,
    summary: {
      name: release.name,
      dataset: release.dataset.name,
      createdAt: release.createdAt.toISOString(),
      records: release.records,
      excluded: release.excluded,
      revised: release.revised,
      byLanguage,
      // JSON columns: parsed, not trusted, so a stored shape that drifted fails here and not in a reader.
      rule: releaseRuleSchema.parse(release.rule),
      validity: releaseValiditySchema.parse(release.validity),
      disclosure: releaseDisclosureSchema.parse(release.disclosure),
    },
  };
}

/** A dataset's releases, newest first, a page at a time (the cursor is the last name). Scope: releases:read. */
export async function listReleases({
  actor,
  datasetName,
  cursor,
  limit = 50,
}: {
  actor: AnyActor;
  datasetName: string;
  cursor?: string;
  limit?: number;
}): Promise<{ releases: ReleaseListEntry[]; nextCursor: string | null }> {
  assertCan(actor, "releases:read");
  const dataset = await findDatasetForRelease({ actor, datasetName });
  const after = cursor
    ? await prisma().release.findUnique({
        where: { datasetId_name: { datasetId: dataset.id, name: cursor } },
        select: { createdAt: true, id: true },
      })
    : null;
  const rows = await prisma().release.findMany({
    where: {
      datasetId: dataset.id,
      ...(after
        ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: {
      name: true,
      createdAt: true,
      records: true,
      excluded: true,
      revised: true,
      status: true,
      failureReason: true,
    },
  });
  const page = rows.slice(0, limit);
  return { releases: page, nextCursor: rows.length > limit ? page[page.length - 1].name : null };
}

export type ReleaseRecordRow = {
  recordId: number;
  key: string;
  line: number;
  language: string;
  difficulty: string | null;
  extra: Record<string, unknown>;
  revision: number;
  reason: EntryReason;
  question: string;
  canonicalSolution: string;
  demoTestFunc: string;
  fullTestFunc: string;
};

/**
 * A release's records in record order, a page at a time (flat memory at any size): those in, or
 * those out. Each comes at the revision the release stored: the revision's own row, or the record's
 * columns for a record never revised (the import, which a first repair writes as revision 1 before
 * the columns can change). Scope: releases:read.
 */
export async function* releaseRecordPages({
  actor,
  releaseId,
  included,
  pageSize = 1000,
}: {
  actor: AnyActor;
  releaseId: string;
  included: boolean;
  pageSize?: number;
}): AsyncGenerator<ReleaseRecordRow[]> {
  assertCan(actor, "releases:read");
  let after = 0;
  for (;;) {
    const rows = await prisma().$queryRaw<(ReleaseRecordRow & { stored: boolean; current: number })[]>`
      SELECT e."recordId", r.key, r.line, r.language, r.difficulty, r.extra, e.revision, e.reason,
             rv.id IS NOT NULL AS stored, r.revision AS current,
             coalesce(rv.question, r.question) AS question,
             coalesce(rv."canonicalSolution", r."canonicalSolution") AS "canonicalSolution",
             coalesce(rv."demoTestFunc", r."demoTestFunc") AS "demoTestFunc",
             coalesce(rv."fullTestFunc", r."fullTestFunc") AS "fullTestFunc"
      FROM "ReleaseEntry" e
      JOIN "Record" r ON r.id = e."recordId"
      LEFT JOIN "RecordRevision" rv ON rv."recordId" = e."recordId" AND rv.number = e.revision
      WHERE e."releaseId" = ${releaseId} AND e.included = ${included} AND e."recordId" > ${after}
      ORDER BY e."recordId" LIMIT ${pageSize}`;
    if (rows.length === 0) return;
    for (const row of rows)
      if (!row.stored && row.current !== row.revision)
        throw new Error(`Record ${row.recordId} has no stored revision ${row.revision}.`);
    yield rows.map(({ stored: _stored, current: _current, ...row }) => row);
    after = rows[rows.length - 1].recordId;
  }
}

/** A release's entries for a diff: every record with its revision and whether it is in. Scope: releases:read. */
export async function releaseDiffEntries({
  actor,
  releaseId,
}: {
  actor: AnyActor;
  releaseId: string;
}): Promise<DiffEntry[]> {
  assertCan(actor, "releases:read");
  return prisma().$queryRaw<DiffEntry[]>`
    SELECT e."recordId", r.key, r.line, r.language, e.revision, e.included
    FROM "ReleaseEntry" e JOIN "Record" r ON r.id = e."recordId"
    WHERE e."releaseId" = ${releaseId} ORDER BY e."recordId"`;
}
