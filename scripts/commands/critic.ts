import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

import { SingleBar } from "cli-progress";
import type { Command } from "commander";

import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { controlCriticRun, startCriticRun, startCriticWorkers } from "@/lib/server/critics/jobs";
import { getDatasetCriticCalibration } from "@/lib/server/critics/calibration";
import { type CriticRunProgress, getCriticRunProgress, saveCritic } from "@/lib/server/critics/critics";
import { stopBoss } from "@/lib/server/workers/boss";
import { saveCriticSchema, startCriticRunSchema } from "@/lib/validation/critics";

import { endCommand } from "./exit";
import { exitWithError, usageError, withDatabase } from "./with-database";
import { countOf } from "@/lib/format/count";

function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number)) usageError(`${name} must be a number, got "${value}"`);
  return number;
}

function parseOrExit<T>(
  result:
    { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
): T {
  if (result.success) return result.data;
  usageError(result.error.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`).join("; "));
}

/** One JSON line a run ends with. */
function runSummary(progress: CriticRunProgress) {
  return {
    runId: progress.runId,
    critic: progress.critic,
    version: progress.version,
    status: progress.status,
    records: progress.total,
    parsed: progress.parsed,
    unreadable: progress.unreadable,
    pass: progress.pass,
    fail: progress.fail,
    errored: progress.errored,
    promptTokens: progress.promptTokens,
    completionTokens: progress.completionTokens,
    ...(progress.stopReason ? { stopReason: progress.stopReason } : {}),
  };
}

/** Registers `verity critic add | run | pause | resume | cancel | calibration`. */
export function registerCriticCommands(program: Command): void {
  const critic = program
    .command("critic")
    .description("LLM critics on OpenAI-compatible endpoints: define, run, calibrate.");

  critic
    .command("add")
    .requiredOption("--name <name>", "the critic's name")
    .requiredOption("--base-url <url>", "the endpoint's base URL, e.g. https://api.openai.com/v1")
    .requiredOption("--model <model>", "the model to ask")
    .option(
      "--api-key-env <var>",
      "the variable the workers read the API key from (its name starts with VERITY_CRITIC_KEY_)",
    )
    .option(
      "--prompt <file>",
      "a prompt template file ({{question}}, {{solution}}, {{demo_test}}, {{full_test}}, {{language}}, {{rules}}); default: Verity's",
    )
    .option("--temperature <t>", "sampling temperature", "0")
    .option("--max-tokens <n>", "most tokens per reply", "2048")
    .option("--concurrency <n>", "requests at once", "4")
    .option("--timeout-ms <ms>", "per-request timeout", "60000")
    .option("--json", "print one JSON object as the last line", false)
    .description(
      "Create a critic, or update one: a changed prompt or model becomes a new version once the old one was used.",
    )
    .action(
      async (options: {
        name: string;
        baseUrl: string;
        model: string;
        apiKeyEnv?: string;
        prompt?: string;
        temperature: string;
        maxTokens: string;
        concurrency: string;
        timeoutMs: string;
        json: boolean;
      }) => {
        let template: string | undefined;
        if (options.prompt) {
          try {
            template = readFileSync(options.prompt, "utf8");
          } catch {
            usageError(`cannot read ${options.prompt}`);
          }
        }
        const input = parseOrExit(
          saveCriticSchema.safeParse({
            name: options.name,
            baseUrl: options.baseUrl,
            model: options.model,
            apiKeyEnv: options.apiKeyEnv,
            template,
            temperature: numberOption(options.temperature, "--temperature"),
            maxTokens: numberOption(options.maxTokens, "--max-tokens"),
            concurrency: numberOption(options.concurrency, "--concurrency"),
            timeoutMs: numberOption(options.timeoutMs, "--timeout-ms"),
          }),
        );
        const saved = await withDatabase(() => saveCritic({ actor: SYSTEM_ACTOR.cli, input })).catch((error: unknown) =>
          exitWithError(error),
        );
        if (options.json) console.log(JSON.stringify(saved));
        else
          console.log(
            `${saved.createdCritic ? "Created" : "Updated"} critic "${saved.name}", version ${saved.version}${saved.createdVersion && !saved.createdCritic ? " (new)" : ""}.`,
          );
      },
    );

  critic
    .command("run")
    .requiredOption("--dataset <name>", "dataset whose records to judge")
    .requiredOption("--critic <name>", "critic to run (its newest version)")
    .option("--language <language>", "only this language")
    .option("--campaign <id>", "only this campaign's sample")
    .option("--json", "print one JSON summary object as the last line", false)
    .description(
      "Ask the critic about every record it has no verdict for (a stopped run resumes); ends with records, parsed, unreadable, pass, fail.",
    )
    .action(
      async (options: { dataset: string; critic: string; language?: string; campaign?: string; json: boolean }) => {
        const input = parseOrExit(
          startCriticRunSchema.safeParse({
            critic: options.critic,
            dataset: options.dataset,
            language: options.language,
            campaignId: options.campaign,
          }),
        );
        const progress = await withDatabase(async () => {
          try {
            const run = await startCriticRun({
              actor: SYSTEM_ACTOR.cli,
              criticName: input.critic,
              datasetName: input.dataset,
              language: input.language,
              campaignId: input.campaignId,
            });
            if (!options.json)
              console.error(
                `${run.resumed ? "Resuming" : "Starting"} version ${run.version} over ${countOf(run.total, "record")}.`,
              );
            await startCriticWorkers(1);
            const bar =
              !options.json && process.stderr.isTTY
                ? new SingleBar({
                    format:
                      "Judging [{bar}] {value}/{total} | pass {pass} | fail {fail} | unreadable {unreadable} | errored {errored}",
                    stream: process.stderr,
                  })
                : null;
            bar?.start(run.total, 0, { pass: 0, fail: 0, unreadable: 0, errored: 0 });
            let current: CriticRunProgress;
            for (;;) {
              current = await getCriticRunProgress({ actor: SYSTEM_ACTOR.cli, runId: run.runId });
              bar?.update(current.done, current);
              if (current.status !== "RUNNING") break;
              await sleep(500);
            }
            bar?.stop();
            return current;
          } finally {
            await stopBoss(10_000);
          }
        }).catch((error: unknown) => exitWithError(error));
        if (options.json) console.log(JSON.stringify(runSummary(progress)));
        else
          console.log(
            `${progress.status}: ${countOf(progress.total, "record")}, ${progress.parsed} parsed (${progress.pass} pass, ${progress.fail} fail), ${progress.unreadable} unreadable, ${progress.errored} errored; ${countOf(progress.promptTokens + progress.completionTokens, "token")}.`,
          );
        if (progress.stopReason) console.error(`error: ${progress.stopReason}`);
        endCommand(progress.status === "FAILED" ? 1 : 0);
      },
    );

  for (const action of ["pause", "resume", "cancel"] as const) {
    critic
      .command(action)
      .argument("<run>", "the run's id (printed by `critic run --json`)")
      .description(`${action[0].toUpperCase()}${action.slice(1)} a critic run.`)
      .action(async (runId: string) => {
        const status = await withDatabase(() => controlCriticRun({ actor: SYSTEM_ACTOR.cli, runId, action }))
          .catch((error: unknown) => exitWithError(error))
          .finally(() => stopBoss(5_000));
        console.log(JSON.stringify({ runId, status }));
      });
  }

  critic
    .command("calibration")
    .requiredOption("--dataset <name>", "dataset whose campaigns' final labels to compare with")
    .option("--json", "print one JSON object", false)
    .description(
      "Per critic version, against people's final labels: n, precision, recall, F1, κ and accuracy for 'invalid', per language and per rule.",
    )
    .action(async (options: { dataset: string; json: boolean }) => {
      const calibration = await withDatabase(() =>
        getDatasetCriticCalibration({ actor: SYSTEM_ACTOR.cli, datasetName: options.dataset }),
      ).catch((error: unknown) => exitWithError(error));
      if (options.json) {
        console.log(JSON.stringify(calibration));
      } else {
        const show = (value: number | null) => (value === null ? "  —  " : value.toFixed(3));
        console.log(`${calibration.items} final labels (${calibration.provenance.blind} from blind campaigns).`);
        for (const version of calibration.versions) {
          const f = version.invalid;
          console.log(
            `${`${version.critic} v${version.version}`.padEnd(24)} n ${String(f.n).padStart(5)}  precision ${show(f.precision.value)}  recall ${show(f.recall.value)}  F1 ${show(f.f1)}  κ ${show(f.kappa)}  accuracy ${show(f.accuracy.value)}  unreadable ${version.unreadable}`,
          );
        }
      }
    });
}
