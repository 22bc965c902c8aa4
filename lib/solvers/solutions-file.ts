// Reads a file of model outputs for a dataset. Each line (JSONL, or an element of a JSON array) is
// either `{"key": …, "model": …, "code" | "output": …}` or an AutoCodeBench result line: the
// record's own fields (question, canonical_solution, demo_test_func, full_test_func, language)
// plus the model's raw reply in `output`, the model named by the importer (`--model`). `code` is
// run as given; `output` is a raw reply whose code is taken out by the reference evaluation's rule
// (extract-code.ts). Every problem of a line is reported once, in one message for that line, and
// any bad line refuses the whole file. Pure: the caller reads the file and looks records up.
import { validateRecord } from "@/lib/records/validate";
import { unstorableCharacter } from "@/lib/records/json-limits";

import { extractCodeFromReply } from "./extract-code";

/** Longest model name. */
export const MAX_MODEL_NAME = 100;
/** Largest code or reply, in UTF-8 bytes (the record fields' limit). */
const MAX_SOLUTION_BYTES = 1024 * 1024;
const MODEL_NAME = /^[^\s\u0000-\u001f][^\u0000-\u001f]*$/;

/** What one line says before its record is looked up. */
export type SolutionLine = {
  line: number;
  /** The record's content hash, given as `key` or computed from the record's fields on the line. */
  key: string | null;
  model: string | null;
  /** Code to run as it is (`code`), or a raw reply to take the code from (`output`). */
  source: { code: string } | { reply: string } | null;
  problems: string[];
};

/** A solution ready to store: its record, model, the code to run and the raw reply it came from. */
export type ResolvedSolution = {
  line: number;
  recordId: number;
  model: string;
  code: string;
  reply: string | null;
};

export type SolutionFileError = { line: number; message: string };

/** "1–3, 7": line numbers in order, runs of consecutive ones as ranges. */
function lineRanges(lines: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let j = i;
    while (j + 1 < lines.length && lines[j + 1] === lines[j] + 1) j++;
    parts.push(j > i ? `${lines[i]}–${lines[j]}` : String(lines[i]));
    i = j;
  }
  return parts.join(", ");
}

/**
 * A refused file's errors as a person reads them: each message once, with the lines it is about
 * ("lines 1–14: Name the model…", not the same sentence fourteen times), in the order of the first
 * line of each, at most `limit` messages. Pure.
 */
export function describeFileErrors(errors: SolutionFileError[], limit: number): { listed: string[]; isCut: boolean } {
  const linesOf = new Map<string, number[]>();
  for (const error of [...errors].sort((a, b) => a.line - b.line)) {
    const lines = linesOf.get(error.message) ?? [];
    lines.push(error.line);
    linesOf.set(error.message, lines);
  }
  const listed = [...linesOf].map(
    ([message, lines]) => `${lines.length === 1 ? "line" : "lines"} ${lineRanges(lines)}: ${message}`,
  );
  return { listed: listed.slice(0, limit), isCut: listed.length > limit };
}

/** The record facts extraction needs. */
export type SolutionRecord = { id: number; language: string; canonicalSolution: string };

function textField(raw: Record<string, unknown>, field: string, problems: string[]): string | null {
  const value = raw[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") {
    problems.push(`"${field}" must be a string.`);
    return null;
  }
  if (Buffer.byteLength(value, "utf8") > MAX_SOLUTION_BYTES) {
    problems.push(`"${field}" is over the 1 MB limit.`);
    return null;
  }
  const bad = unstorableCharacter(value);
  if (bad) {
    problems.push(`"${field}" contains ${bad}.`);
    return null;
  }
  return value;
}

/**
 * Reads one parsed value of the file. `defaultModel` (the importer's `--model`) names the model of
 * a line that does not name one itself.
 */
export function readSolutionLine(line: number, value: unknown, defaultModel: string | null): SolutionLine {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { line, key: null, model: null, source: null, problems: ["Expected a JSON object."] };
  const raw = value as Record<string, unknown>;
  const problems: string[] = [];

  let model: string | null = null;
  if (raw.model !== undefined) {
    if (typeof raw.model !== "string" || !MODEL_NAME.test(raw.model.trim()) || raw.model.trim().length > MAX_MODEL_NAME)
      problems.push(`"model" is a name of 1–${MAX_MODEL_NAME} characters.`);
    else model = raw.model.trim();
  } else if (defaultModel) model = defaultModel;
  else
    problems.push(
      'Name the model: a "model" field, or one model for the whole file (Model on the upload form, --model).',
    );

  let key: string | null = null;
  if (raw.key !== undefined) {
    if (typeof raw.key !== "string" || !/^[0-9a-f]{64}$/.test(raw.key.trim()))
      problems.push("A record key is 64 hex characters.");
    else key = raw.key.trim();
  } else if (raw.question !== undefined || raw.canonical_solution !== undefined) {
    // An AutoCodeBench result line carries its record: the record's key is the hash of its fields.
    const { output: _output, code: _code, model: _model, ...fields } = raw;
    const record = validateRecord(fields);
    if (record.ok) key = record.record.key;
    else problems.push(`The record on this line is not a valid record: ${record.message}.`);
  } else problems.push('Name the record: a "key", or the record\'s own fields (an AutoCodeBench result line).');

  const code = textField(raw, "code", problems);
  const reply = textField(raw, "output", problems);
  let source: SolutionLine["source"] = null;
  if (raw.code !== undefined && raw.output !== undefined)
    problems.push('Give the solution as "code" or as a raw reply in "output", not both.');
  else if (code !== null) source = { code };
  else if (reply !== null) source = { reply };
  else if (raw.code === undefined && raw.output === undefined)
    problems.push('Give the solution: "code", or the model\'s raw reply in "output".');
  return { line, key, model, source, problems };
}

/**
 * Turns read lines into solutions: each line's record looked up by `recordOf`, the code of a raw
 * reply extracted, and a (record, model) named twice refused. All or nothing: with any error there
 * are no solutions.
 */
export function resolveSolutionLines(
  lines: SolutionLine[],
  { datasetName, recordOf }: { datasetName: string; recordOf: (key: string) => SolutionRecord | undefined },
): { solutions: ResolvedSolution[]; errors: SolutionFileError[] } {
  if (lines.length === 0) return { solutions: [], errors: [{ line: 1, message: "The file holds no solutions." }] };
  const seen = new Map<string, number>();
  const solutions: ResolvedSolution[] = [];
  const errors: SolutionFileError[] = [];
  for (const entry of lines) {
    const problems = [...entry.problems];
    const record = entry.key ? recordOf(entry.key) : undefined;
    if (entry.key && !record) problems.push(`${datasetName} holds no record with key ${entry.key}.`);
    if (record && entry.model) {
      const pair = `${record.id}\u0000${entry.model}`;
      const earlier = seen.get(pair);
      if (earlier !== undefined)
        problems.push(`The record has a solution from ${entry.model} already (line ${earlier}).`);
      else seen.set(pair, entry.line);
    }
    if (problems.length > 0) {
      errors.push({ line: entry.line, message: problems.join(" ") });
      continue;
    }
    if (!record || !entry.model || !entry.source) continue;
    const code =
      "code" in entry.source
        ? entry.source.code
        : extractCodeFromReply(entry.source.reply, record.language, record.canonicalSolution);
    solutions.push({
      line: entry.line,
      recordId: record.id,
      model: entry.model,
      code,
      reply: "reply" in entry.source ? entry.source.reply : null,
    });
  }
  return { solutions: errors.length > 0 ? [] : solutions, errors: errors.sort((a, b) => a.line - b.line) };
}
