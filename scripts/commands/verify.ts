import { setTimeout as sleep } from "node:timers/promises";

import { SingleBar } from "cli-progress";
import type { Command } from "commander";

import { MAX_REPEAT } from "@/lib/evidence/flaky";
import { normalizeLanguage } from "@/lib/records/languages";
import { startVerificationSchema } from "@/lib/validation/records";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { failInterruptedImports } from "@/lib/server/imports/imports";
import {
  getVerificationProgress,
  verificationByLanguage,
  type VerificationProgress,
} from "@/lib/server/verification/batches";
import { startCriticWorkers } from "@/lib/server/critics/jobs";
import { startVerification, startVerificationWorkers, stopVerificationWorkers } from "@/lib/server/verification/jobs";

import { endCommand } from "./exit";
import { reportQueuedAhead } from "./queued-ahead";
import { exitWithError, usageError, withDatabase } from "./with-database";
import { countOf } from "@/lib/format/count";

/** Registers `verity verify` (batch verification with in-process workers) and `verity worker`. */
export function registerVerifyCommands(program: Command): void {
  program
    .command("verify")
    .requiredOption("--dataset <name>", "dataset to verify")
    .option("--language <language>", "only this language")
    .option("--force", "rerun records that were already verified", false)
    .option(
      "--repeat <k>",
      `also run each record's tests K more times (2–${MAX_REPEAT}), each alone, and mark the flaky ones`,
    )
    .option("--json", "print one JSON summary object as the last line", false)
    .description(
      "Run every record's canonical solution against its demo and full tests; mark executable-valid records.",
    )
    .action(async (options: { dataset: string; language?: string; force: boolean; repeat?: string; json: boolean }) => {
      const language = options.language
        ? (normalizeLanguage(options.language) ?? usageError(`unknown language "${options.language}"`))
        : undefined;
      const repeat =
        options.repeat === undefined
          ? undefined
          : startVerificationSchema.shape.repeat.safeParse(Number(options.repeat));
      if (repeat && !repeat.success) usageError(`--repeat: ${repeat.error.issues[0].message}`);
      const { byLanguage, stopReason, flaky } = await withDatabase(async () => {
        try {
          const batch = await startVerification({
            actor: SYSTEM_ACTOR.cli,
            datasetName: options.dataset,
            language,
            force: options.force,
            repeat: repeat?.data,
          });
          if (!options.json)
            console.error(
              `${batch.resumed ? "Resuming" : "Starting"} verification of ${countOf(batch.total, "record")}${language ? ` (${language})` : ""}.`,
            );
          await startVerificationWorkers();
          const bar =
            !options.json && process.stderr.isTTY
              ? new SingleBar({
                  format:
                    "Verifying [{bar}] {value}/{total} | valid {valid} | failed {failed} | environment {environment} | unavailable {unavailable} | errored {errored} | flaky {flaky}",
                  stream: process.stderr,
                })
              : null;
          bar?.start(batch.total, 0, { valid: 0, failed: 0, environment: 0, unavailable: 0, errored: 0, flaky: 0 });
          let progress: VerificationProgress;
          const sayQueuedAhead = reportQueuedAhead();
          for (;;) {
            progress = await getVerificationProgress({ actor: SYSTEM_ACTOR.cli, batchId: batch.batchId });
            if (!bar && !options.json) sayQueuedAhead(progress.queuedAhead);
            bar?.update(progress.done, {
              valid: progress.executableValid,
              failed: progress.failed,
              environment: progress.environmentFailed,
              unavailable: progress.unavailable,
              errored: progress.errored,
              flaky: progress.flaky,
            });
            if (progress.status !== "RUNNING") break;
            await sleep(500);
          }
          bar?.stop();
          return {
            byLanguage: await verificationByLanguage({
              actor: SYSTEM_ACTOR.cli,
              datasetName: options.dataset,
              language,
            }),
            stopReason: progress.status === "FAILED" ? (progress.stopReason ?? "the batch failed") : null,
            // Only a batch asked to repeat runs knows which records are flaky.
            flaky: progress.repeat > 0 ? { repeat: progress.repeat, records: progress.flaky } : null,
          };
        } finally {
          await stopVerificationWorkers();
        }
      }).catch((error: unknown) => exitWithError(error));
      if (options.json) {
        console.log(
          JSON.stringify({
            dataset: options.dataset,
            byLanguage,
            ...(flaky ? { flaky } : {}),
            ...(stopReason ? { stopReason } : {}),
          }),
        );
      } else {
        for (const [name, counts] of Object.entries(byLanguage).sort()) {
          console.log(
            `${name.padEnd(12)} ${String(counts.records).padStart(6)} records  ${String(counts.executableValid).padStart(6)} executable-valid  ${String(counts.failed).padStart(6)} failed  ${String(counts.environment).padStart(6)} not run: environment  ${String(counts.unavailable).padStart(6)} unavailable here  ${String(counts.notRun).padStart(6)} not run`,
          );
        }
        if (flaky) console.log(`${flaky.records} flaky records (tests run ${flaky.repeat} more times each, alone).`);
      }
      // A batch that stopped (the sandbox failed) is not a verification: say why and fail.
      if (stopReason) console.error(`error: ${stopReason}`);
      endCommand(stopReason ? 1 : 0);
    });

  program
    .command("worker")
    .description("Drain the verification and critic queues on this machine until stopped (for extra worker machines).")
    .action(async () => {
      await withDatabase(async () => {
        // Worker machines start after a crash too; only imports whose process is gone are touched.
        const interrupted = await failInterruptedImports();
        if (interrupted > 0) console.log(`Marked ${countOf(interrupted, "interrupted import")} as failed.`);
        const ids = await startVerificationWorkers();
        // The same machine works on critic runs too (each with its critic's own requests at once).
        await startCriticWorkers();
        console.log(
          `Verification worker running (${ids.length} at once). Stop with Ctrl+C; unfinished jobs are retried elsewhere.`,
        );
        await new Promise<void>((resolve) => {
          process.once("SIGINT", resolve);
          process.once("SIGTERM", resolve);
        });
        await stopVerificationWorkers();
      }).catch((error: unknown) => exitWithError(error));
    });
}
