// `bench:mutation -- --weak-precision`: how often the weak-tests flag (mutation score below 0.5) is
// right on the demo's records, counting every survivor and counting real survivors only (the
// likely-equivalent ones apart, as the record's score does). The demo's manifest plants the
// weak-tests flaw in some records; precision is the share of flagged records that carry it, recall
// the share of those records flagged. No database: each record that runs here is analysed as the
// evidence workers analyse it (switched where the language allows, survivors compared compiled).
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { readDemoManifest } from "@/prisma/demo/manifest";
import { WEAK_TESTS_THRESHOLD } from "@/lib/evidence/suspicion";
import type { RecordToProbe } from "@/lib/server/evidence/batches";

import { writeBenchmarkSection } from "./common";

type Flagging = { flagged: number; right: number; precision: number | null; recall: number | null };
export type WeakPrecision = {
  records: number;
  planted: number;
  allSurvivors: Flagging;
  realSurvivors: Flagging;
  /** Records whose flag the likely-equivalent survivors changed, with their reasons. */
  changed: { line: number; title: string; score: number; realScore: number | null; reasons: string[] }[];
};

const round = (value: number | null) => (value === null ? null : Number(value.toFixed(2)));

function flagging(flags: boolean[], planted: boolean[]): Flagging {
  const flagged = flags.filter(Boolean).length;
  const right = flags.filter((flag, index) => flag && planted[index]).length;
  const total = planted.filter(Boolean).length;
  return {
    flagged,
    right,
    precision: round(flagged > 0 ? right / flagged : null),
    recall: round(total > 0 ? right / total : null),
  };
}

export async function measureWeakPrecision({
  mutants,
  isWriting,
  load,
}: {
  mutants: number;
  isWriting: boolean;
  load: () => string;
}): Promise<WeakPrecision> {
  const { analyseMutants } = await import("@/lib/server/evidence/jobs");
  const { getSandboxRouter } = await import("@/lib/server/sandbox");
  const { normalizeLanguage } = await import("@/lib/records/languages");
  const { scoreOverRealSurvivors } = await import("@/lib/evidence/mutation/equivalence");
  const manifest = readDemoManifest();
  const rows = readFileSync(join("prisma", "demo", "demo.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, string>);
  const measured: {
    line: number;
    title: string;
    planted: boolean;
    score: number;
    realScore: number | null;
    reasons: string[];
  }[] = [];
  for (const [index, row] of rows.entries()) {
    const language = normalizeLanguage(row.language);
    const entry = manifest.find((each) => each.line === index + 1);
    if (!language || !entry || !(await getSandboxRouter().availabilityOf(language)).available) continue;
    const record: RecordToProbe = {
      id: index + 1,
      language,
      canonicalSolution: row.canonical_solution,
      demoTestFunc: row.demo_test_func,
      fullTestFunc: row.full_test_func,
      executableValid: null,
    };
    const result = await analyseMutants(record, mutants);
    if (result.score === null) continue;
    measured.push({
      line: index + 1,
      title: entry.title,
      planted: entry.flaw === "weak-tests",
      score: result.score,
      realScore: scoreOverRealSurvivors(result.killed, result.viable, result.likelyEquivalent ?? 0),
      reasons: result.mutants.flatMap((mutant) => (mutant.equivalentReason ? [mutant.equivalentReason] : [])),
    });
    console.error(
      `  line ${index + 1} ${language}: score ${result.score.toFixed(2)}, over real survivors ` +
        `${measured.at(-1)!.realScore?.toFixed(2) ?? "—"}${entry.flaw === "weak-tests" ? " (planted weak)" : ""}`,
    );
  }
  const planted = measured.map((each) => each.planted);
  const isWeak = (score: number | null) => score !== null && score < WEAK_TESTS_THRESHOLD;
  const result: WeakPrecision = {
    records: measured.length,
    planted: planted.filter(Boolean).length,
    allSurvivors: flagging(
      measured.map((each) => isWeak(each.score)),
      planted,
    ),
    realSurvivors: flagging(
      measured.map((each) => isWeak(each.realScore)),
      planted,
    ),
    changed: measured
      .filter((each) => isWeak(each.score) !== isWeak(each.realScore))
      .map(({ line, title, score, realScore, reasons }) => ({ line, title, score, realScore, reasons })),
  };
  if (isWriting) writePrecision(result, mutants, load());
  return result;
}

function writePrecision(result: WeakPrecision, mutants: number, load: string): void {
  const row = (name: string, each: Flagging) =>
    `| ${name} | ${each.flagged} | ${each.right} | ${each.precision ?? "—"} | ${each.recall ?? "—"} |`;
  writeBenchmarkSection(
    "## The weak-tests flag's precision on the demo, likely-equivalent survivors apart (issue 36)",
    [
      "## The weak-tests flag's precision on the demo, likely-equivalent survivors apart (issue 36)",
      "",
      `\`npm run bench:mutation -- --weak-precision\`, ${mutants} mutants a record; ${result.records} demo records`,
      `with a score here, ${result.planted} of them planted with weak tests (the manifest); load ${load}.`,
      "",
      "| counting | flagged (score < 0.5) | planted among them | precision | recall |",
      "|---|---:|---:|---:|---:|",
      row("every survivor", result.allSurvivors),
      row("real survivors only", result.realSurvivors),
      "",
      result.changed.length === 0
        ? "No record's flag changed: no flagged record's survivors were found likely equivalent."
        : `Flags changed: ${result.changed.map((each) => `line ${each.line} *${each.title}* (${each.score.toFixed(2)} → ${each.realScore?.toFixed(2) ?? "—"}: ${each.reasons.join("; ")})`).join("; ")}.`,
      "",
    ].join("\n"),
  );
}
