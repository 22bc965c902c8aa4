import { existsSync, readFileSync, statSync } from "node:fs";

import type { Command } from "commander";

import { importGoldAnswers } from "@/lib/server/gold/gold";
import { MAX_GOLD_FILE_BYTES } from "@/lib/validation/gold";

import { endCommand } from "./exit";
import { usageError, withDatabase } from "./with-database";

/** Registers `verity gold import`. Exit codes: 0 ok, 1 invalid input (nothing written), 2 usage. */
export function registerGoldCommands(program: Command): void {
  const gold = program
    .command("gold")
    .description("Gold answers: records' known verdicts, mixed into campaigns to measure annotators.");
  gold
    .command("import")
    .argument("<file>", "JSONL or CSV: key or id, verdict (valid|invalid), categories, note")
    .requiredOption("--dataset <name>", "dataset whose records the answers belong to")
    .description("Import gold answers into a dataset, all or nothing.")
    .action(async (file: string, options: { dataset: string }) => {
      if (!existsSync(file) || !statSync(file).isFile()) usageError(`no such file: ${file}`);
      if (statSync(file).size > MAX_GOLD_FILE_BYTES)
        usageError(`the file is larger than ${MAX_GOLD_FILE_BYTES / 1024 / 1024} MB`);
      const text = readFileSync(file, "utf8");
      try {
        const summary = await withDatabase(() =>
          importGoldAnswers({ actor: null, datasetName: options.dataset, text }),
        );
        console.log(`Imported ${summary.imported} gold answers into "${summary.dataset}".`);
      } catch (error) {
        const lines = (error as { fieldErrors?: { file?: string[] } }).fieldErrors?.file;
        console.error(`error: ${error instanceof Error ? error.message.split(". line")[0] : String(error)}`);
        for (const line of lines ?? []) console.error(line);
        endCommand(1);
      }
    });
}
