import "server-only";

import type { PoolClient } from "pg";

import { z } from "zod";

import {
  applyFieldMapping,
  type CriticVerdict,
  type FieldMapping,
  type ParsedRecord,
  parseCriticLine,
  type RawItem,
  readItems,
  resolveFieldMapping,
  type ValidateResult,
  validateRecord,
} from "@/lib/records";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";

import { writeDatasetAudit } from "@/lib/server/audit/audit";
import { prisma } from "@/lib/server/db/client";
import { pgPool } from "@/lib/server/db/pool";
import { countOf } from "@/lib/format/count";

/** Rows per INSERT statement: large enough to amortise round trips, small enough to keep memory flat. */
const BATCH_SIZE = 1000;
/** How many bad lines are listed; the count covers all of them. */
const MAX_LISTED_ERRORS = 1000;
const PROGRESS_INTERVAL_MS = 500;
/**
 * First key of the advisory lock an import holds on its job for as long as its transaction lives
 * (second key: hashtext(job id)). PostgreSQL drops the lock when the importing session ends, so a
 * RUNNING job whose lock is free belongs to a process that is gone. ("VRIT"; two-key locks never
 * collide with pg-boss's one-key locks.)
 */
const IMPORT_LOCK_CLASS = 0x56524954;
const INTERRUPTED_MESSAGE =
  "The import was interrupted: the process importing it stopped or lost its database connection. Nothing was imported.";

const DATASET_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

type ImportOrigin = "cli" | "web" | "api" | "demo";

export type ImportProgress = {
  linesRead: number;
  bytesRead: number;
  bytesTotal: number | null;
  imported: number;
  errorCount: number;
};

export type ImportSummary = {
  jobId: string;
  dataset: string;
  ok: boolean;
  imported: number;
  duplicates: number;
  skipped: number;
  errorCount: number;
  errors: { line: number; message: string }[];
  byLanguage: Record<string, number>;
};

export type ImportInput = {
  /** A person, or the system for the operator CLI and the demo dataset. */
  actor: Actor | SystemActor;
  datasetName: string;
  source: AsyncIterable<Uint8Array | string>;
  skipInvalid: boolean;
  origin: ImportOrigin;
  fileName?: string | null;
  bytesTotal?: number | null;
  /** Reads another benchmark's format (HumanEval, MBPP…) into AutoCodeBench fields; none: the file is AutoCodeBench. */
  mapping?: FieldMapping | null;
  onProgress?: (progress: ImportProgress) => void;
};

/**
 * The one import path behind the CLI, the upload page and the REST API. Streams the file (JSONL or a
 * JSON array, optionally gzipped), validates every record, and writes inside ONE transaction, so a
 * file with errors imports nothing (unless skipInvalid) and a crash leaves nothing behind. Records
 * already in the dataset (same content hash) count as duplicates. Scope: imports:write.
 */
export async function importRecords(input: ImportInput): Promise<ImportSummary> {
  assertCan(input.actor, "imports:write");
  const datasetName = input.datasetName.trim();
  if (!DATASET_NAME_PATTERN.test(datasetName)) {
    throw new AppError(
      "INVALID_INPUT",
      "A dataset name is 1–100 letters, digits, dots, dashes or underscores, starting with a letter or digit.",
      {
        dataset: ["Use letters, digits, dots, dashes or underscores."],
      },
    );
  }
  const state = { linesRead: 0, bytesRead: 0, imported: 0, valid: 0, errorCount: 0 };
  const errors: ImportSummary["errors"] = [];
  const byLanguage: Record<string, number> = {};
  let lastProgressAt = 0;
  const reportProgress = async (force = false) => {
    const now = Date.now();
    if (!force && now - lastProgressAt < PROGRESS_INTERVAL_MS) return;
    lastProgressAt = now;
    const progress = {
      linesRead: state.linesRead,
      bytesRead: state.bytesRead,
      bytesTotal: input.bytesTotal ?? null,
      imported: state.imported,
      errorCount: state.errorCount,
    };
    input.onProgress?.(progress);
    await prisma().importJob.update({
      where: { id: job.id },
      data: { linesRead: state.linesRead, bytesRead: BigInt(state.bytesRead), imported: state.imported },
    });
  };

  async function* countBytes(source: AsyncIterable<Uint8Array | string>) {
    for await (const chunk of source) {
      state.bytesRead += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
      yield chunk;
    }
  }

  const client = await pgPool().connect();
  const job = { id: `imp_${crypto.randomUUID().replaceAll("-", "")}` };
  let committed = false;
  try {
    await client.query("BEGIN");
    // Locked before the row exists, so no one ever sees this job RUNNING without its lock held.
    await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [IMPORT_LOCK_CLASS, job.id]);
    // Committed on its own at once, so the job's progress is visible while the import runs.
    await prisma().importJob.create({
      data: {
        id: job.id,
        datasetName,
        source: input.origin,
        fileName: input.fileName ?? null,
        bytesTotal: input.bytesTotal ?? null,
        createdById: personIdOf(input.actor),
      },
      select: { id: true },
    });
    // The trigram index absorbs a bulk insert faster through a large pending list merged in big
    // sorted runs (work_mem sizes a merge during the import, maintenance_work_mem the final one)
    // than through many small ones; see flushQuestionIndex for why the list is emptied at the end.
    await client.query("SET LOCAL gin_pending_list_limit = '64MB'");
    await client.query("SET LOCAL work_mem = '64MB'");
    await client.query("SET LOCAL maintenance_work_mem = '256MB'");
    // A rejected file rolls back to here and still commits its job's outcome under the lock.
    await client.query("SAVEPOINT records");
    const datasetId = await upsertDataset(client, datasetName);
    let batch: (ParsedRecord & { line: number })[] = [];
    // One batch is written while the next is read and validated, so parsing and the database's
    // work overlap. A failed write is rethrown at the next flush (or at the end).
    let writing: Promise<{ error: unknown } | null> = Promise.resolve(null);
    const settle = async () => {
      const failure = await writing;
      if (failure) throw failure.error;
    };
    const flush = async () => {
      if (batch.length === 0) return;
      const rows = batch;
      batch = [];
      await settle();
      writing = insertBatch(client, datasetId, rows).then(
        (inserted) => {
          state.imported += inserted.length;
          for (const language of inserted) byLanguage[language] = (byLanguage[language] ?? 0) + 1;
          return null;
        },
        (error: unknown) => ({ error }),
      );
    };
    for await (const item of readItems(countBytes(input.source))) {
      state.linesRead = Math.max(state.linesRead, item.line);
      const result = checkItem(item, input.mapping ?? null);
      if (!result.ok) {
        state.errorCount += 1;
        if (errors.length < MAX_LISTED_ERRORS) errors.push({ line: item.line, message: result.message });
      } else {
        state.valid += 1;
        // Once the file is known to be rejected, keep reading only to report every bad line.
        if (input.skipInvalid || state.errorCount === 0) batch.push({ ...result.record, line: item.line });
        if (batch.length >= BATCH_SIZE) await flush();
      }
      await reportProgress();
    }
    await flush();
    await settle();

    const ok = state.errorCount === 0 || input.skipInvalid;
    const summary: ImportSummary = {
      jobId: job.id,
      dataset: datasetName,
      ok,
      imported: ok ? state.imported : 0,
      duplicates: ok ? state.valid - state.imported : 0,
      skipped: input.skipInvalid ? state.errorCount : 0,
      errorCount: state.errorCount,
      errors,
      byLanguage: ok ? byLanguage : {},
    };
    if (ok && state.valid === 0) {
      summary.ok = false;
    }
    if (summary.ok) {
      await flushQuestionIndex(client);
      await writeDatasetAudit(client, {
        actorId: personIdOf(input.actor),
        action: "dataset.import",
        targetType: "Dataset",
        targetId: datasetId,
        after: {
          origin: input.origin,
          fileName: input.fileName ?? null,
          // Named only when there was one, so an AutoCodeBench import's audit row is as it always was.
          ...(input.mapping ? { mapping: input.mapping.name } : {}),
          imported: summary.imported,
          duplicates: summary.duplicates,
          skipped: summary.skipped,
        },
      });
    } else {
      await client.query("ROLLBACK TO SAVEPOINT records");
    }
    // The outcome commits with the records (or with nothing), so a crash never leaves a job that imported data looking failed.
    await client.query(
      `UPDATE "ImportJob" SET status = $2::"JobStatus", "datasetId" = $3, "linesRead" = $4, "bytesRead" = $5, imported = $6, duplicates = $7, skipped = $8,
         errors = $9::jsonb, "byLanguage" = $10::jsonb, message = $11, "finishedAt" = now()
       WHERE id = $1`,
      [
        job.id,
        summary.ok ? "SUCCEEDED" : "FAILED",
        summary.ok ? datasetId : null,
        state.linesRead,
        state.bytesRead,
        summary.imported,
        summary.duplicates,
        summary.skipped,
        JSON.stringify(errors.slice(0, 200)),
        JSON.stringify(summary.byLanguage),
        summary.ok
          ? null
          : state.valid === 0 && state.errorCount === 0
            ? "The file holds no records."
            : `${countOf(state.errorCount, "bad line")}; nothing was imported.`,
      ],
    );
    await client.query("COMMIT");
    committed = true;
    // A rejected file imported nothing, whatever the batches wrote before the rollback.
    state.imported = summary.imported;
    input.onProgress?.({
      linesRead: state.linesRead,
      bytesRead: state.bytesRead,
      bytesTotal: input.bytesTotal ?? null,
      imported: state.imported,
      errorCount: state.errorCount,
    });
    return summary;
  } catch (error) {
    if (!committed) await client.query("ROLLBACK").catch(() => {});
    await prisma()
      .importJob.update({
        where: { id: job.id },
        data: {
          status: "FAILED",
          message: error instanceof AppError ? error.message : "The import failed; nothing was imported.",
          finishedAt: new Date(),
        },
      })
      .catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** One read item, mapped when a mapping is given, then validated as an AutoCodeBench record. */
function checkItem(item: RawItem, mapping: FieldMapping | null): ValidateResult {
  if ("error" in item) return { ok: false, message: item.error };
  if (mapping === null) return validateRecord(item.value);
  const mapped = applyFieldMapping(mapping, item.value);
  return mapped.ok ? validateRecord(mapped.value) : mapped;
}

/**
 * A shipped mapping's name or a mapping's JSON text, checked; a bad one is INVALID_INPUT whose
 * `mapping` field error lists each bad path (`fields.full_test_func.1: …`). No scope: pure parsing.
 */
export function resolveImportMapping(nameOrJson: string): FieldMapping {
  try {
    return resolveFieldMapping(nameOrJson);
  } catch (error) {
    if (!(error instanceof z.ZodError)) throw error;
    const problems = error.issues.map((issue) =>
      issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message,
    );
    throw new AppError("INVALID_INPUT", `The mapping is invalid: ${problems.join("; ")}.`, { mapping: problems });
  }
}

export type ImportPreview = {
  records: (Omit<ParsedRecord, "critic"> & { line: number })[];
  errors: { line: number; message: string }[];
  /** True when the file holds more than the records and errors shown. */
  hasMore: boolean;
};

/**
 * Reads the first `limit` records of a file through the mapping (or as AutoCodeBench) and returns
 * them as they would be imported, or why each could not be; writes nothing. Scope: imports:write.
 */
export async function previewImport({
  actor,
  source,
  mapping,
  limit,
}: {
  actor: Actor | SystemActor;
  source: AsyncIterable<Uint8Array | string>;
  mapping: FieldMapping | null;
  limit: number;
}): Promise<ImportPreview> {
  assertCan(actor, "imports:write");
  const preview: ImportPreview = { records: [], errors: [], hasMore: false };
  for await (const item of readItems(source)) {
    if (preview.records.length + preview.errors.length >= limit) {
      preview.hasMore = true;
      break;
    }
    const result = checkItem(item, mapping);
    if (result.ok) {
      const { critic: _, ...record } = result.record;
      preview.records.push({ ...record, line: item.line });
    } else preview.errors.push({ line: item.line, message: result.message });
  }
  return preview;
}

/**
 * Merges the trigram index's pending list into the index before the import commits. Left pending,
 * up to 64 MB of entries would be scanned one by one by every question search until autovacuum
 * gets to them (a search at 100,000 records went from milliseconds to over 100 ms). Only the
 * index's owner may do this; a database user that is not (migrations run by another role) skips
 * it and leaves the merge to autovacuum.
 */
async function flushQuestionIndex(client: PoolClient): Promise<void> {
  await client.query("SAVEPOINT flush_question_index");
  try {
    await client.query(`SELECT gin_clean_pending_list('"Record_question_idx"'::regclass)`);
    await client.query("RELEASE SAVEPOINT flush_question_index");
  } catch {
    await client.query("ROLLBACK TO SAVEPOINT flush_question_index");
  }
}

async function upsertDataset(client: PoolClient, name: string): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO "Dataset" (id, name) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
    [`ds_${crypto.randomUUID().replaceAll("-", "")}`, name],
  );
  return rows[0].id;
}

/** Inserts a batch with one array-parameter statement; returns the languages of the rows that were new. */
async function insertBatch(
  client: PoolClient,
  datasetId: string,
  batch: (ParsedRecord & { line: number })[],
): Promise<string[]> {
  // Runs prisma/sql triggers/Record.Record_keep_evidence.sql (a new record's evidence reasons: none
  // yet) and triggers/Record.Record_count_evidence_insert.sql (nothing to count for a mask of 0).
  const { rows } = await client.query<{ id: number; key: string; language: string }>(
    `INSERT INTO "Record" ("datasetId", key, line, language, difficulty, question, "canonicalSolution", "demoTestFunc", "fullTestFunc", extra)
     SELECT $1, * FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::jsonb[])
     ON CONFLICT ("datasetId", key) DO NOTHING
     RETURNING id, key, language`,
    [
      datasetId,
      batch.map((r) => r.key),
      batch.map((r) => r.line),
      batch.map((r) => r.language),
      batch.map((r) => r.difficulty),
      batch.map((r) => r.question),
      batch.map((r) => r.canonicalSolution),
      batch.map((r) => r.demoTestFunc),
      batch.map((r) => r.fullTestFunc),
      batch.map((r) => JSON.stringify(r.extra)),
    ],
  );
  const criticByKey = new Map(batch.filter((r) => r.critic).map((r) => [r.key, r.critic!]));
  const critics = rows.flatMap((row) =>
    criticByKey.has(row.key) ? [{ recordId: row.id, verdict: criticByKey.get(row.key)! }] : [],
  );
  if (critics.length > 0) await upsertCritics(client, critics);
  return rows.map((row) => row.language);
}

/** Writes critic verdicts for records, replacing earlier ones. */
async function upsertCritics(
  client: PoolClient,
  critics: { recordId: number; verdict: CriticVerdict }[],
): Promise<void> {
  // SQL rules run by this insert, and by its ON CONFLICT update (prisma/sql):
  // triggers/CriticVerdict.*_{insert,update}.sql, running functions/verity_critics_changed.sql (the kept
  // final labels of the records' items) and verity_note_record_changes.sql (CampaignChange).
  await client.query(
    `INSERT INTO "CriticVerdict" ("recordId", "overallPass", "failedRules", rules, "keyPoints", reasoning, raw)
     SELECT "recordId", "overallPass", ARRAY(SELECT jsonb_array_elements_text("failedRules")), rules, ARRAY(SELECT jsonb_array_elements_text("keyPoints")), reasoning, raw
     FROM unnest($1::int[], $2::boolean[], $3::jsonb[], $4::jsonb[], $5::jsonb[], $6::text[], $7::text[])
       AS t("recordId", "overallPass", "failedRules", rules, "keyPoints", reasoning, raw)
     ON CONFLICT ("recordId") DO UPDATE SET "overallPass" = EXCLUDED."overallPass", "failedRules" = EXCLUDED."failedRules",
       rules = EXCLUDED.rules, "keyPoints" = EXCLUDED."keyPoints", reasoning = EXCLUDED.reasoning, raw = EXCLUDED.raw`,
    [
      critics.map((c) => c.recordId),
      critics.map((c) => c.verdict.overallPass),
      critics.map((c) => JSON.stringify(c.verdict.failedRules)),
      critics.map((c) => JSON.stringify(c.verdict.rules)),
      critics.map((c) => JSON.stringify(c.verdict.keyPoints)),
      critics.map((c) => c.verdict.reasoning),
      critics.map((c) => c.verdict.raw),
    ],
  );
}

/**
 * Marks FAILED every RUNNING import (or just `jobId`) whose importing session is gone, told by its
 * advisory lock being free; returns how many. Safe with any number of app instances on one database:
 * a live import anywhere holds its lock. Run at start-up and whenever a RUNNING job is read. No scope:
 * it only records what PostgreSQL already knows.
 */
export async function failInterruptedImports(jobId?: string): Promise<number> {
  // MATERIALIZED keeps the lock probe to RUNNING rows; the outer status check skips a job that finished meanwhile.
  // imported goes back to 0: progress counted rows of a transaction that never committed.
  const { rowCount } = await pgPool().query(
    `WITH running AS MATERIALIZED (SELECT id FROM "ImportJob" WHERE status = 'RUNNING' AND ($1::text IS NULL OR id = $1))
     UPDATE "ImportJob" SET status = 'FAILED', message = $2, imported = 0, "finishedAt" = now()
     WHERE status = 'RUNNING' AND id IN (SELECT id FROM running WHERE pg_try_advisory_xact_lock($3, hashtext(id)))`,
    [jobId ?? null, INTERRUPTED_MESSAGE, IMPORT_LOCK_CLASS],
  );
  return rowCount ?? 0;
}

const IMPORT_JOB_SELECT = {
  id: true,
  datasetName: true,
  fileName: true,
  source: true,
  status: true,
  linesRead: true,
  bytesRead: true,
  bytesTotal: true,
  imported: true,
  duplicates: true,
  skipped: true,
  errors: true,
  message: true,
  createdAt: true,
  finishedAt: true,
} as const;

/** An import job's state, for the upload page's progress and GET /api/v1/imports/{id}. Scope: imports:write. */
export async function findImportJob({ actor, jobId }: { actor: Actor; jobId: string }) {
  assertCan(actor, "imports:write");
  const find = () => prisma().importJob.findUnique({ where: { id: jobId }, select: IMPORT_JOB_SELECT });
  let job = await find();
  if (!job) throw new AppError("NOT_FOUND", "No such import.");
  if (job.status === "RUNNING" && (await failInterruptedImports(jobId)) > 0) job = (await find())!;
  return {
    ...job,
    bytesRead: Number(job.bytesRead),
    bytesTotal: job.bytesTotal === null ? null : Number(job.bytesTotal),
  };
}

/** The most recent imports, newest first, with why each failed. Scope: imports:write. */
export async function listImportJobs({ actor, limit = 10 }: { actor: Actor; limit?: number }) {
  assertCan(actor, "imports:write");
  await failInterruptedImports();
  const jobs = await prisma().importJob.findMany({
    orderBy: { createdAt: "desc" },
    take: limit,
    select: IMPORT_JOB_SELECT,
  });
  return jobs.map((job) => ({
    ...job,
    bytesRead: Number(job.bytesRead),
    bytesTotal: job.bytesTotal === null ? null : Number(job.bytesTotal),
  }));
}

export type CriticImportSummary = {
  dataset: string;
  ok: boolean;
  attached: number;
  errorCount: number;
  errors: { line: number; message: string }[];
};

/**
 * Attaches a separate critic file to a dataset's records, each line keyed by the record's source
 * line number or its content hash. All or nothing, like importRecords. Scope: imports:write.
 */
export async function importCriticFile({
  actor,
  datasetName,
  source,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  source: AsyncIterable<Uint8Array | string>;
}): Promise<CriticImportSummary> {
  assertCan(actor, "imports:write");
  const dataset = await prisma().dataset.findUnique({ where: { name: datasetName }, select: { id: true } });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${datasetName}".`);
  const errors: CriticImportSummary["errors"] = [];
  let errorCount = 0;
  let attached = 0;
  const fail = (line: number, message: string) => {
    errorCount += 1;
    if (errors.length < MAX_LISTED_ERRORS) errors.push({ line, message });
  };
  const client = await pgPool().connect();
  try {
    await client.query("BEGIN");
    let batch: { line: number; recordLine: number | null; key: string | null; verdict: CriticVerdict }[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const { rows } = await client.query<{ id: number; line: number; key: string }>(
        `SELECT id, line, key FROM "Record" WHERE "datasetId" = $1 AND (line = ANY($2::int[]) OR key = ANY($3::text[]))`,
        [
          dataset.id,
          batch.flatMap((b) => (b.recordLine === null ? [] : [b.recordLine])),
          batch.flatMap((b) => (b.key === null ? [] : [b.key])),
        ],
      );
      // A dataset filled from several files has several records per line number; such a line is ambiguous.
      const byLine = new Map<number, number[]>();
      for (const row of rows) byLine.set(row.line, [...(byLine.get(row.line) ?? []), row.id]);
      const byKey = new Map(rows.map((row) => [row.key, row.id]));
      const critics: { recordId: number; verdict: CriticVerdict }[] = [];
      for (const entry of batch) {
        const candidates =
          entry.key !== null
            ? [byKey.get(entry.key)].filter((id) => id !== undefined)
            : (byLine.get(entry.recordLine!) ?? []);
        if (candidates.length === 1) critics.push({ recordId: candidates[0], verdict: entry.verdict });
        else if (candidates.length > 1)
          fail(
            entry.line,
            `line ${entry.recordLine} matches ${countOf(candidates.length, "record")} in "${datasetName}" (it was imported from several files); address them by "key"`,
          );
        else
          fail(
            entry.line,
            entry.key !== null
              ? `no record with hash ${entry.key.slice(0, 12)}… in "${datasetName}"`
              : `no record from line ${entry.recordLine} in "${datasetName}"`,
          );
      }
      if (critics.length > 0 && errorCount === 0) await upsertCritics(client, critics);
      attached += critics.length;
      batch = [];
    };
    for await (const item of readItems(source)) {
      if ("error" in item) {
        fail(item.line, item.error);
        continue;
      }
      const parsed = parseCriticLine(item.value);
      if (!parsed.ok) fail(item.line, parsed.message);
      else
        batch.push({ line: item.line, recordLine: parsed.line ?? item.line, key: parsed.key, verdict: parsed.verdict });
      if (batch.length >= BATCH_SIZE) await flush();
    }
    await flush();
    const ok = errorCount === 0 && attached > 0;
    if (ok) {
      await writeDatasetAudit(client, {
        actorId: personIdOf(actor),
        action: "dataset.import-critic",
        targetType: "Dataset",
        targetId: dataset.id,
        after: { attached },
      });
    }
    await client.query(ok ? "COMMIT" : "ROLLBACK");
    return { dataset: datasetName, ok, attached: ok ? attached : 0, errorCount, errors };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
