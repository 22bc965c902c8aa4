// Reads a file of gold answers: JSONL (one object a line) or CSV with a header row. Each line names
// a record by `key` (its content hash) or `id`, and gives `verdict` (valid/invalid) or `valid`
// (true/false), optional `categories` (a list, or in CSV separated by ";") and `note`. Every problem
// of a line is found and reported once, in one message for that line, including a record the
// dataset does not hold and a category no taxonomy knows. Pure: the caller looks records up.
import { parse as parseCsv } from "csv-parse/sync";
import { z } from "zod";

import { type GoldAnswer, goldAnswerSchema } from "@/lib/validation/gold";
import { MAX_INT4 } from "@/lib/validation/records";

export type GoldRef = { key: string } | { id: number };
/** One line of the file as read: what it names, its answer when that part is well formed, and what is wrong with it. */
export type GoldFileLine = { line: number; ref: GoldRef | null; answer: GoldAnswer | null; problems: string[] };
export type GoldFileError = { line: number; message: string };

const verdict = z.preprocess(
  (value) => {
    if (typeof value !== "string") return value;
    const word = value.trim().toLowerCase();
    return word === "valid" || word === "true" ? true : word === "invalid" || word === "false" ? false : value;
  },
  z.boolean({ error: 'Give the verdict as "valid" or "invalid".' }),
);

// The record reference and the answer are read apart, so a bad answer still lets the line's record
// be looked up (and a missing record be reported with it).
const refSchema = z.object({
  key: z
    .string({ error: "A record key is 64 hex characters." })
    .trim()
    .regex(/^[0-9a-f]{64}$/, "A record key is 64 hex characters.")
    .optional(),
  id: z.coerce
    .number({ error: "A record id is a whole number from 1." })
    .int("A record id is a whole number from 1.")
    .min(1, "A record id is a whole number from 1.")
    .max(MAX_INT4, "No record has so large an id.")
    .optional(),
});

const categoriesSchema = z.preprocess(
  (value) =>
    typeof value === "string"
      ? value
          .split(/[;|]/)
          .map((key) => key.trim())
          .filter(Boolean)
      : value,
  goldAnswerSchema.shape.categories,
);

const answerSchema = z.object({
  verdict: verdict.optional(),
  valid: verdict.optional(),
  categories: categoriesSchema,
  note: goldAnswerSchema.shape.note,
});

function describe(error: z.ZodError): string[] {
  return error.issues.map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message));
}

/** Reads one line's object: the record it names, its answer, and every problem with either. */
function readLine(line: number, raw: Record<string, unknown>, knownCategories?: ReadonlySet<string>): GoldFileLine {
  const problems: string[] = [];
  const ref = refSchema.safeParse(raw);
  const answer = answerSchema.safeParse(raw);
  if (!ref.success) problems.push(...describe(ref.error));
  if (!answer.success) problems.push(...describe(answer.error));
  const { key, id } = ref.success ? ref.data : { key: undefined, id: undefined };
  const hasKey = raw.key !== undefined;
  const hasId = raw.id !== undefined;
  if (hasKey === hasId) problems.push("Name the record by key or by id (one of them).");
  if (raw.verdict === undefined && raw.valid === undefined) problems.push('Give a verdict ("valid" or "invalid").');
  // Checked on its own, so an unknown category is reported whatever else is wrong with the line.
  const categories = categoriesSchema.safeParse(raw.categories);
  const unknown =
    categories.success && knownCategories ? categories.data.filter((category) => !knownCategories.has(category)) : [];
  if (unknown.length > 0)
    problems.push(
      `Unknown error ${unknown.length === 1 ? "category" : "categories"}: ${[...new Set(unknown)].join(", ")} (in neither the default taxonomy nor a campaign of this dataset).`,
    );
  let parsedAnswer: GoldAnswer | null = null;
  const said = answer.success ? (answer.data.verdict ?? answer.data.valid) : undefined;
  if (answer.success && said !== undefined)
    parsedAnswer = { valid: said, categories: [...new Set(answer.data.categories)], note: answer.data.note };
  return {
    line,
    ref: hasKey !== hasId ? (key !== undefined ? { key } : id !== undefined ? { id } : null) : null,
    answer: parsedAnswer,
    problems,
  };
}

/**
 * Every line of a gold file with its problems (1-based line numbers, the header being line 1 in
 * CSV). With `knownCategories`, a category outside it is a problem of its line.
 */
export function readGoldFile(text: string, options: { knownCategories?: ReadonlySet<string> } = {}): GoldFileLine[] {
  const lines: GoldFileLine[] = [];
  const broken = (line: number, message: string) => lines.push({ line, ref: null, answer: null, problems: [message] });
  if (text.trimStart().startsWith("{")) {
    text.split(/\r?\n/).forEach((content, index) => {
      if (!content.trim()) return;
      let value: unknown;
      try {
        value = JSON.parse(content);
      } catch {
        return broken(index + 1, "Not valid JSON.");
      }
      if (typeof value !== "object" || value === null || Array.isArray(value))
        return broken(index + 1, "Expected a JSON object.");
      lines.push(readLine(index + 1, value as Record<string, unknown>, options.knownCategories));
    });
    return lines;
  }
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parseCsv(text, {
      columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
      skip_empty_lines: true,
      info: true,
    });
  } catch (error) {
    broken((error as { lines?: number }).lines ?? 1, `Not a readable CSV file: ${(error as Error).message}`);
    return lines;
  }
  // Empty cells mean "not given", so a CSV may carry both key and id columns.
  for (const { record, info } of records)
    lines.push(
      readLine(
        info.lines,
        Object.fromEntries(Object.entries(record).filter(([, value]) => value.trim() !== "")),
        options.knownCategories,
      ),
    );
  return lines;
}

/**
 * Checks the lines against the dataset: a record it does not hold, or one named twice, is a
 * problem of that line too. Answers come back only when no line has a problem; errors hold one
 * message per bad line, in line order, with every problem of that line.
 */
export function resolveGoldLines(
  lines: GoldFileLine[],
  { datasetName, recordIdOf }: { datasetName: string; recordIdOf: (ref: GoldRef) => number | undefined },
): { answers: ({ recordId: number } & GoldAnswer)[]; errors: GoldFileError[] } {
  if (lines.length === 0) return { answers: [], errors: [{ line: 1, message: "The file holds no gold answers." }] };
  const seen = new Map<number, number>();
  const answers: ({ recordId: number } & GoldAnswer)[] = [];
  const errors: GoldFileError[] = [];
  for (const entry of lines) {
    const problems = [...entry.problems];
    const recordId = entry.ref ? recordIdOf(entry.ref) : undefined;
    if (entry.ref && recordId === undefined)
      problems.push(
        `${datasetName} holds no record with ${"key" in entry.ref ? `key ${entry.ref.key}` : `id ${entry.ref.id}`}.`,
      );
    if (recordId !== undefined) {
      const earlier = seen.get(recordId);
      if (earlier !== undefined) problems.push(`The record is named again (first on line ${earlier}).`);
      else seen.set(recordId, entry.line);
    }
    if (problems.length > 0) errors.push({ line: entry.line, message: problems.join(" ") });
    else if (recordId !== undefined && entry.answer) answers.push({ recordId, ...entry.answer });
  }
  return { answers: errors.length > 0 ? [] : answers, errors: errors.sort((a, b) => a.line - b.line) };
}

/**
 * The refusal of a bad file: a summary that lists no line itself (so a page showing the summary and
 * the lines shows each line once) and each bad line as "line N: …", at most `limit` of them.
 */
export function goldFileRefusal(errors: GoldFileError[], limit = 20): { message: string; lines: string[] } {
  const lines = errors.slice(0, limit).map((error) => `line ${error.line}: ${error.message}`);
  const more = errors.length > limit ? `; the first ${limit} are listed` : "";
  return { message: `Nothing imported: ${errors.length} bad line${errors.length === 1 ? "" : "s"}${more}.`, lines };
}
