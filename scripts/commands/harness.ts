import type { Command } from "commander";

import { harnessChoiceSchema, HARNESS_PROFILE_LANGUAGES } from "@/lib/records/harness";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { setDatasetHarness } from "@/lib/server/verification/harness";

import { exitWithError, usageError, withDatabase } from "./with-database";

/** Registers `verity harness`. Exit codes: 0 ok, 1 no such dataset, 2 usage (a bad choice too). */
export function registerHarnessCommand(program: Command): void {
  program
    .command("harness")
    .argument(
      "[choices...]",
      "language=profile, e.g. java=java-main go=go-testify; none: every language runs AutoCodeBench's rules",
    )
    .requiredOption("--dataset <name>", "dataset whose languages the choice is for")
    .description(
      `Choose the harness profile each language of a dataset runs with (${Object.keys(HARNESS_PROFILE_LANGUAGES).join(", ")}); replaces the whole choice.`,
    )
    .action(async (choices: string[], options: { dataset: string }) => {
      const pairs = choices.map((choice) => choice.split("="));
      if (pairs.some((pair) => pair.length !== 2)) usageError("give each choice as language=profile");
      const parsed = harnessChoiceSchema.safeParse(Object.fromEntries(pairs));
      if (!parsed.success)
        usageError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
      const saved = await withDatabase(() =>
        setDatasetHarness({ actor: SYSTEM_ACTOR.cli, datasetName: options.dataset, harness: parsed.data }),
      ).catch((error: unknown) => exitWithError(error));
      const chosen = Object.entries(saved.harness).map(([language, profile]) => `${language} runs ${profile}`);
      console.log(
        chosen.length
          ? `"${saved.dataset}": ${chosen.join(", ")}; the other languages run AutoCodeBench's rules.`
          : `"${saved.dataset}": every language runs AutoCodeBench's rules.`,
      );
    });
}
