// Parses a file of gold answers: JSONL (one object a line) or CSV with a header row. Each line names
// a record by `key` (its content hash) or `id`, and gives `verdict` (valid/invalid) or `valid`
// (true/false), optional `categories` (a list, or in CSV separated by ";") and `note`. Pure.
import { parse as parseCsv } from "csv-parse/sync";
import { z } from "zod";

import { type GoldAnswer, goldAnswerSchema } from "@/lib/validation/gold";
import { MAX_INT4 } from "@/lib/validation/records";

export type GoldFileRow = { line: number; ref: { key: string } | { id: number }; answer: GoldAnswer };
export type GoldFileError = { line: number; message: string };

const verdict = z.preprocess(
  (value) => {
    if (typeof value !== "string") return value;
    const word = value.trim().toLowerCase();
    return word === "valid" || word === "true" ? true : word === "invalid" || word === "false" ? false : value;
  },
  z.boolean({ error: 'Give the verdict as "valid" or "invalid".' }),
);

const lineSchema = z
  .object({
    key: z
      .string()
      .trim()
      .regex(/^[0-9a-f]{64}$/, "A record key is 64 hex characters.")
      .optional(),
    id: z.coerce.number().int().min(1).max(MAX_INT4).optional(),
    verdict: verdict.optional(),
    valid: verdict.optional(),
    categories: z.preprocess(
      (value) =>
        typeof value === "string"
          ? value
              .split(/[;|]/)
              .map((key) => key.trim())
              .filter(Boolean)
          : value,
      goldAnswerSchema.shape.categories,
    ),
    note: goldAnswerSchema.shape.note,
  })
  .refine((row) => (row.key === undefined) !== (row.id === undefined), "Name the record by key or by id (one of them).")
  .refine((row) => row.verdict !== undefined || row.valid !== undefined, 'Give a verdict ("valid" or "invalid").');

function describe(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

/** Rows of a gold file, or every line's error (1-based line numbers, the header being line 1 in CSV). */
export function parseGoldFile(text: string): { rows: GoldFileRow[]; errors: GoldFileError[] } {
  const rows: GoldFileRow[] = [];
  const errors: GoldFileError[] = [];
  const add = (line: number, raw: unknown) => {
    const parsed = lineSchema.safeParse(raw);
    if (!parsed.success) return errors.push({ line, message: describe(parsed.error) });
    const { key, id, verdict: said, valid, categories, note } = parsed.data;
    rows.push({
      line,
      ref: key !== undefined ? { key } : { id: id! },
      answer: { valid: (said ?? valid)!, categories: [...new Set(categories)], note },
    });
  };
  const isJsonl = text.trimStart().startsWith("{");
  if (isJsonl) {
    text.split(/\r?\n/).forEach((content, index) => {
      if (!content.trim()) return;
      try {
        const value: unknown = JSON.parse(content);
        if (typeof value !== "object" || value === null || Array.isArray(value))
          return errors.push({ line: index + 1, message: "Expected a JSON object." });
        add(index + 1, value);
      } catch {
        errors.push({ line: index + 1, message: "Not valid JSON." });
      }
    });
  } else {
    let records: { record: Record<string, string>; info: { lines: number } }[];
    try {
      records = parseCsv(text, {
        columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
        skip_empty_lines: true,
        info: true,
      });
    } catch (error) {
      const line = (error as { lines?: number }).lines ?? 1;
      return { rows: [], errors: [{ line, message: `Not a readable CSV file: ${(error as Error).message}` }] };
    }
    // Empty cells mean "not given", so a CSV may carry both key and id columns.
    for (const { record, info } of records)
      add(info.lines, Object.fromEntries(Object.entries(record).filter(([, value]) => value.trim() !== "")));
  }
  if (rows.length === 0 && errors.length === 0) errors.push({ line: 1, message: "The file holds no gold answers." });
  return { rows, errors };
}
