// The lines of a release's data.jsonl and excluded.jsonl. Pure: the same stored entry gives the same
// line, byte for byte.
import type { EntryReason } from "./types";

export type ReleaseLineInput = {
  key: string;
  line: number;
  language: string;
  difficulty: string | null;
  extra: Record<string, unknown>;
  revision: number;
  reason: EntryReason;
  question: string;
  canonicalSolution: string;
  demoTestFunc: string;
  fullTestFunc: string;
};

/**
 * A record in the input format (its unknown fields written back), at the revision the release holds,
 * with a `verification` object: the record's key and source line, its revision (and whether it is a
 * repair), and the label and evidence that put it in.
 */
export function dataLine(release: string, row: ReleaseLineInput): string {
  const record = {
    question: row.question,
    canonical_solution: row.canonicalSolution,
    demo_test_func: row.demoTestFunc,
    full_test_func: row.fullTestFunc,
    language: row.language,
    ...(row.difficulty ? { difficulty: row.difficulty } : {}),
    ...row.extra,
    verification: {
      release,
      record_key: row.key,
      line: row.line,
      revision: row.revision,
      revised: row.revision > 1,
      final_label: row.reason.label,
      decided_by: row.reason.decided_by,
      rule: row.reason.rule,
      executable_valid: row.reason.evidence.executable_valid,
      execution_outcome: row.reason.evidence.execution_outcome,
    },
  };
  return `${JSON.stringify(record)}\n`;
}

/** A record left out: which one (key, line, language, revision) and why (label, rule, evidence). */
export function excludedLine(
  row: Omit<ReleaseLineInput, "extra" | "question" | "canonicalSolution" | "demoTestFunc" | "fullTestFunc">,
): string {
  return `${JSON.stringify({
    record_key: row.key,
    line: row.line,
    language: row.language,
    difficulty: row.difficulty,
    revision: row.revision,
    label: row.reason.label,
    decided_by: row.reason.decided_by,
    categories: row.reason.categories,
    rule: row.reason.rule,
    evidence: row.reason.evidence,
  })}\n`;
}
