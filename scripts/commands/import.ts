import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { basename } from "node:path";

import { SingleBar } from "cli-progress";
import type { Command } from "commander";

import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { importCriticFile, importRecords, resolveImportMapping } from "@/lib/server/imports/imports";

import { endCommand } from "./exit";
import { exitWithError, usageError, withDatabase } from "./with-database";
import { countOf } from "@/lib/format/count";

function openFile(file: string) {
  if (!existsSync(file) || !statSync(file).isFile()) usageError(`no such file: ${file}`);
  return { stream: createReadStream(file), size: statSync(file).size };
}

/** `--mapping NAME` picks a shipped mapping; a path to a .json file gives one's JSON. A bad one is a usage error. */
function loadMapping(nameOrFile: string | undefined) {
  if (nameOrFile === undefined) return null;
  const isFile = nameOrFile.endsWith(".json") || nameOrFile.includes("/");
  if (isFile && !existsSync(nameOrFile)) usageError(`no such mapping file: ${nameOrFile}`);
  try {
    return resolveImportMapping(isFile ? readFileSync(nameOrFile, "utf8") : nameOrFile);
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
}

function formatLanguages(byLanguage: Record<string, number>): string {
  return Object.entries(byLanguage)
    .sort(([, a], [, b]) => b - a)
    .map(([language, count]) => `${language} ${count}`)
    .join(", ");
}

/** Registers `verity import` and `verity import-critic`. Exit codes: 0 ok, 1 invalid input (nothing written), 2 usage. */
export function registerImportCommands(program: Command): void {
  program
    .command("import")
    .argument("<file>", "JSONL or JSON array, optionally gzipped")
    .requiredOption("--dataset <name>", "dataset to import into (created when new)")
    .option("--skip-invalid", "import the valid records and list the skipped ones", false)
    .option(
      "--mapping <name|file.json>",
      "read another benchmark's format: humaneval, mbpp, humaneval-x, or a mapping file (docs/features.md: Importing other benchmarks)",
    )
    .option("--json", "print one JSON summary object as the last line", false)
    .description("Import benchmark records into a dataset.")
    .action(
      async (file: string, options: { dataset: string; skipInvalid: boolean; mapping?: string; json: boolean }) => {
        const mapping = loadMapping(options.mapping);
        const { stream, size } = openFile(file);
        const bar =
          !options.json && process.stderr.isTTY
            ? new SingleBar({
                format: "Importing [{bar}] {percentage}% | {lines} lines | {imported} new",
                stream: process.stderr,
              })
            : null;
        bar?.start(size, 0, { lines: 0, imported: 0 });
        const summary = await withDatabase(() =>
          importRecords({
            actor: SYSTEM_ACTOR.cli,
            datasetName: options.dataset,
            source: stream,
            skipInvalid: options.skipInvalid,
            origin: "cli",
            fileName: basename(file),
            bytesTotal: size,
            mapping,
            onProgress: (progress) =>
              bar?.update(progress.bytesRead, { lines: progress.linesRead, imported: progress.imported }),
          }),
        ).catch((error: unknown) => {
          bar?.stop();
          return exitWithError(error);
        });
        bar?.stop();
        const errors = summary.errors.map(({ line, message }) => ({ line, message }));
        if (options.json) {
          console.log(
            JSON.stringify({
              dataset: summary.dataset,
              imported: summary.imported,
              duplicates: summary.duplicates,
              skipped: summary.skipped,
              errors,
              byLanguage: summary.byLanguage,
            }),
          );
        } else {
          for (const { line, message } of errors) console.error(`line ${line}: ${message}`);
          if (summary.errorCount > errors.length)
            console.error(`… and ${summary.errorCount - errors.length} more bad lines`);
          if (summary.ok) {
            console.log(
              `Imported ${countOf(summary.imported, "record")} into "${summary.dataset}" (${summary.duplicates} already there${summary.skipped ? `, ${summary.skipped} skipped` : ""}).`,
            );
            if (summary.imported) console.log(`By language: ${formatLanguages(summary.byLanguage)}`);
          } else if (summary.errorCount === 0) {
            console.error("The file holds no records; nothing was imported.");
          } else {
            console.error(
              `${countOf(summary.errorCount, "bad line")}: nothing was imported. Fix them, or pass --skip-invalid to import the valid records.`,
            );
          }
        }
        endCommand(summary.ok ? 0 : 1);
      },
    );

  program
    .command("import-critic")
    .argument("<file>", "JSONL: one critic verdict a line, keyed by `line` or `key`/`hash`")
    .requiredOption("--dataset <name>", "dataset whose records the verdicts belong to")
    .option("--json", "print one JSON summary object as the last line", false)
    .description("Attach a separate critic file to a dataset's records.")
    .action(async (file: string, options: { dataset: string; json: boolean }) => {
      const { stream } = openFile(file);
      const summary = await withDatabase(() =>
        importCriticFile({ actor: SYSTEM_ACTOR.cli, datasetName: options.dataset, source: stream }),
      ).catch((error: unknown) => exitWithError(error));
      if (options.json) console.log(JSON.stringify(summary));
      else {
        for (const { line, message } of summary.errors) console.error(`line ${line}: ${message}`);
        console.log(
          summary.ok
            ? `Attached ${summary.attached} critic verdicts to "${summary.dataset}".`
            : "Nothing was attached.",
        );
      }
      endCommand(summary.ok ? 0 : 1);
    });
}
