import { createWriteStream, renameSync, rmSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

import type { Command } from "commander";

import { reportToCsv, reportToMarkdown } from "@/lib/reports/format";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { exportCampaign, findCampaignIdByName } from "@/lib/server/reports/exports";
import { getDatasetDawidSkene } from "@/lib/server/reports/dawid-skene";
import { getCampaignReport, getDatasetReport } from "@/lib/server/reports/reports";

import { endCommand } from "./exit";
import { assertOutputFolder, exitWithError, usageError, withDatabase } from "./with-database";

async function campaignId(name: string): Promise<string> {
  const id = await findCampaignIdByName(name);
  if (!id) {
    console.error(`error: no campaign named "${name}"`);
    return endCommand(1);
  }
  return id;
}

/** Registers `verity report` and `verity export`. */
export function registerReportCommands(program: Command): void {
  program
    .command("report")
    .option("--campaign <name>", "campaign to report on")
    .option(
      "--dataset <name>",
      "dataset to report on, across its campaigns (a record counts once, with its strongest label)",
    )
    .option("--format <format>", "md, csv or json", "md")
    .option("--json", "the same as --format json")
    .option(
      "--model <model>",
      "with --dataset and JSON: the Dawid–Skene section's model, two-coin (sensitivity and specificity) or one-coin",
      "two-coin",
    )
    .description(
      "Print the validity report of a campaign or a dataset (per language, with 95% intervals). A dataset's JSON also carries a Dawid–Skene estimate (`dawidSkene`) beside the rule-based figures.",
    )
    .action(async (options: { campaign?: string; dataset?: string; format: string; json?: boolean; model: string }) => {
      if (options.json) options.format = "json";
      if (!["md", "csv", "json"].includes(options.format)) usageError("--format must be md, csv or json");
      if (options.model !== "two-coin" && options.model !== "one-coin")
        usageError("--model must be two-coin or one-coin");
      const model = options.model;
      if (!options.campaign === !options.dataset) usageError("give either --campaign or --dataset");
      const { report, note } = await withDatabase(async () => {
        if (options.campaign) {
          const campaignReport = await getCampaignReport({
            actor: SYSTEM_ACTOR.cli,
            campaignId: await campaignId(options.campaign),
          });
          return { report: campaignReport, note: campaignReport.sampling.note };
        }
        const datasetReport = await getDatasetReport({ actor: SYSTEM_ACTOR.cli, datasetName: options.dataset! });
        const note = `${datasetReport.rule} ${datasetReport.sampling.note}`;
        if (options.format !== "json") return { report: datasetReport, note };
        const dawidSkene = await getDatasetDawidSkene({
          actor: SYSTEM_ACTOR.cli,
          datasetName: options.dataset!,
          model,
        });
        return { report: { ...datasetReport, dawidSkene }, note };
      }).catch((error: unknown) => exitWithError(error));
      process.stdout.write(
        options.format === "json"
          ? `${JSON.stringify(report, null, 2)}\n`
          : options.format === "csv"
            ? reportToCsv(report)
            : reportToMarkdown(report, { note }),
      );
    });

  program
    .command("export")
    .requiredOption("--campaign <name>", "campaign to export")
    .requiredOption(
      "--what <what>",
      "labels (one row per item), annotations (one row per annotation) or verified (the final-Valid records in the input format)",
    )
    .requiredOption("--out <file>", "file to write (JSONL; .csv writes labels or annotations as CSV)")
    .description("Export a campaign's labels or its verified subset.")
    .action(async (options: { campaign: string; what: string; out: string }) => {
      if (!["labels", "annotations", "verified"].includes(options.what))
        usageError("--what must be labels, annotations or verified");
      const format = options.out.endsWith(".csv") ? "csv" : "jsonl";
      if (format === "csv" && options.what === "verified")
        usageError("the verified subset is JSONL in the input format; use a .jsonl file");
      assertOutputFolder(options.out);
      // Written next to the target and renamed at the end: a failed export never leaves half a file.
      const partial = `${options.out}.partial`;
      await withDatabase(async () => {
        const id = await campaignId(options.campaign);
        try {
          await pipeline(
            Readable.from(
              exportCampaign({
                actor: SYSTEM_ACTOR.cli,
                campaignId: id,
                what: options.what as "labels" | "annotations" | "verified",
                format,
              }),
            ),
            createWriteStream(partial),
          );
          renameSync(partial, options.out);
        } catch (error) {
          rmSync(partial, { force: true });
          throw error;
        }
      }).catch((error: unknown) => exitWithError(error));
      console.error(`Wrote ${options.out}`);
    });
}
