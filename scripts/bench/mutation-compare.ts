// `bench:mutation -- --compare`: mutant runs per minute on the demo's records, each mutant a program
// of its own against the record's mutants switched in one program per test (mutant schemata), on the
// same records in one run. No database: the records are read from prisma/demo/demo.jsonl and run
// through the process's sandbox as the evidence workers run them, two records at a time (the
// batch's two workers), each record both ways in turn. Per language: the time each way, its rate,
// the ratio, and whether every mutant's outcomes came out the same both ways.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import type { MutationResult, RecordToProbe } from "@/lib/server/evidence/batches";

import { writeBenchmarkSection } from "./common";

type Way = "alone" | "switched";
type LanguageFigures = {
  records: number;
  mutantRuns: number;
  seconds: Record<Way, number>;
  perMinute: Record<Way, number>;
  ratio: number;
  scoresIdentical: boolean;
};
export type Comparison = {
  perLanguage: Record<string, LanguageFigures>;
  overall: number;
  scoresIdentical: boolean;
};

const WORKERS = 2;
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** Runs `work` over `items`, `WORKERS` at a time, in order of start. */
async function inPool<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(WORKERS, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]);
      }
    }),
  );
  return results;
}

/** One line per mutant: its position and both outcomes, what the score is made of. */
const outcomesOf = (result: MutationResult) =>
  result.mutants.map((mutant) => `${mutant.position}:${mutant.demoOutcome}/${mutant.fullOutcome}`).join(" ");

/** Test runs the mutants took: a demo run each, and a full run for those the demo did not settle. */
const mutantRunsOf = (result: MutationResult) =>
  result.mutants.reduce((sum, mutant) => sum + 1 + (mutant.fullOutcome === null ? 0 : 1), 0);

export async function compareMutationWays({
  mutants,
  languages,
  isWriting,
  load,
}: {
  mutants: number;
  languages: string[] | null;
  isWriting: boolean;
  load: () => string;
}): Promise<Comparison> {
  const { analyseMutants } = await import("@/lib/server/evidence/jobs");
  const { runInSandbox, runSwitchedInSandbox, getSandboxRouter } = await import("@/lib/server/sandbox");
  const { normalizeLanguage } = await import("@/lib/records/languages");
  const rows = readFileSync(join("prisma", "demo", "demo.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, string>);
  const byLanguage = new Map<string, RecordToProbe[]>();
  rows.forEach((row, index) => {
    const language = normalizeLanguage(row.language);
    if (!language || (languages && !languages.includes(language))) return;
    const record: RecordToProbe = {
      id: index + 1,
      language,
      canonicalSolution: row.canonical_solution,
      demoTestFunc: row.demo_test_func,
      fullTestFunc: row.full_test_func,
      executableValid: null,
    };
    byLanguage.set(language, [...(byLanguage.get(language) ?? []), record]);
  });

  const perLanguage: Record<string, LanguageFigures> = {};
  for (const [language, records] of byLanguage) {
    const availability = await getSandboxRouter().availabilityOf(language as never);
    if (!availability.available) {
      console.error(`  ${language}: cannot run here (${availability.reason}); left out`);
      continue;
    }
    // Not timed: only records whose canonical solution passes both tests have mutants to measure.
    const measurable = (
      await inPool(records, async (record) => {
        for (const test of [record.demoTestFunc, record.fullTestFunc]) {
          const run = await runInSandbox({
            language: record.language as never,
            solution: record.canonicalSolution,
            test,
          });
          if (run.outcome !== "PASSED") return null;
        }
        return { ...record, executableValid: true };
      })
    ).filter((record) => record !== null);
    if (measurable.length === 0) {
      console.error(`  ${language}: no record's solution passes its tests; left out`);
      continue;
    }
    // Both ways on each record one after the other, the order alternating from record to record, so a
    // load that rises or falls during the run weighs on both alike. A way's time is the sum of its
    // records' times over the two workers (its wall time had the workers been busy throughout).
    const both = await inPool(
      measurable.map((record, index) => ({ record, isAloneFirst: index % 2 === 0 })),
      async ({ record, isAloneFirst }) => {
        const timedWay = async (way: Way) => {
          const started = performance.now();
          const result = await analyseMutants(record, mutants, {
            run: runInSandbox,
            runSwitched: way === "switched" ? runSwitchedInSandbox : null,
          });
          return { result, seconds: (performance.now() - started) / 1000 };
        };
        const first = await timedWay(isAloneFirst ? "alone" : "switched");
        const second = await timedWay(isAloneFirst ? "switched" : "alone");
        return isAloneFirst ? { alone: first, switched: second } : { alone: second, switched: first };
      },
    );
    const wayOf = (way: Way) => ({
      results: both.map((each) => each[way].result),
      seconds: both.reduce((sum, each) => sum + each[way].seconds, 0) / Math.min(WORKERS, both.length),
    });
    const alone = wayOf("alone");
    const switched = wayOf("switched");
    const mutantRuns = alone.results.reduce((sum, result) => sum + mutantRunsOf(result), 0);
    const identical = alone.results.every(
      (result, index) => outcomesOf(result) === outcomesOf(switched.results[index]),
    );
    const perMinute = {
      alone: round((mutantRuns / alone.seconds) * 60, 1),
      switched: round((mutantRuns / switched.seconds) * 60, 1),
    };
    const switchedShare = switched.results.flatMap((result) => result.mutants);
    perLanguage[language] = {
      records: measurable.length,
      mutantRuns,
      seconds: { alone: round(alone.seconds, 1), switched: round(switched.seconds, 1) },
      perMinute,
      ratio: round(alone.seconds / switched.seconds),
      scoresIdentical: identical,
    };
    console.error(
      `  ${language}: ${measurable.length} records, ${mutantRuns} mutant runs; alone ${alone.seconds.toFixed(1)} s ` +
        `(${perMinute.alone}/min), switched ${switched.seconds.toFixed(1)} s (${perMinute.switched}/min): ` +
        `${perLanguage[language].ratio}×; ${switchedShare.filter((mutant) => mutant.isSwitched).length} of ` +
        `${switchedShare.length} mutants switched; outcomes ${identical ? "identical" : "DIFFER"}; load ${load()}`,
    );
    if (!identical) {
      alone.results.forEach((result, index) => {
        if (outcomesOf(result) !== outcomesOf(switched.results[index]))
          console.error(
            `    record ${measurable[index].id}: alone ${outcomesOf(result)}\n      switched ${outcomesOf(switched.results[index])}`,
          );
      });
    }
  }
  const figures = Object.values(perLanguage);
  const total = (way: Way) => figures.reduce((sum, each) => sum + each.seconds[way], 0);
  const comparison: Comparison = {
    perLanguage,
    overall: round(total("alone") / total("switched")),
    scoresIdentical: figures.every((each) => each.scoresIdentical),
  };
  if (isWriting) writeComparison(comparison, mutants, load());
  return comparison;
}

function writeComparison(comparison: Comparison, mutants: number, load: string): void {
  const rows = Object.entries(comparison.perLanguage).map(
    ([language, each]) =>
      `| ${language} | ${each.records} | ${each.mutantRuns} | ${each.seconds.alone} s | ${each.perMinute.alone} | ` +
      `${each.seconds.switched} s | ${each.perMinute.switched} | ${each.ratio}× | ${each.scoresIdentical ? "yes" : "no"} |`,
  );
  writeBenchmarkSection(
    "## Mutant runs per minute, each mutant alone and switched (issue 36)",
    [
      "## Mutant runs per minute, each mutant alone and switched (issue 36)",
      "",
      `\`npm run bench:mutation -- --compare\`, ${mutants} mutants a record, the demo's records whose solution passes`,
      `its tests, two at a time; load ${load}. "Alone": each mutant a program of its own (one compile per`,
      `mutant and test); "switched": the record's mutants in one program per test (mutant schemata). Each record ran both ways in turn, the order alternating, and a way's time is its records' times over the two workers.`,
      "",
      "| language | records | mutant runs | alone | runs/min | switched | runs/min | ratio | outcomes identical |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---|",
      ...rows,
      "",
      `Over all languages: ${comparison.overall}×; every mutant's outcomes identical both ways: ${comparison.scoresIdentical ? "yes" : "no"}.`,
      "",
    ].join("\n"),
  );
}
