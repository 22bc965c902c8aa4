// Dawid–Skene at the bench:queue scale: 100,000 records, 300,000 labels (three per record) from
// 60 annotators of mixed reliability, 5% of records with a gold answer; the fit of both models and
// the per-language bootstrap the report adds. Pure computation: the SQL read of the labels is
// measured with the report benchmarks, not here.
//   npm run bench:dawid-skene [-- --records 100000 --runs 3 --no-write --json]
import { parseArgs } from "node:util";

import { fitDawidSkene, type LabelMatrix, validityWithInterval } from "@/lib/metrics/dawid-skene";
import { seededRandom } from "@/lib/metrics/random";

import { BENCH_OPTIONS, describeMachine, machineLine, startBenchRun, uptime, writeBenchmarkSection } from "./common";

const { values: options } = parseArgs({
  options: {
    records: { type: "string", default: "100000" },
    runs: { type: "string", default: "3" },
    "no-write": { type: "boolean", default: false },
    ...BENCH_OPTIONS,
  },
});
const benchRun = startBenchRun("bench:dawid-skene", options);
const RECORDS = Number(options.records);
const PER_RECORD = 3;
const ANNOTATORS = 60;
const LANGUAGES = 20;
const RUNS = Number(options.runs);
if (!Number.isInteger(RECORDS) || RECORDS < LANGUAGES || RECORDS % LANGUAGES !== 0)
  throw new Error(`--records must be a positive multiple of ${LANGUAGES}, got ${options.records}`);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a positive integer, got ${options.runs}`);

function syntheticLabels(): LabelMatrix {
  const random = seededRandom(20_261_201);
  const reliability = Array.from({ length: ANNOTATORS }, () => ({
    sensitivity: 0.55 + 0.4 * random(),
    specificity: 0.7 + 0.29 * random(),
  }));
  const n = RECORDS * PER_RECORD;
  const matrix: LabelMatrix = {
    itemCount: RECORDS,
    raterCount: ANNOTATORS,
    labelItem: new Int32Array(n),
    labelRater: new Int32Array(n),
    labelValid: new Uint8Array(n),
    known: new Int8Array(RECORDS).fill(-1),
  };
  for (let record = 0, k = 0; record < RECORDS; record++) {
    const isValid = random() < 0.87;
    if (random() < 0.05) matrix.known[record] = isValid ? 1 : 0;
    for (let label = 0; label < PER_RECORD; label++, k++) {
      const rater = Math.floor(random() * ANNOTATORS);
      const { sensitivity, specificity } = reliability[rater];
      matrix.labelItem[k] = record;
      matrix.labelRater[k] = rater;
      matrix.labelValid[k] = (isValid ? random() < specificity : random() >= sensitivity) ? 1 : 0;
    }
  }
  return matrix;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const matrix = syntheticLabels();
const byLanguage = Array.from({ length: LANGUAGES }, (_, language) =>
  Array.from({ length: RECORDS / LANGUAGES }, (_, index) => index * LANGUAGES + language),
);
const rows: string[] = [];
const figures: Record<string, { fitP50: number; totalP50: number; totalMax: number }> = {};
for (const model of ["two-coin", "one-coin"] as const) {
  const fits: number[] = [];
  const bootstraps: number[] = [];
  let iterations = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const fit = fitDawidSkene(matrix, model);
    const fitted = performance.now();
    for (const items of byLanguage) validityWithInterval(fit.pValid, items);
    validityWithInterval(fit.pValid, byLanguage.flat());
    bootstraps.push(performance.now() - fitted);
    fits.push(fitted - started);
    iterations = fit.iterations;
  }
  const total = fits.map((fit, run) => fit + bootstraps[run]);
  figures[model] = {
    fitP50: Math.round(median(fits)),
    totalP50: Math.round(median(total)),
    totalMax: Math.round(Math.max(...total)),
  };
  rows.push(
    `| ${model} | ${iterations} | ${median(fits).toFixed(0)} | ${median(bootstraps).toFixed(0)} | ${median(total).toFixed(0)} | ${Math.max(...total).toFixed(0)} |`,
  );
}

const section = [
  "## Dawid–Skene at 100,000 records / 300,000 labels",
  "",
  `\`npm run bench:dawid-skene\`, ${new Date().toISOString().slice(0, 10)}. ${machineLine(describeMachine("—"))} ${uptime()}.`,
  "",
  `Synthetic labels: ${RECORDS.toLocaleString("en")} records × ${PER_RECORD} labels from ${ANNOTATORS} annotators of mixed reliability, 5% gold; the fit, then the report's per-language validity with its bootstrap interval (1,000 resamples up to 1,000 records, the normal limit above) for ${LANGUAGES} languages and overall. Median and maximum of ${RUNS} runs, in ms. The SQL read of the labels is not included.`,
  "",
  "| model | EM iterations | fit p50 | bootstrap p50 | total p50 | total max |",
  "|---|---|---|---|---|---|",
  ...rows,
  "",
].join("\n");
if (!options["no-write"]) writeBenchmarkSection("## Dawid–Skene at 100,000 records / 300,000 labels", section);
console.log(section);
benchRun.finish({ records: RECORDS, ...figures });
