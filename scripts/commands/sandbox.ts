import { readFile } from "node:fs/promises";

import cliProgress from "cli-progress";
import { type Command, InvalidArgumentError } from "commander";

import { config } from "@/lib/server/config";
import { normalizeLanguage } from "@/lib/records/languages";
import { runConformance, type LanguageConformance } from "@/lib/server/sandbox/conformance";
import { runSteadily } from "@/lib/server/sandbox/steady";
import { runDoctor, type LanguageReport } from "@/lib/server/sandbox/doctor";
import { createSandboxRouter, type SandboxLanguage, type SandboxResult } from "@/lib/server/sandbox/index";
import type { VersionSkew } from "@/lib/server/sandbox/reference-versions";

import { CommandExit, endCommand } from "./exit";

function parseLanguage(value: string): SandboxLanguage {
  const language = normalizeLanguage(value);
  if (!language) throw new InvalidArgumentError(`unknown language "${value}"`);
  return language;
}

function parseTimeout(value: string): number {
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 100 || ms > 600_000) {
    throw new InvalidArgumentError("expected milliseconds between 100 and 600000");
  }
  return ms;
}

function parseFraction(value: string): number {
  const fraction = Number(value);
  if (!(fraction >= 0 && fraction <= 1)) throw new InvalidArgumentError("expected a number between 0 and 1");
  return fraction;
}

function makeRouter() {
  return createSandboxRouter(config().sandbox);
}

async function readSource(command: Command, path: string, what: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    return command.error(`cannot read ${what} ${path}: ${(error as Error).message}`, { exitCode: 2 });
  }
}

function percent(value: number | null): string {
  return value === null ? "—" : `${(value * 100).toFixed(1)}%`;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}

function printTable(rows: string[][]): void {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows)
    console.log(
      row
        .map((cell, column) => pad(cell, widths[column]))
        .join("  ")
        .trimEnd(),
    );
}

/** The `run --json` shape: the normalised result without the request's language. */
function runJson(result: SandboxResult) {
  const { language: _language, ...shown } = result;
  return shown;
}

function finish(code: 0 | 1): never {
  return endCommand(code);
}

function fail(error: unknown): never {
  if (error instanceof CommandExit) throw error;
  console.error(`error: ${(error as Error).message}`);
  return finish(1);
}

const SKEW_LABELS: Record<VersionSkew, string> = { same: "same", older: "OLDER", newer: "newer", unknown: "?" };

function languageLine(report: LanguageReport): string[] {
  const status = !report.toolchainFound
    ? "missing"
    : report.works
      ? "ok"
      : report.works === false
        ? "FAILS"
        : "not tried";
  return [
    report.language,
    report.backend,
    report.toolchainFound ? "yes" : "no",
    status,
    report.version ?? "",
    report.reference.reference,
    SKEW_LABELS[report.reference.skew],
    (report.detail ?? report.reference.note ?? "").split("\n")[0].slice(0, 160),
  ];
}

/** Registers `verity sandbox doctor|run|conformance`. */
export function registerSandboxCommands(program: Command): void {
  const sandbox = program.command("sandbox").description("Run code in the sandbox and check the toolchains.");

  sandbox
    .command("doctor")
    .description("Check isolation (bubblewrap, user, cgroups) and, per language, the toolchain inside the sandbox.")
    .option("--json", "print the report as one JSON object")
    .action(async (options: { json?: boolean }) => {
      try {
        const report = await runDoctor(makeRouter());
        if (options.json) {
          console.log(JSON.stringify(report));
        } else {
          const iso = report.isolation;
          console.log(`isolation: ${iso.mode}${iso.works ? " (works)" : " (NOT WORKING)"}`);
          console.log(`  bwrap:   ${iso.bwrapPath ?? "not found"}`);
          console.log(`  prlimit: ${iso.prlimitPath ?? "not found"}`);
          console.log(`  user:    ${iso.user ?? "current user"}`);
          console.log(`  cgroup:  ${iso.cgroup}`);
          console.log(`  job folder: ${iso.jobFolder}`);
          if (iso.detail) console.log(`  detail:  ${iso.detail}`);
          console.log("");
          printTable([
            ["language", "route", "toolchain", "sandbox", "version", "reference image", "skew", "detail"],
            ...report.languages.map(languageLine),
          ]);
          console.log("");
          printTable([
            ["language", "library", "here", "reference image", "skew"],
            ...report.languages.flatMap((language) =>
              language.libraries.map((library) => [
                language.language,
                library.name,
                library.local ?? "MISSING",
                library.reference,
                library.skew === "missing" ? "MISSING" : SKEW_LABELS[library.skew],
              ]),
            ),
          ]);
        }
        const isBroken = !report.isolation.works || report.languages.some((item) => item.works === false);
        finish(isBroken ? 1 : 0);
      } catch (error) {
        fail(error);
      }
    });

  sandbox
    .command("run")
    .description("Splice a solution and a test and run them.")
    .requiredOption("--language <language>", "language id or alias", parseLanguage)
    .requiredOption("--solution <file>", "solution source file")
    .requiredOption("--test <file>", "test source file")
    .option("--timeout <ms>", "base timeout per step (the language allowance is added)", parseTimeout)
    .option("--json", "print the normalised result as one JSON object")
    .action(async function (
      this: Command,
      options: { language: SandboxLanguage; solution: string; test: string; timeout?: number; json?: boolean },
    ) {
      const solution = await readSource(this, options.solution, "solution");
      const test = await readSource(this, options.test, "test");
      try {
        const result = await makeRouter().run({
          language: options.language,
          solution,
          test,
          timeoutMs: options.timeout,
        });
        if (options.json) {
          console.log(JSON.stringify(runJson(result)));
        } else {
          console.log(`outcome:  ${result.outcome}`);
          console.log(`backend:  ${result.backend}`);
          console.log(`exit:     ${result.exitCode ?? "—"}${result.signal ? ` (${result.signal})` : ""}`);
          console.log(
            `time:     ${result.timeMs} ms${result.memoryKb !== null ? `, memory ${result.memoryKb} kB` : ""}`,
          );
          if (result.limit) console.log(`limit:    ${result.limit}`);
          if (result.compileOutput) console.log(`--- compile output\n${result.compileOutput}`);
          console.log(`--- stdout${result.stdoutTruncated ? " (truncated)" : ""}\n${result.stdout}`);
          console.log(`--- stderr${result.stderrTruncated ? " (truncated)" : ""}\n${result.stderr}`);
        }
        finish(result.outcome === "PASSED" ? 0 : 1);
      } catch (error) {
        fail(error);
      }
    });

  sandbox
    .command("conformance")
    .description("Run the conformance cases of DIR/*.jsonl and compare with the reference outcomes.")
    .argument("<dir>", "folder of <language>.jsonl case files")
    .option("--language <language>", "only this language", parseLanguage)
    .option(
      "--timeout <ms>",
      "base timeout per step (default 30000, as the reference's evaluation tools)",
      parseTimeout,
    )
    .option("--min-agreement <fraction>", "exit 1 when a language's PASSED agreement is below this", parseFraction)
    .option("--json", "end with one JSON summary object on the last line")
    .action(
      async (
        dir: string,
        options: { language?: SandboxLanguage; timeout?: number; minAgreement?: number; json?: boolean },
      ) => {
        const router = makeRouter();
        const bar = new cliProgress.SingleBar(
          { stream: process.stderr, format: "{language} [{bar}] {value}/{total}", hideCursor: true },
          cliProgress.Presets.shades_classic,
        );
        const isInteractive = Boolean(process.stderr.isTTY);
        let current: SandboxLanguage | null = null;
        try {
          const report = await runConformance({
            dir,
            language: options.language,
            // As batch verification judges: a time limit under load is run again alone, by CPU time.
            run: (request) => runSteadily(request, router.run),
            // Only the languages that have cases (or the one asked for) are probed.
            availability: (language) => router.availabilityOf(language),
            timeoutMs: options.timeout,
            concurrency: router.config.concurrency,
            onProgress: (progress) => {
              if (!isInteractive) return;
              if (current !== progress.language) {
                if (current) bar.stop();
                current = progress.language;
                bar.start(progress.total, 0, { language: progress.language });
              }
              bar.update(progress.done, { language: progress.language });
            },
          });
          if (current) bar.stop();
          const entries = Object.values(report.languages) as LanguageConformance[];
          if (options.json) {
            for (const entry of entries) {
              for (const mismatch of entry.mismatches)
                console.log(JSON.stringify({ language: entry.language, mismatch }));
            }
            const languages = Object.fromEntries(
              entries.map((entry) => [
                entry.language,
                {
                  cases: entry.cases,
                  ran: entry.ran,
                  passAgreement: entry.passAgreement,
                  exactAgreement: entry.exactAgreement,
                  unavailable: entry.unavailable,
                },
              ]),
            );
            console.log(JSON.stringify({ languages }));
          } else {
            printTable([
              ["language", "cases", "ran", "PASSED agreement", "exact agreement", "note"],
              ...entries.map((entry) => [
                entry.language,
                String(entry.cases),
                String(entry.ran),
                percent(entry.passAgreement),
                percent(entry.exactAgreement),
                entry.unavailable ? `unavailable: ${entry.unavailable}` : "",
              ]),
            ]);
            for (const entry of entries) {
              for (const mismatch of entry.mismatches) {
                console.log(`\n${mismatch.id}: expected ${mismatch.expected}, got ${mismatch.got}`);
                if (mismatch.stderrHead) console.log(`  ${mismatch.stderrHead.split("\n").slice(0, 6).join("\n  ")}`);
              }
            }
          }
          const minimum = options.minAgreement;
          const isBelow = entries.some((entry) => entry.passAgreement !== null && entry.passAgreement < (minimum ?? 0));
          finish(isBelow ? 1 : 0);
        } catch (error) {
          if (current) bar.stop();
          fail(error);
        }
      },
    );
}
