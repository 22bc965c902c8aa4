import { setTimeout as sleep } from "node:timers/promises";

import { SingleBar } from "cli-progress";
import type { Command } from "commander";
import { z } from "zod";

import { DEFAULT_REPEAT, MAX_REPEAT } from "@/lib/evidence/flaky";
import { DEFAULT_MUTANTS, MAX_MUTANTS } from "@/lib/evidence/mutation";
import { normalizeLanguage } from "@/lib/records/languages";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { type EvidenceProgress, getEvidenceProgress, summarizeEvidenceBatch } from "@/lib/server/evidence/batches";
import { startEvidence } from "@/lib/server/evidence/jobs";
import { startVerificationWorkers, stopVerificationWorkers } from "@/lib/server/verification/jobs";

import { endCommand } from "./exit";
import { reportQueuedAhead } from "./queued-ahead";
import { exitWithError, usageError, withDatabase } from "./with-database";
import { countOf } from "@/lib/format/count";

/** Below this mutation score a record's tests count as weak in the summary (the issue's default). */
const WEAK_BELOW = 0.5;

const countOption = (name: string, max: number) =>
  z.coerce
    .number()
    .int(`--${name} takes a whole number`)
    .min(0, `--${name} takes 0 to ${max}`)
    .max(max, `--${name} takes 0 to ${max}`);

/** Registers `verity evidence` (mutation and flakiness evidence through in-process workers). */
export function registerEvidenceCommand(program: Command): void {
  program
    .command("evidence")
    .requiredOption("--dataset <name>", "dataset to collect evidence for")
    .option("--language <language>", "only this language")
    .option(
      "--mutants <n>",
      `mutants per record (0: no mutation analysis; at most ${MAX_MUTANTS})`,
      String(DEFAULT_MUTANTS),
    )
    .option(
      "--repeat <k>",
      `runs of each test for the flakiness check (0: none; at most ${MAX_REPEAT})`,
      String(DEFAULT_REPEAT),
    )
    .option("--json", "print one JSON summary object as the last line", false)
    .description(
      "Measure each record's test strength (mutants of its canonical solution its tests should reject) and whether its tests are flaky (outcomes that differ between runs).",
    )
    .action(async (options: { dataset: string; language?: string; mutants: string; repeat: string; json: boolean }) => {
      const language = options.language
        ? (normalizeLanguage(options.language) ?? usageError(`unknown language "${options.language}"`))
        : undefined;
      const mutants = countOption("mutants", MAX_MUTANTS).safeParse(options.mutants);
      const repeat = countOption("repeat", MAX_REPEAT).safeParse(options.repeat);
      if (!mutants.success) usageError(mutants.error.issues[0].message);
      if (!repeat.success) usageError(repeat.error.issues[0].message);
      if (repeat.data === 1) usageError("--repeat 1 cannot tell a flaky test: use 0 (none) or 2 or more");
      const startedAt = Date.now();
      const { summary, progress } = await withDatabase(async () => {
        try {
          const batch = await startEvidence({
            actor: SYSTEM_ACTOR.cli,
            datasetName: options.dataset,
            language,
            mutants: mutants.data,
            repeat: repeat.data,
          });
          if (!options.json)
            console.error(
              `${batch.resumed ? "Resuming" : "Starting"} evidence collection: ${countOf(batch.total, "record task")} (${batch.tasks.join(", ")})${language ? ` for ${language}` : ""}.`,
            );
          await startVerificationWorkers();
          const bar =
            !options.json && process.stderr.isTTY
              ? new SingleBar({
                  format: "Evidence [{bar}] {value}/{total} | errored {errored}",
                  stream: process.stderr,
                })
              : null;
          bar?.start(batch.total, 0, { errored: 0 });
          let progress: EvidenceProgress;
          let lastReported = -1;
          const sayQueuedAhead = reportQueuedAhead();
          for (;;) {
            progress = await getEvidenceProgress({ actor: SYSTEM_ACTOR.cli, batchId: batch.batchId });
            bar?.update(progress.done, { errored: progress.errored });
            if (!bar && !options.json) sayQueuedAhead(progress.queuedAhead);
            if (!bar && !options.json && progress.done !== lastReported) {
              console.error(`${progress.done}/${countOf(progress.total, "record task")} done`);
              lastReported = progress.done;
            }
            if (progress.status !== "RUNNING") break;
            await sleep(500);
          }
          bar?.stop();
          const summary = await summarizeEvidenceBatch({
            actor: SYSTEM_ACTOR.cli,
            batchId: batch.batchId,
            weakBelow: WEAK_BELOW,
          });
          return { summary, progress };
        } finally {
          await stopVerificationWorkers();
        }
      }).catch((error: unknown) => exitWithError(error));
      const stopReason = progress.status === "FAILED" ? (progress.stopReason ?? "the batch failed") : null;
      const result = {
        dataset: options.dataset,
        batchId: progress.batchId,
        language: language ?? null,
        mutantsPerRecord: mutants.data,
        repeat: repeat.data,
        weakBelow: WEAK_BELOW,
        seconds: Math.round((Date.now() - startedAt) / 100) / 10,
        errored: progress.errored,
        ...summary,
        ...(stopReason ? { stopReason } : {}),
      };
      if (options.json) console.log(JSON.stringify(result));
      else {
        for (const [name, counts] of Object.entries(summary.byLanguage).sort()) {
          console.log(
            `${name.padEnd(12)} ${String(counts.mutants).padStart(5)} mutants  ${String(counts.stillborn).padStart(5)} stillborn  ${String(counts.measured).padStart(5)} measured  ${String(counts.weak).padStart(5)} weak tests  ${String(counts.flaky).padStart(5)} flaky`,
          );
        }
        console.log(
          `mean score ${summary.meanScore === null ? "—" : summary.meanScore.toFixed(2)} over ${countOf(summary.measured, "record")}; ${summary.weak} with weak tests (score < ${WEAK_BELOW}); ${summary.flaky} flaky of ${summary.flaky + summary.stable} checked.`,
        );
      }
      if (stopReason) console.error(`error: ${stopReason}`);
      endCommand(stopReason ? 1 : 0);
    });
}
