import "server-only";

import type { Prisma } from "@/lib/generated/prisma/client";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, type SystemActor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";

// The stored side of critics run from Verity: configurations, prompt versions, runs and each
// record's result. Calling the endpoint and the job queue live in lib/server/critics. The verdicts
// of the record files are the built-in critic "imported" (migration 20261201183200_critics): they
// stay in "CriticVerdict", which every existing figure reads; the critic and its one version are
// made up when read (IMPORTED_CRITIC), never stored, and no stored critic may take the name.
// This file holds what the operations beside it share, and the reads and writes of a run's worker
// (run.ts): one file per operation for the rest (save-critic.ts, open-critic-run.ts …).

/** The built-in critic of the record files' verdicts, as lists and calibration show it. */
export const IMPORTED_CRITIC = { name: "imported", criticId: "imported", versionId: "imported-v1" } as const;

export function isImportedName(name: string): boolean {
  return name.trim().toLowerCase() === IMPORTED_CRITIC.name;
}

export type CriticRunStatus = "RUNNING" | "PAUSED" | "CANCELLED" | "SUCCEEDED" | "FAILED";
export type CriticResultStatus = "PARSED" | "UNREADABLE" | "ERROR";

export type CriticVersionRow = {
  id: string;
  number: number;
  model: string;
  temperature: number;
  maxTokens: number;
  template: string;
  usedAt: Date | null;
  createdAt: Date;
};

export const versionSelect = {
  id: true,
  number: true,
  model: true,
  temperature: true,
  maxTokens: true,
  template: true,
  usedAt: true,
  createdAt: true,
} satisfies Prisma.CriticVersionSelect;

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

export const runSelect = {
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

export function toProgress({
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

export type RunScope = { versionId: string; datasetId: string; language: string | null; campaignId: string | null };

// The records of a run's scope, as SQL over "Record" r (parameters $1 dataset, $2 language, $3 campaign).
// A campaign's sample is its counted items: gold records only measure annotators.
export const SCOPE_WHERE = `r."datasetId" = $1 AND ($2::text IS NULL OR r.language = $2)
  AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM "CampaignItem" ci WHERE ci."campaignId" = $3 AND ci."recordId" = r.id AND NOT ci.gold))`;

// A record still to ask: no result of this version yet, or only a failed request from an earlier run.
const PENDING = `NOT EXISTS (SELECT 1 FROM "CriticResult" cr WHERE cr."versionId" = $4 AND cr."recordId" = r.id
  AND (cr.status <> 'ERROR' OR cr."runId" = $5))`;

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
