import "server-only";

import type { Prisma } from "@/lib/generated/prisma/client";
import { DEFAULT_CRITIC_TEMPLATE } from "@/lib/critics/template";
import type { Language } from "@/lib/records/languages";
import { recordTitle } from "@/lib/records/title";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { sealSecret } from "@/lib/server/auth/secrets";
import { AppError } from "@/lib/server/errors";
import type { SaveCriticInput } from "@/lib/validation/critics";

import { writeAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";

// The stored side of critics run from Verity: configurations, prompt versions, runs and each
// record's result. Calling the endpoint and the job queue live in lib/server/critics. The verdicts
// of the record files are the built-in critic "imported" (migration 20261201183200_critics): they
// stay in "CriticVerdict", which every existing figure reads; the critic and its one version are
// made up when read (IMPORTED_CRITIC), never stored, and no stored critic may take the name.

/** The built-in critic of the record files' verdicts, as lists and calibration show it. */
export const IMPORTED_CRITIC = { name: "imported", criticId: "imported", versionId: "imported-v1" } as const;

function isImportedName(name: string): boolean {
  return name.trim().toLowerCase() === IMPORTED_CRITIC.name;
}

export type CriticRunStatus = "RUNNING" | "PAUSED" | "CANCELLED" | "SUCCEEDED" | "FAILED";
export type CriticResultStatus = "PARSED" | "UNREADABLE" | "ERROR";

type CriticVersionRow = {
  id: string;
  number: number;
  model: string;
  temperature: number;
  maxTokens: number;
  template: string;
  usedAt: Date | null;
  createdAt: Date;
};

/** A critic as admins see it: never the key itself, only where it comes from. */
export type CriticRow = {
  id: string;
  name: string;
  kind: "ENDPOINT" | "IMPORTED";
  baseUrl: string;
  apiKeyEnv: string | null;
  hasStoredKey: boolean;
  concurrency: number;
  timeoutMs: number;
  createdAt: Date;
  versions: CriticVersionRow[];
};

const versionSelect = {
  id: true,
  number: true,
  model: true,
  temperature: true,
  maxTokens: true,
  template: true,
  usedAt: true,
  createdAt: true,
} satisfies Prisma.CriticVersionSelect;

const criticSelect = {
  id: true,
  name: true,
  baseUrl: true,
  apiKeyEnv: true,
  apiKeySealed: true,
  concurrency: true,
  timeoutMs: true,
  createdAt: true,
  versions: { select: versionSelect, orderBy: { number: "desc" } },
} satisfies Prisma.CriticSelect;

function toCriticRow({ apiKeySealed, ...row }: Prisma.CriticGetPayload<{ select: typeof criticSelect }>): CriticRow {
  return { ...row, kind: "ENDPOINT", hasStoredKey: apiKeySealed !== null };
}

const IMPORTED_ROW: CriticRow = {
  id: IMPORTED_CRITIC.criticId,
  name: IMPORTED_CRITIC.name,
  kind: "IMPORTED",
  baseUrl: "",
  apiKeyEnv: null,
  hasStoredKey: false,
  concurrency: 0,
  timeoutMs: 0,
  createdAt: new Date(0),
  versions: [
    {
      id: IMPORTED_CRITIC.versionId,
      number: 1,
      model: "",
      temperature: 0,
      maxTokens: 0,
      template: "",
      usedAt: new Date(0),
      createdAt: new Date(0),
    },
  ],
};

export type SavedCritic = {
  criticId: string;
  name: string;
  version: number;
  createdCritic: boolean;
  createdVersion: boolean;
};

function isSameOrigin(first: string, second: string): boolean {
  return new URL(first).origin === new URL(second).origin;
}

/**
 * Creates a critic, or updates the one of that name: its endpoint settings change in place; its
 * prompt version (model, temperature, max tokens, template) changes in place while no run used it,
 * and otherwise becomes a new version, so every stored verdict keeps the version that made it. A
 * stored key stays with its origin: moving the base URL to another one needs the key again (or
 * drops it when the critic now names a key variable). Scope: critics:admin.
 */
export async function saveCritic({
  actor,
  input,
}: {
  actor: Actor | SystemActor;
  input: SaveCriticInput;
}): Promise<SavedCritic> {
  assertCan(actor, "critics:admin");
  if (isImportedName(input.name))
    throw new AppError("CONFLICT", `"${input.name}" is the built-in critic of the record files.`);
  const sealed = input.apiKey && input.apiKey.trim() !== "" ? sealSecret(input.apiKey.trim()) : undefined;
  const promptOf = (latestTemplate: string | undefined) => ({
    model: input.model,
    temperature: input.temperature,
    maxTokens: input.maxTokens,
    // No template given: keep the critic's own, else Verity's default.
    template: input.template ?? latestTemplate ?? DEFAULT_CRITIC_TEMPLATE,
  });
  return prisma().$transaction(async (tx) => {
    const existing = await tx.critic.findUnique({
      where: { name: input.name },
      select: {
        id: true,
        baseUrl: true,
        apiKeySealed: true,
        versions: { select: versionSelect, orderBy: { number: "desc" }, take: 1 },
      },
    });
    // A stored key was typed for one origin: it never follows the critic to another one.
    const isKeyStranded = existing?.apiKeySealed != null && !sealed && !isSameOrigin(existing.baseUrl, input.baseUrl);
    if (isKeyStranded && !input.apiKeyEnv)
      throw new AppError("INVALID_INPUT", "The base URL now points at another host: enter its API key again.", {
        apiKey: ["The stored key was given for another host; type the key again for this one."],
      });
    const endpoint = {
      baseUrl: input.baseUrl,
      apiKeyEnv: input.apiKeyEnv ?? null,
      concurrency: input.concurrency,
      timeoutMs: input.timeoutMs,
      ...(sealed ? { apiKeySealed: sealed } : isKeyStranded ? { apiKeySealed: null } : {}),
    };
    let saved: SavedCritic;
    const prompt = promptOf(existing?.versions[0]?.template);
    if (!existing) {
      const critic = await tx.critic.create({
        data: {
          name: input.name,
          ...endpoint,
          createdById: personIdOf(actor),
          versions: { create: { number: 1, ...prompt, createdById: personIdOf(actor) } },
        },
        select: { id: true },
      });
      saved = { criticId: critic.id, name: input.name, version: 1, createdCritic: true, createdVersion: true };
    } else {
      await tx.critic.update({ where: { id: existing.id }, data: endpoint });
      const latest = existing.versions[0];
      const same =
        latest &&
        latest.model === prompt.model &&
        latest.temperature === prompt.temperature &&
        latest.maxTokens === prompt.maxTokens &&
        latest.template === prompt.template;
      if (same) {
        saved = {
          criticId: existing.id,
          name: input.name,
          version: latest.number,
          createdCritic: false,
          createdVersion: false,
        };
      } else if (latest && latest.usedAt === null) {
        // Nothing was judged with it yet: editing it changes no stored verdict.
        const updated = await tx.criticVersion.updateMany({ where: { id: latest.id, usedAt: null }, data: prompt });
        if (updated.count === 0)
          throw new AppError("CONFLICT", "A run started with this version just now; save again.");
        saved = {
          criticId: existing.id,
          name: input.name,
          version: latest.number,
          createdCritic: false,
          createdVersion: false,
        };
      } else {
        const number = (latest?.number ?? 0) + 1;
        await tx.criticVersion.create({
          data: { criticId: existing.id, number, ...prompt, createdById: personIdOf(actor) },
        });
        saved = {
          criticId: existing.id,
          name: input.name,
          version: number,
          createdCritic: false,
          createdVersion: true,
        };
      }
    }
    await writeAudit(tx, {
      actorId: personIdOf(actor),
      action: existing ? "critic.update" : "critic.create",
      targetType: "Critic",
      targetId: saved.criticId,
      // Where the key comes from, never the key.
      after: {
        name: input.name,
        baseUrl: input.baseUrl,
        model: input.model,
        version: saved.version,
        apiKeyEnv: input.apiKeyEnv ?? null,
        storedKey: Boolean(sealed),
      },
    });
    return saved;
  });
}

/** Every critic with its versions, newest version first; the built-in "imported" last. Scope: critics:read. */
export async function listCritics({ actor }: { actor: Actor | SystemActor }): Promise<CriticRow[]> {
  assertCan(actor, "critics:read");
  // Critics are configurations an admin types in: a handful, so one page holds them all.
  const rows = await prisma().critic.findMany({
    select: criticSelect,
    orderBy: { name: "asc" },
    take: 500,
  });
  return [...rows.map(toCriticRow), IMPORTED_ROW];
}

export type CriticRunProgress = {
  runId: string;
  critic: string;
  version: number;
  dataset: string;
  language: string | null;
  campaignId: string | null;
  status: CriticRunStatus;
  total: number;
  done: number;
  parsed: number;
  unreadable: number;
  pass: number;
  fail: number;
  errored: number;
  promptTokens: number;
  completionTokens: number;
  stopReason: string | null;
  createdAt: Date;
  finishedAt: Date | null;
};

const runSelect = {
  id: true,
  language: true,
  campaignId: true,
  status: true,
  total: true,
  done: true,
  parsed: true,
  unreadable: true,
  pass: true,
  fail: true,
  errored: true,
  promptTokens: true,
  completionTokens: true,
  stopReason: true,
  createdAt: true,
  finishedAt: true,
  dataset: { select: { name: true } },
  version: { select: { number: true, critic: { select: { name: true } } } },
} satisfies Prisma.CriticRunSelect;

function toProgress({
  id,
  dataset,
  version,
  status,
  ...row
}: Prisma.CriticRunGetPayload<{ select: typeof runSelect }>): CriticRunProgress {
  return {
    runId: id,
    critic: version.critic.name,
    version: version.number,
    dataset: dataset.name,
    status: status as CriticRunStatus,
    ...row,
  };
}

type RunScope = { versionId: string; datasetId: string; language: string | null; campaignId: string | null };

// The records of a run's scope, as SQL over "Record" r (parameters $1 dataset, $2 language, $3 campaign).
// A campaign's sample is its counted items: gold records only measure annotators.
const SCOPE_WHERE = `r."datasetId" = $1 AND ($2::text IS NULL OR r.language = $2)
  AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM "CampaignItem" ci WHERE ci."campaignId" = $3 AND ci."recordId" = r.id AND NOT ci.gold))`;

// A record still to ask: no result of this version yet, or only a failed request from an earlier run.
const PENDING = `NOT EXISTS (SELECT 1 FROM "CriticResult" cr WHERE cr."versionId" = $4 AND cr."recordId" = r.id
  AND (cr.status <> 'ERROR' OR cr."runId" = $5))`;

export type CriticRunStart = { runId: string; total: number; resumed: boolean; version: number };

/**
 * Opens a run of a critic's newest version over a dataset (optionally one language, or one
 * campaign's sample). A RUNNING or PAUSED run of the same version and scope is resumed instead, so a
 * crash or a pause never redoes finished records; a new run counts the version's verdicts already
 * stored for the scope as done. Scope: critics:admin.
 */
export async function openCriticRun({
  actor,
  criticName,
  datasetName,
  language,
  campaignId,
}: {
  actor: Actor | SystemActor;
  criticName: string;
  datasetName: string;
  language?: Language;
  campaignId?: string;
}): Promise<CriticRunStart> {
  assertCan(actor, "critics:admin");
  if (isImportedName(criticName))
    throw new AppError("INVALID_INPUT", `"${criticName}" holds the record files' verdicts; it cannot be run.`);
  const critic = await prisma().critic.findUnique({
    where: { name: criticName },
    select: { versions: { select: { id: true, number: true }, orderBy: { number: "desc" }, take: 1 } },
  });
  if (!critic) throw new AppError("NOT_FOUND", `No critic named "${criticName}".`);
  const version = critic.versions[0];
  const dataset = await prisma().dataset.findUnique({ where: { name: datasetName }, select: { id: true } });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  if (campaignId) {
    const campaign = await prisma().campaign.findFirst({
      where: { id: campaignId, datasetId: dataset.id },
      select: { id: true },
    });
    if (!campaign) throw new AppError("NOT_FOUND", `No campaign ${campaignId} on dataset "${datasetName}".`);
  }
  const scope: RunScope = {
    versionId: version.id,
    datasetId: dataset.id,
    language: language ?? null,
    campaignId: campaignId ?? null,
  };
  return prisma().$transaction(async (tx) => {
    const open = await tx.criticRun.findFirst({
      where: { ...scope, status: { in: ["RUNNING", "PAUSED"] } },
      select: { id: true, total: true },
      orderBy: { createdAt: "desc" },
    });
    if (open) {
      await tx.criticRun.update({ where: { id: open.id }, data: { status: "RUNNING" } });
      return { runId: open.id, total: open.total, resumed: true, version: version.number };
    }
    const [counts] = await tx.$queryRawUnsafe<
      { total: number; parsed: number; unreadable: number; pass: number; fail: number }[]
    >(
      `SELECT count(*)::int AS total,
              (count(*) FILTER (WHERE cr.status = 'PARSED'))::int AS parsed,
              (count(*) FILTER (WHERE cr.status = 'UNREADABLE'))::int AS unreadable,
              (count(*) FILTER (WHERE cr."overallPass"))::int AS pass,
              (count(*) FILTER (WHERE NOT cr."overallPass"))::int AS fail
       FROM "Record" r
       LEFT JOIN "CriticResult" cr ON cr."versionId" = $4 AND cr."recordId" = r.id AND cr.status <> 'ERROR'
       WHERE ${SCOPE_WHERE}`,
      scope.datasetId,
      scope.language,
      scope.campaignId,
      scope.versionId,
    );
    const done = counts.parsed + counts.unreadable;
    const run = await tx.criticRun.create({
      data: {
        ...scope,
        total: counts.total,
        done,
        parsed: counts.parsed,
        unreadable: counts.unreadable,
        pass: counts.pass,
        fail: counts.fail,
        createdById: personIdOf(actor),
        ...(done === counts.total ? { status: "SUCCEEDED", finishedAt: new Date() } : {}),
      },
      select: { id: true },
    });
    // From now on the version is what this run's verdicts were made with: it no longer changes.
    await tx.criticVersion.updateMany({ where: { id: version.id, usedAt: null }, data: { usedAt: new Date() } });
    await writeAudit(tx, {
      actorId: personIdOf(actor),
      action: "critic.run",
      targetType: "CriticRun",
      targetId: run.id,
      after: {
        critic: criticName,
        version: version.number,
        dataset: datasetName,
        language: scope.language,
        campaignId: scope.campaignId,
      },
    });
    return { runId: run.id, total: counts.total, resumed: false, version: version.number };
  });
}

/** What a worker needs to ask the critic: the endpoint and the version's prompt. No permission check: server code only. */
export async function findCriticRunToProcess(runId: string) {
  return prisma().criticRun.findUnique({
    where: { id: runId },
    select: {
      id: true,
      status: true,
      datasetId: true,
      language: true,
      campaignId: true,
      versionId: true,
      version: {
        select: {
          model: true,
          temperature: true,
          maxTokens: true,
          template: true,
          critic: {
            select: { baseUrl: true, apiKeyEnv: true, apiKeySealed: true, concurrency: true, timeoutMs: true },
          },
        },
      },
    },
  });
}

export type PendingCriticRecord = {
  id: number;
  language: string;
  question: string;
  canonicalSolution: string;
  demoTestFunc: string;
  fullTestFunc: string;
};

/**
 * The next records a run still has to ask about, by id after `afterId` (keyset, so 100,000 records
 * page with flat memory). No permission check: the worker processes a run it was handed.
 */
export async function nextPendingCriticRecords({
  runId,
  afterId,
  limit,
}: {
  runId: string;
  afterId: number;
  limit: number;
}): Promise<PendingCriticRecord[]> {
  const run = await prisma().criticRun.findUniqueOrThrow({
    where: { id: runId },
    select: { datasetId: true, language: true, campaignId: true, versionId: true },
  });
  return prisma().$queryRawUnsafe<PendingCriticRecord[]>(
    `SELECT r.id, r.language, r.question, r."canonicalSolution", r."demoTestFunc", r."fullTestFunc"
     FROM "Record" r
     WHERE ${SCOPE_WHERE} AND ${PENDING} AND r.id > $6
     ORDER BY r.id LIMIT $7`,
    run.datasetId,
    run.language,
    run.campaignId,
    run.versionId,
    runId,
    afterId,
    limit,
  );
}

export type CriticResultInput = {
  status: CriticResultStatus;
  overallPass: boolean | null;
  failedRules: string[];
  rules: { rule: string; passed: boolean | null; reason: string }[];
  confidence: number | null;
  raw: string;
  error: string | null;
  attempts: number;
  latencyMs: number | null;
  promptTokens: number | null;
  completionTokens: number | null;
};

/**
 * Stores one record's result for a run and counts it, in one statement (so the run's row, which every
 * answer of the run counts into, is locked only for the moment of the update). A record already
 * answered (a job delivered twice after a crash) is left alone and not counted again; an earlier
 * run's failed request is replaced. Returns whether it was stored. Scope: critics:admin (the worker).
 */
export async function writeCriticResult({
  actor,
  runId,
  recordId,
  result,
}: {
  actor: Actor | SystemActor;
  runId: string;
  recordId: number;
  result: CriticResultInput;
}): Promise<boolean> {
  assertCan(actor, "critics:admin");
  const one = (isCounted: boolean) => (isCounted ? 1 : 0);
  const rows = await prisma().$queryRaw<{ stored: number }[]>`
    WITH stored AS (
      INSERT INTO "CriticResult" (id, "versionId", "runId", "recordId", status, "overallPass", "failedRules", rules,
        confidence, raw, error, attempts, "latencyMs", "promptTokens", "completionTokens")
      SELECT ${`crs_${crypto.randomUUID()}`}, run."versionId", run.id, ${recordId}, ${result.status}, ${result.overallPass},
        ${result.failedRules}::text[], ${JSON.stringify(result.rules)}::jsonb, ${result.confidence}, ${result.raw}, ${result.error},
        ${result.attempts}, ${result.latencyMs}, ${result.promptTokens}, ${result.completionTokens}
      FROM "CriticRun" run WHERE run.id = ${runId}
      ON CONFLICT ("versionId", "recordId") DO UPDATE SET
        "runId" = EXCLUDED."runId", status = EXCLUDED.status, "overallPass" = EXCLUDED."overallPass",
        "failedRules" = EXCLUDED."failedRules", rules = EXCLUDED.rules, confidence = EXCLUDED.confidence,
        raw = EXCLUDED.raw, error = EXCLUDED.error, attempts = EXCLUDED.attempts, "latencyMs" = EXCLUDED."latencyMs",
        "promptTokens" = EXCLUDED."promptTokens", "completionTokens" = EXCLUDED."completionTokens", "createdAt" = now()
      WHERE "CriticResult".status = 'ERROR' AND "CriticResult"."runId" IS DISTINCT FROM EXCLUDED."runId"
      RETURNING id
    ), counted AS (
      UPDATE "CriticRun" SET
        done = done + 1,
        parsed = parsed + ${one(result.status === "PARSED")},
        unreadable = unreadable + ${one(result.status === "UNREADABLE")},
        errored = errored + ${one(result.status === "ERROR")},
        pass = pass + ${one(result.status === "PARSED" && result.overallPass === true)},
        fail = fail + ${one(result.status === "PARSED" && result.overallPass === false)},
        "promptTokens" = "promptTokens" + ${result.promptTokens ?? 0},
        "completionTokens" = "completionTokens" + ${result.completionTokens ?? 0}
      WHERE id = ${runId} AND EXISTS (SELECT 1 FROM stored)
      RETURNING id
    )
    SELECT (SELECT count(*) FROM counted)::int AS stored`;
  return rows[0]?.stored === 1;
}

/** The run's status now (null when it was deleted), which a worker checks between records. No permission check: server code only. */
export async function criticRunStatus(runId: string): Promise<CriticRunStatus | null> {
  const row = await prisma().criticRun.findUnique({ where: { id: runId }, select: { status: true } });
  return (row?.status as CriticRunStatus | undefined) ?? null;
}

/** Ends a RUNNING run: SUCCEEDED, or FAILED with the reason. No permission check: the worker that ran it. */
export async function finishCriticRun({ runId, stopReason }: { runId: string; stopReason?: string }): Promise<void> {
  await prisma().criticRun.updateMany({
    where: { id: runId, status: "RUNNING" },
    data: { status: stopReason ? "FAILED" : "SUCCEEDED", stopReason: stopReason ?? null, finishedAt: new Date() },
  });
}

const TRANSITIONS: Record<"pause" | "resume" | "cancel", { from: CriticRunStatus[]; to: CriticRunStatus }> = {
  pause: { from: ["RUNNING"], to: "PAUSED" },
  resume: { from: ["PAUSED"], to: "RUNNING" },
  cancel: { from: ["RUNNING", "PAUSED"], to: "CANCELLED" },
};

/**
 * Pauses, resumes or cancels a run (a conditional update plus an audit row); a worker stops asking
 * at its next record. CONFLICT when the run is not in a state that allows it. Scope: critics:admin.
 */
export async function changeCriticRunStatus({
  actor,
  runId,
  action,
}: {
  actor: Actor | SystemActor;
  runId: string;
  action: "pause" | "resume" | "cancel";
}): Promise<CriticRunStatus> {
  assertCan(actor, "critics:admin");
  const { from, to } = TRANSITIONS[action];
  return prisma().$transaction(async (tx) => {
    const changed = await tx.criticRun.updateMany({
      where: { id: runId, status: { in: from } },
      data: { status: to, ...(to === "CANCELLED" ? { finishedAt: new Date() } : {}) },
    });
    if (changed.count === 0) {
      const exists = await tx.criticRun.findUnique({ where: { id: runId }, select: { status: true } });
      if (!exists) throw new AppError("NOT_FOUND", "No such critic run.");
      throw new AppError("CONFLICT", `The run is ${exists.status.toLowerCase()}; it cannot ${action}.`);
    }
    await writeAudit(tx, {
      actorId: personIdOf(actor),
      action: `critic.run.${action}`,
      targetType: "CriticRun",
      targetId: runId,
    });
    return to;
  });
}

/** A run's counters (NOT_FOUND when none). Scope: critics:read. */
export async function getCriticRunProgress({
  actor,
  runId,
}: {
  actor: Actor | SystemActor;
  runId: string;
}): Promise<CriticRunProgress> {
  assertCan(actor, "critics:read");
  const row = await prisma().criticRun.findUnique({ where: { id: runId }, select: runSelect });
  if (!row) throw new AppError("NOT_FOUND", "No such critic run.");
  return toProgress(row);
}

/** Runs, newest first, a page at a time (keyset on creation time and id). Scope: critics:read. */
export async function listCriticRuns({
  actor,
  before,
  limit = 50,
}: {
  actor: Actor | SystemActor;
  before?: string;
  limit?: number;
}): Promise<{ runs: CriticRunProgress[]; nextBefore: string | null }> {
  assertCan(actor, "critics:read");
  const cursor = before
    ? await prisma().criticRun.findUnique({ where: { id: before }, select: { createdAt: true, id: true } })
    : null;
  const rows = await prisma().criticRun.findMany({
    where: cursor
      ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] }
      : {},
    select: runSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit).map(toProgress);
  return { runs: page, nextBefore: rows.length > limit ? page[page.length - 1].runId : null };
}

export type CriticResultRow = {
  id: string;
  recordId: number;
  /** The record's statement title (its first heading), so a person reads which record, not an id. */
  title: string;
  language: string;
  status: CriticResultStatus;
  overallPass: boolean | null;
  failedRules: string[];
  confidence: number | null;
  raw: string;
  error: string | null;
  attempts: number;
  latencyMs: number | null;
  promptTokens: number | null;
  completionTokens: number | null;
};

/**
 * A run's results a page at a time (keyset on the result id), optionally only one status; the raw
 * reply is cut to `rawChars` for the list. Scope: critics:read.
 */
export async function listCriticRunResults({
  actor,
  runId,
  status,
  after,
  limit = 50,
  rawChars = 2000,
}: {
  actor: Actor | SystemActor;
  runId: string;
  status?: CriticResultStatus;
  after?: string;
  limit?: number;
  rawChars?: number;
}): Promise<{ results: CriticResultRow[]; nextAfter: string | null }> {
  assertCan(actor, "critics:read");
  const rows = await prisma().criticResult.findMany({
    where: { runId, ...(status ? { status } : {}), ...(after ? { id: { gt: after } } : {}) },
    select: {
      id: true,
      recordId: true,
      status: true,
      overallPass: true,
      failedRules: true,
      confidence: true,
      raw: true,
      error: true,
      attempts: true,
      latencyMs: true,
      promptTokens: true,
      completionTokens: true,
      record: { select: { language: true, question: true } },
    },
    orderBy: { id: "asc" },
    take: limit + 1,
  });
  const page = rows.slice(0, limit).map(({ record, raw, status: rowStatus, ...row }) => ({
    ...row,
    status: rowStatus as CriticResultStatus,
    title: recordTitle(record.question),
    language: record.language,
    raw: raw.length > rawChars ? `${raw.slice(0, rawChars)}…` : raw,
  }));
  return { results: page, nextAfter: rows.length > limit ? page[page.length - 1].id : null };
}
