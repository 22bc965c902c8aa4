import { z } from "zod";
import { parseCritic, type CriticVerdict } from "./critic";
import { recordKey } from "./hash";
import { checkJsonValue, TOO_DEEP_MESSAGE, unstorableCharacter } from "./json-limits";
import { LANGUAGES, normalizeLanguage, type Language } from "./languages";

/** Largest accepted size of one field, in UTF-8 bytes (for unknown fields: their JSON text). */
export const MAX_FIELD_BYTES = 1024 * 1024;

/** A record difficulty; AutoCodeBench leaves it out for some records. */
type Difficulty = "easy" | "medium" | "hard";

/** A validated input record, keyed by its content hash. */
export type ParsedRecord = {
  key: string;
  language: Language;
  difficulty: Difficulty | null;
  question: string;
  canonicalSolution: string;
  demoTestFunc: string;
  fullTestFunc: string;
  extra: Record<string, unknown>;
  critic: CriticVerdict | null;
};

/** The outcome of validating one record: the record, or a short message for the person importing. */
export type ValidateResult = { ok: true; record: ParsedRecord } | { ok: false; message: string };

const CODE_FIELDS = ["question", "canonical_solution", "demo_test_func", "full_test_func"] as const;
const CRITIC_FIELDS = ["critic", "critic_result", "critic_reasoning"] as const;
/** Field names that map to columns; every other field is kept verbatim in `extra`. */
const KNOWN_FIELDS: readonly string[] = [...CODE_FIELDS, "language", "difficulty", ...CRITIC_FIELDS];
const KNOWN_FIELD_SET = new Set(KNOWN_FIELDS);

const difficultySchema = z.enum(["easy", "medium", "hard"]);
const MIB = 1024 * 1024;

/** Checks one parsed JSON value against the AutoCodeBench record format; never throws. */
export function validateRecord(value: unknown): ValidateResult {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return fail(`the record must be a JSON object, got ${describeType(value)}`);
  }
  const input = value as Record<string, unknown>;

  // First, what PostgreSQL or JSON.stringify cannot take, whichever field it is in.
  for (const [field, fieldValue] of Object.entries(input)) {
    const inName = unstorableCharacter(field);
    if (inName) return fail(`field ${quote(field)} contains ${inName}`);
    const problem = checkJsonValue(fieldValue, field, 1);
    if (problem?.kind === "tooDeep") return fail(`field ${quote(field)} is ${TOO_DEEP_MESSAGE}`);
    if (problem)
      return fail(`field ${quote(problem.path)} ${problem.inKey ? "has a key with" : "contains"} ${problem.message}`);
  }

  const strings: Record<string, string> = {};
  for (const field of [...CODE_FIELDS, "language"] as const) {
    const checked = checkString(input, field);
    if (!checked.ok) return checked;
    strings[field] = checked.value;
  }
  for (const field of CODE_FIELDS) {
    if (strings[field].trim() === "") return fail(`field "${field}" is empty`);
  }

  const language = normalizeLanguage(strings.language);
  if (language === null) {
    return fail(`unknown language ${quote(strings.language)} (expected one of ${LANGUAGES.join(", ")})`);
  }

  const difficulty = parseDifficulty(input.difficulty);
  if (!difficulty.ok) return difficulty;

  const extraEntries: [string, unknown][] = [];
  for (const [field, fieldValue] of Object.entries(input)) {
    const isCritic = (CRITIC_FIELDS as readonly string[]).includes(field);
    if (KNOWN_FIELD_SET.has(field) && !isCritic) continue;
    // Critic fields are bounded too, so one runaway reasoning trace cannot bloat the database.
    const size = jsonBytes(fieldValue);
    if (size > MAX_FIELD_BYTES) return fail(`field ${quote(field)} is ${formatSize(size)}, over the 1 MB limit`);
    if (!isCritic) extraEntries.push([field, fieldValue]);
  }

  const critic = parseCritic({
    critic: input.critic,
    criticResult: input.critic_result,
    criticReasoning: input.critic_reasoning,
  });
  // The fields themselves are clean, so a bad character here was decoded from an escape in the critic's JSON text.
  const inVerdict = critic ? checkJsonValue(critic, "critic") : null;
  if (inVerdict?.kind === "character") return fail(`the critic output holds JSON text with ${inVerdict.message}`);

  const fields = {
    language,
    question: strings.question,
    canonicalSolution: strings.canonical_solution,
    demoTestFunc: strings.demo_test_func,
    fullTestFunc: strings.full_test_func,
  };
  return {
    ok: true,
    record: {
      key: recordKey(fields),
      difficulty: difficulty.value,
      ...fields,
      // fromEntries defines own properties, so a "__proto__" field stays data instead of a prototype.
      extra: Object.fromEntries(extraEntries),
      critic,
    },
  };
}

function fail(message: string): { ok: false; message: string } {
  return { ok: false, message };
}

function checkString(
  input: Record<string, unknown>,
  field: string,
): { ok: true; value: string } | { ok: false; message: string } {
  if (!Object.hasOwn(input, field) || input[field] === undefined) return fail(`missing field "${field}"`);
  const value = input[field];
  if (typeof value !== "string") return fail(`field "${field}" must be a string, got ${describeType(value)}`);
  const size = Buffer.byteLength(value, "utf8");
  if (size > MAX_FIELD_BYTES) return fail(`field "${field}" is ${formatSize(size)}, over the 1 MB limit`);
  return { ok: true, value };
}

function parseDifficulty(value: unknown): { ok: true; value: Difficulty | null } | { ok: false; message: string } {
  if (value === undefined || value === null) return { ok: true, value: null };
  if (typeof value !== "string") return fail(`field "difficulty" must be a string, got ${describeType(value)}`);
  const normalized = value.trim().toLowerCase();
  if (normalized === "") return { ok: true, value: null };
  const parsed = difficultySchema.safeParse(normalized);
  if (!parsed.success) return fail(`unknown difficulty ${quote(value)} (expected easy, medium or hard)`);
  return { ok: true, value: parsed.data };
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

// Echo a bad value back, but never a megabyte of it.
function quote(value: string): string {
  const short = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return JSON.stringify(short);
}

function jsonBytes(value: unknown): number {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : Buffer.byteLength(text, "utf8");
  } catch {
    return 0;
  }
}

function formatSize(bytes: number): string {
  const mib = (bytes / MIB).toFixed(1);
  // "1.0 MB, over the 1 MB limit" would read as a contradiction; show the exact count instead.
  return mib === "1.0" ? `${bytes.toLocaleString("en-US")} bytes` : `${mib} MB`;
}
