// The end of `npm test` (scripts/test.sh): where the time went and whether every test passed.
//
//   node scripts/test-summary.mjs --stages test-reports/stages.tsv [report.json …]
//
// Prints each stage's wall time beside its budget (stages.tsv: name, seconds, budget, one stage a
// line; a line whose budget is "-" is a lane that ran side by side with others inside the stage
// above it: shown under it, without a budget, and not added to the total), the 15 slowest files of each tier from the Vitest and Playwright JSON reports given (each
// recognised by its shape), and one closing line: "Tests: N passed, N failed, N skipped". Exits 1
// when a test failed or a stage ran more than 50% over its budget.
import { existsSync, readFileSync } from "node:fs";
import { basename, relative } from "node:path";

const OVER_BUDGET = 1.5;
const SLOWEST = 15;

/** Stages as test.sh wrote them: { name, seconds, budget, lane }. */
function readStages(text) {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [name, seconds, budget] = line.split("\t");
      const lane = budget === "-";
      return { name: name.trim(), seconds: Number(seconds), budget: lane ? 0 : Number(budget), lane };
    });
}

/** The stages that ran more than 50% over their budget. */
function stagesOverBudget(stages) {
  return stages.filter((stage) => stage.budget > 0 && stage.seconds > stage.budget * OVER_BUDGET);
}

// A report's files by tier. Vitest's unit and sandbox projects share one report; the integration
// project has one report per PostgreSQL server.
const INTEGRATION_TIER = {
  "vitest-integration.json": "integration (embedded PostgreSQL 18)",
  "vitest-system-postgres.json": "integration (Debian's PostgreSQL)",
};

function vitestTier(reportFile, testFile) {
  if (testFile.endsWith(".sandbox.test.ts")) return "sandbox";
  if (testFile.endsWith(".cluster.test.ts")) return "cluster";
  if (testFile.endsWith(".int.test.ts")) return INTEGRATION_TIER[basename(reportFile)] ?? "integration";
  return "unit";
}

/**
 * Each file's time in a Vitest JSON report, by tier. The report times a file from its first test's
 * start to its last test's end, which leaves out its import and its beforeAll hooks; where a tier's
 * files ran one at a time and alone in their report, a file is timed from the end of the one before
 * (or the run's start) instead, so its import and hooks count too.
 */
function vitestFileTimes(reportFile, report) {
  const byTier = new Map();
  for (const result of report.testResults) {
    const tier = vitestTier(reportFile, result.name);
    if (!byTier.has(tier)) byTier.set(tier, []);
    byTier.get(tier).push(result);
  }
  const tiers = [];
  for (const [tier, results] of byTier) {
    const ordered = [...results].sort((a, b) => a.startTime - b.startTime);
    const isSerial = ordered.every((result, i) => i === 0 || result.startTime >= ordered[i - 1].endTime);
    const withSetup = isSerial && byTier.size === 1;
    const files = ordered.map((result, i) => ({
      file: relative(process.cwd(), result.name),
      ms: result.endTime - (withSetup ? (i === 0 ? report.startTime : ordered[i - 1].endTime) : result.startTime),
    }));
    tiers.push({ tier, withSetup, files });
  }
  return tiers;
}

/** Each spec file's time in a Playwright JSON report: the sum of its tests' runs (hooks and fixtures included). */
function playwrightFileTimes(report) {
  const times = new Map();
  const visit = (suite) => {
    for (const spec of suite.specs ?? []) {
      const ms = spec.tests.flatMap((test) => test.results).reduce((sum, result) => sum + result.duration, 0);
      times.set(spec.file, (times.get(spec.file) ?? 0) + ms);
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites) visit(suite);
  return [{ tier: "e2e", withSetup: true, files: [...times].map(([file, ms]) => ({ file, ms })) }];
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

function printSlowest({ tier, withSetup, files }) {
  const total = files.reduce((sum, file) => sum + file.ms, 0);
  const how = withSetup ? "with imports and hooks" : "first test to last, without imports and hooks";
  console.log(`\nSlowest files, ${tier} (${files.length} files, ${seconds(total)} in all; ${how}):`);
  for (const { file, ms } of [...files].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)) {
    console.log(`  ${seconds(ms).padStart(9)}  ${file}`);
  }
}

function main(args) {
  let stages = [];
  const reports = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--stages") {
      const file = args[++i];
      if (existsSync(file)) stages = readStages(readFileSync(file, "utf8"));
    } else reports.push(args[i]);
  }

  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of reports) {
    const report = JSON.parse(readFileSync(file, "utf8"));
    if (report.stats) {
      passed += report.stats.expected ?? 0;
      failed += (report.stats.unexpected ?? 0) + (report.stats.flaky ?? 0);
      skipped += report.stats.skipped ?? 0;
      playwrightFileTimes(report).forEach(printSlowest);
    } else {
      passed += report.numPassedTests;
      failed += report.numFailedTests;
      skipped += report.numPendingTests + report.numTodoTests;
      vitestFileTimes(file, report).forEach(printSlowest);
    }
  }

  const over = stagesOverBudget(stages);
  if (stages.length > 0) {
    console.log(`\nStage times (a stage fails past ${OVER_BUDGET} × its budget):`);
    const label = (stage) => (stage.lane ? `  lane: ${stage.name}` : stage.name);
    const width = Math.max(...stages.map((stage) => label(stage).length));
    for (const stage of stages) {
      const mark = over.includes(stage) ? "  OVER BUDGET" : "";
      const budget = stage.lane ? "" : ` of ${stage.budget} s`;
      console.log(`  ${label(stage).padEnd(width)}  ${String(stage.seconds).padStart(5)} s${budget}${mark}`);
    }
    const total = stages.filter((stage) => !stage.lane).reduce((sum, stage) => sum + stage.seconds, 0);
    console.log(`  ${"all stages".padEnd(width)}  ${String(total).padStart(5)} s`);
  }
  for (const stage of over) {
    console.error(
      `\n!! ${stage.name} took ${stage.seconds} s, more than ${OVER_BUDGET} × its budget of ${stage.budget} s ` +
        `(scripts/test.sh). Find what made it slower above, or raise its budget with the reason in the commit.`,
    );
  }
  if (reports.length > 0) console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  return failed > 0 || over.length > 0 ? 1 : 0;
}

process.exit(main(process.argv.slice(2)));
