import "server-only";

import { readItems } from "@/lib/records/reader";
import { NO_CODE } from "@/lib/solvers/outcomes";
import {
  describeFileErrors,
  readSolutionLine,
  resolveSolutionLines,
  type SolutionFileError,
  type SolutionLine,
  type SolutionRecord,
} from "@/lib/solvers/solutions-file";
import { writeAudit } from "@/lib/server/audit/audit";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { AppError } from "@/lib/server/errors";
import { findDataset } from "@/lib/server/solvers/queries";

const MAX_LISTED_ERRORS = 50;
const LOOKUP_CHUNK = 1000;
const WRITE_CHUNK = 500;

export type SolutionImportOrigin = "cli" | "web" | "api" | "demo";
export type SolutionImportSummary = {
  dataset: string;
  batchId: string;
  /** Solutions stored (new or replacing the same model's earlier solution for a record). */
  imported: number;
  /** Of them, replies that held no code: stored as not solved, not run. */
  withoutCode: number;
  /** Solutions queued to run. */
  toRun: number;
  models: string[];
};

/** The refusal of a bad file: a summary, and each problem once with its lines, "lines 1–14: …" (at most MAX_LISTED_ERRORS). */
function solutionFileRefusal(errors: SolutionFileError[]): AppError {
  const { listed: lines, isCut } = describeFileErrors(errors, MAX_LISTED_ERRORS);
  const more = isCut ? `; the first ${MAX_LISTED_ERRORS} problems are listed` : "";
  return new AppError(
    "INVALID_INPUT",
    `Nothing imported: ${errors.length} bad line${errors.length === 1 ? "" : "s"}${more}.`,
    { file: lines },
  );
}

/**
 * The one import path of model outputs (CLI, REST, upload page): reads the file (JSONL or a JSON
 * array, optionally gzipped), checks every line and looks its record up in the dataset, and stores
 * the solutions all or nothing — any bad line refuses the file (INVALID_INPUT naming each line).
 * A record's solution from a model replaces that model's earlier one, results cleared. Opens a
 * solution batch holding them; the caller queues its runs. Scope: imports:write.
 */
export async function importSolutions({
  actor,
  datasetName,
  source,
  defaultModel,
  origin,
  fileName,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  source: AsyncIterable<Uint8Array | string>;
  defaultModel: string | null;
  origin: SolutionImportOrigin;
  fileName?: string | null;
}): Promise<SolutionImportSummary> {
  assertCan(actor, "imports:write");
  const dataset = await findDataset(actor, datasetName);
  const model = defaultModel?.trim() || null;
  const lines: SolutionLine[] = [];
  for await (const item of readItems(source)) {
    if ("error" in item) lines.push({ line: item.line, key: null, model: null, source: null, problems: [item.error] });
    else lines.push(readSolutionLine(item.line, item.value, model));
  }
  const keys = [...new Set(lines.flatMap((line) => (line.key ? [line.key] : [])))];
  const records = new Map<string, SolutionRecord>();
  for (let start = 0; start < keys.length; start += LOOKUP_CHUNK) {
    const found = await prisma().record.findMany({
      where: { datasetId: dataset.id, key: { in: keys.slice(start, start + LOOKUP_CHUNK) } },
      select: { id: true, key: true, language: true, canonicalSolution: true },
    });
    for (const { key, ...record } of found) records.set(key, record);
  }
  const { solutions, errors } = resolveSolutionLines(lines, {
    datasetName: dataset.name,
    recordOf: (key) => records.get(key),
  });
  if (errors.length > 0) throw solutionFileRefusal(errors);

  const models = [...new Set(solutions.map((solution) => solution.model))].sort();
  const withoutCode = solutions.filter((solution) => solution.code.trim() === "").length;
  const toRun = solutions.length - withoutCode;
  const batchId = await prisma().$transaction(
    async (tx) => {
      const batch = await tx.solutionBatch.create({
        data: {
          datasetId: dataset.id,
          origin,
          fileName: fileName ?? null,
          models,
          total: solutions.length,
          // A reply with no code is decided at once: not solved, nothing to run.
          done: withoutCode,
          failed: withoutCode,
          status: toRun === 0 ? "SUCCEEDED" : "RUNNING",
          finishedAt: toRun === 0 ? new Date() : null,
          createdById: personIdOf(actor),
        },
        select: { id: true },
      });
      for (let start = 0; start < solutions.length; start += WRITE_CHUNK) {
        const rows = solutions.slice(start, start + WRITE_CHUNK).map((solution) => ({
          recordId: solution.recordId,
          model: solution.model,
          code: solution.code,
          reply: solution.reply,
          noCode: solution.code.trim() === "",
        }));
        // SQL rules run by this insert, and by its ON CONFLICT update (prisma/sql):
        // triggers/Solution.Solution_note_changes_{insert,update}.sql, running
        // functions/verity_note_record_changes.sql (CampaignChange).
        await tx.$executeRaw`
          INSERT INTO "Solution" (id, "recordId", model, code, reply, "batchId", outcome, passed, "ranAt")
          SELECT 'sol_' || replace(gen_random_uuid()::text, '-', ''), x."recordId", x.model, x.code, x.reply, ${batch.id},
                 CASE WHEN x."noCode" THEN ${NO_CODE} END, CASE WHEN x."noCode" THEN false END, CASE WHEN x."noCode" THEN now() END
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x("recordId" int, model text, code text, reply text, "noCode" boolean)
          ON CONFLICT ("recordId", model) DO UPDATE SET code = EXCLUDED.code, reply = EXCLUDED.reply, "batchId" = EXCLUDED."batchId",
            outcome = EXCLUDED.outcome, passed = EXCLUDED.passed, "ranAt" = EXCLUDED."ranAt",
            "demoOutcome" = NULL, "fullOutcome" = NULL, detail = NULL, "timeMs" = NULL`;
      }
      await writeAudit(tx, {
        actorId: personIdOf(actor),
        action: "dataset.solutions.import",
        targetType: "Dataset",
        targetId: dataset.id,
        after: { origin, fileName: fileName ?? null, imported: solutions.length, models },
      });
      return batch.id;
    },
    { timeout: 120_000 },
  );
  return { dataset: dataset.name, batchId, imported: solutions.length, withoutCode, toRun, models };
}
