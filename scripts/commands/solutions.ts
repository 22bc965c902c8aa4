import { createReadStream, existsSync, statSync } from "node:fs";
import { basename } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import { SingleBar } from "cli-progress";
import type { Command } from "commander";

import { passAtOneByModel } from "@/lib/metrics/solvers";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { getSolutionBatchProgress, type SolutionBatchProgress, solverCounts } from "@/lib/server/solvers/solutions";
import { importAndRunSolutions } from "@/lib/server/solvers/jobs";
import { startVerificationWorkers, stopVerificationWorkers } from "@/lib/server/verification/jobs";

import { endCommand } from "./exit";
import { exitWithError, usageError, withDatabase } from "./with-database";
import { countOf } from "@/lib/format/count";

function percent(value: number | null): string {
  return value === null ? "—" : `${(value * 100).toFixed(1)}%`;
}

/** A refused file's bad lines as {line, message} (the AppError lists them as "line N: …"). */
function badLines(error: unknown): { line: number; message: string }[] {
  const lines = (error as { fieldErrors?: { file?: string[] } }).fieldErrors?.file ?? [];
  return lines.map((text) => {
    const match = /^line (\d+): ([\s\S]*)$/.exec(text);
    return match ? { line: Number(match[1]), message: match[2] } : { line: 0, message: text };
  });
}

/** Registers `verity solutions import`. Exit codes: 0 ok, 1 refused file or failed run (nothing imported), 2 usage. */
export function registerSolutionCommands(program: Command): void {
  const solutions = program
    .command("solutions")
    .description("Solver results: model outputs run against each record's tests (k of n, pass@1).");
  solutions
    .command("import")
    .argument(
      "<file>",
      'JSONL or JSON array (optionally gzipped): {"key", "model", "code"|"output"} lines, or AutoCodeBench result lines',
    )
    .requiredOption("--dataset <name>", "dataset whose records the solutions answer")
    .option("--model <name>", "the model of lines that do not name one (AutoCodeBench result lines)")
    .option("--json", "print one JSON summary object as the last line", false)
    .description(
      "Import model outputs (all or nothing), run each against its record's demo and full tests, print pass@1.",
    )
    .action(async (file: string, options: { dataset: string; model?: string; json: boolean }) => {
      if (!existsSync(file) || !statSync(file).isFile()) usageError(`no such file: ${file}`);
      const outcome = await withDatabase(async () => {
        let summary;
        try {
          summary = await importAndRunSolutions({
            actor: SYSTEM_ACTOR.cli,
            datasetName: options.dataset,
            source: createReadStream(file),
            defaultModel: options.model ?? null,
            origin: "cli",
            fileName: basename(file),
          });
        } catch (error) {
          return { refused: error };
        }
        if (!options.json)
          console.error(
            `Imported ${countOf(summary.imported, "solution")} from ${countOf(summary.models.length, "model")}; running ${summary.toRun}.`,
          );
        let progress: SolutionBatchProgress;
        try {
          if (summary.toRun > 0) await startVerificationWorkers();
          const bar =
            !options.json && process.stderr.isTTY
              ? new SingleBar({
                  format:
                    "Running [{bar}] {value}/{total} | passed {passed} | failed {failed} | unavailable {unavailable}",
                  stream: process.stderr,
                })
              : null;
          bar?.start(summary.imported, 0, { passed: 0, failed: 0, unavailable: 0 });
          for (;;) {
            progress = await getSolutionBatchProgress({ actor: SYSTEM_ACTOR.cli, batchId: summary.batchId });
            bar?.update(progress.done, progress);
            if (progress.status !== "RUNNING") break;
            await sleep(500);
          }
          bar?.stop();
        } finally {
          await stopVerificationWorkers();
        }
        const table = passAtOneByModel(await solverCounts({ actor: SYSTEM_ACTOR.cli, datasetName: options.dataset }));
        return { summary, progress, table };
      }).catch((error: unknown) => exitWithError(error));

      if ("refused" in outcome) {
        const error = outcome.refused;
        const lines = badLines(error);
        const message = error instanceof Error ? error.message : String(error);
        if (options.json) console.log(JSON.stringify({ ok: false, message, errors: lines }));
        else {
          console.error(`error: ${message}`);
          for (const { line, message: text } of lines) console.error(`line ${line}: ${text}`);
        }
        endCommand(1);
      }
      const { summary, progress, table } = outcome;
      if (options.json) {
        console.log(
          JSON.stringify({
            ok: progress.status === "SUCCEEDED",
            dataset: summary.dataset,
            batchId: summary.batchId,
            imported: summary.imported,
            withoutCode: summary.withoutCode,
            models: summary.models,
            run: {
              status: progress.status,
              passed: progress.passed,
              failed: progress.failed,
              unavailable: progress.unavailable,
              errored: progress.errored,
              ...(progress.stopReason ? { stopReason: progress.stopReason } : {}),
            },
            passAtOne: table.map(({ model, attempted, solved, passAtOne, byLanguage }) => ({
              model,
              attempted,
              solved,
              passAtOne,
              byLanguage: Object.fromEntries(
                Object.entries(byLanguage).map(([language, figures]) => [
                  language,
                  { attempted: figures.attempted, solved: figures.solved, passAtOne: figures.passAtOne },
                ]),
              ),
            })),
          }),
        );
      } else {
        for (const model of table) {
          console.log(`\n${model.model}: pass@1 ${percent(model.passAtOne)} (${model.solved}/${model.attempted})`);
          console.log(`${"Language".padEnd(12)} ${"Total".padStart(6)} ${"Success".padStart(8)} ${"Rate".padStart(7)}`);
          for (const [language, figures] of Object.entries(model.byLanguage))
            console.log(
              `${language.padEnd(12)} ${String(figures.attempted).padStart(6)} ${String(figures.solved).padStart(8)} ${percent(figures.passAtOne).padStart(7)}`,
            );
        }
        if (progress.stopReason) console.error(`error: ${progress.stopReason}`);
      }
      endCommand(progress.status === "SUCCEEDED" ? 0 : 1);
    });
}
