import { z } from "zod";

/**
 * A field mapping turns a record of another benchmark's format (HumanEval, MBPP, HumanEval-X…) into
 * an AutoCodeBench record, which then goes through the one validation every import uses. Each
 * AutoCodeBench field is a template: a list of parts joined end to end, each part a source field
 * (a string names a field) or literal text (`{ "text": "…" }`). Source fields the mapping does not
 * read are kept in the record's `extra`, as unknown AutoCodeBench fields are.
 */

/** One piece of a template: a source field (optionally joined, matched or optional) or literal text. */
const fieldPartSchema = z
  .object({
    field: z.string().min(1, "name the source field"),
    /** How a list of strings (MBPP's test_list) is joined; "\n" when not given. */
    join: z.string().optional(),
    /** A regular expression with one capture group; the group is taken (e.g. "CPP" from "CPP/12"). */
    match: z
      .string()
      .refine(isRegExpWithGroup, "must be a regular expression with one capture group, e.g. ^([^/]+)/")
      .optional(),
    /** A missing (or null) optional field gives "" instead of an error. */
    optional: z.boolean().optional(),
  })
  .strict();
const partSchema = z.union([
  z.string().min(1, "name the source field"),
  fieldPartSchema,
  z.object({ text: z.string() }).strict(),
]);
const templateSchema = z.union([partSchema, z.array(partSchema).min(1, "give at least one part")], {
  error: (issue) =>
    issue.input === undefined
      ? "missing: name the source field it comes from (or give its parts)"
      : 'must be a source field\'s name, {"field": …}, {"text": …} or a list of them',
});

/** The JSON a mapping file holds (and the query parameter or form field carries). */
const fieldMappingSchema = z
  .object({
    name: z.string().min(1).max(100),
    description: z.string().max(1000).optional(),
    fields: z
      .object({
        question: templateSchema,
        canonical_solution: templateSchema,
        demo_test_func: templateSchema,
        full_test_func: templateSchema,
        language: templateSchema,
        difficulty: templateSchema.optional(),
      })
      .strict(),
  })
  .strict();

/** A mapping as written in its JSON file. */
export type FieldMappingInput = z.infer<typeof fieldMappingSchema>;

type Part =
  | { kind: "text"; text: string }
  | { kind: "field"; field: string; join: string; match: RegExp | null; pattern: string; optional: boolean };
type Target = keyof FieldMappingInput["fields"];

/** A checked mapping, its templates compiled once for the whole file. */
export type FieldMapping = {
  name: string;
  templates: [Target, Part[]][];
  /** Source fields some template reads; the rest go to `extra`. */
  readFields: ReadonlySet<string>;
};

/** The outcome of mapping one record: an AutoCodeBench-shaped object, or why it could not be mapped. */
export type MapResult = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

function isRegExpWithGroup(pattern: string): boolean {
  try {
    return new RegExp(`${pattern}|`).exec("")!.length > 1;
  } catch {
    return false;
  }
}

function compilePart(part: z.infer<typeof partSchema>): Part {
  if (typeof part === "string")
    return { kind: "field", field: part, join: "\n", match: null, pattern: "", optional: false };
  if ("text" in part) return { kind: "text", text: part.text };
  return {
    kind: "field",
    field: part.field,
    join: part.join ?? "\n",
    match: part.match === undefined ? null : new RegExp(part.match),
    pattern: part.match ?? "",
    optional: part.optional ?? false,
  };
}

/**
 * Checks a mapping's JSON (parsed or as text) and compiles it. Throws a ZodError naming each bad
 * path (e.g. `fields.full_test_func.1.match`) for the caller's boundary to turn into a field error.
 */
export function parseFieldMapping(input: unknown): FieldMapping {
  const parsed = fieldMappingSchema.parse(input);
  const templates = Object.entries(parsed.fields).map(([target, template]) => {
    const parts = Array.isArray(template) ? template : [template];
    return [target as Target, parts.map(compilePart)] as [Target, Part[]];
  });
  const readFields = new Set(
    templates.flatMap(([, parts]) => parts.flatMap((part) => (part.kind === "field" ? [part.field] : []))),
  );
  return { name: parsed.name, templates, readFields };
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return `a ${typeof value}`;
}

function fieldText(
  record: Record<string, unknown>,
  part: Extract<Part, { kind: "field" }>,
): string | { error: string } {
  const value = Object.hasOwn(record, part.field) ? record[part.field] : undefined;
  if (value === undefined || value === null) return part.optional ? "" : { error: `missing field "${part.field}"` };
  let text: string;
  if (typeof value === "string") text = value;
  else if (typeof value === "number" || typeof value === "boolean") text = String(value);
  else if (Array.isArray(value) && value.every((item) => typeof item === "string")) text = value.join(part.join);
  else return { error: `field "${part.field}" must be text or a list of text, got ${describeType(value)}` };
  if (part.match === null) return text;
  const found = part.match.exec(text);
  if (found?.[1] !== undefined) return found[1];
  return part.optional ? "" : { error: `field "${part.field}" does not match ${JSON.stringify(part.pattern)}` };
}

/**
 * Maps one source record to the AutoCodeBench shape; never throws. The message names the source
 * field and the AutoCodeBench field it was read for; the importer puts the line in front of it.
 */
export function applyFieldMapping(mapping: FieldMapping, value: unknown): MapResult {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, message: `the record must be a JSON object, got ${describeType(value)}` };
  }
  const record = value as Record<string, unknown>;
  // Unread source fields first, so a source field that happens to be called "language" cannot override the mapping's.
  const out: Record<string, unknown> = Object.fromEntries(
    Object.entries(record).filter(([field]) => !mapping.readFields.has(field)),
  );
  for (const [target, parts] of mapping.templates) {
    let text = "";
    for (const part of parts) {
      if (part.kind === "text") {
        text += part.text;
        continue;
      }
      const piece = fieldText(record, part);
      if (typeof piece !== "string") {
        return { ok: false, message: `${piece.error} (the "${mapping.name}" mapping reads it for ${target})` };
      }
      text += piece;
    }
    out[target] = text;
  }
  return { ok: true, value: out };
}

/**
 * HumanEval's `test` defines `check(candidate)` without calling it; the mapped test calls it on the
 * entry point, and the solution is the prompt (signature and docstring) followed by the body.
 */
const HUMANEVAL: FieldMappingInput = {
  name: "humaneval",
  description:
    "HumanEval and its kin (HumanEval+, the prompt + canonical_solution + test + entry_point shape): the solution is prompt + canonical_solution; the tests call check(entry_point). Python.",
  fields: {
    question: "prompt",
    canonical_solution: ["prompt", "canonical_solution"],
    demo_test_func: ["test", { text: "\ncheck(" }, "entry_point", { text: ")\n" }],
    full_test_func: ["test", { text: "\ncheck(" }, "entry_point", { text: ")\n" }],
    language: { text: "python" },
  },
};

/**
 * MBPP (original and sanitized: `text` or `prompt`, `code`, `test_list`, `test_setup_code`) and
 * EvalPlus's MBPP+ (`prompt`, `code`, `test`). One mapping covers all three, so each of these
 * fields is optional and a record without its statement or tests is refused by validation.
 */
const MBPP: FieldMappingInput = {
  name: "mbpp",
  description:
    "MBPP (text or prompt, code, test_list, test_setup_code) and EvalPlus MBPP+ (prompt, code, test): the tests are the setup code then the asserts. Python.",
  fields: {
    question: [
      { field: "text", optional: true },
      { field: "prompt", optional: true },
    ],
    canonical_solution: "code",
    demo_test_func: [
      { field: "test_setup_code", optional: true },
      { text: "\n" },
      { field: "test_list", optional: true },
      { field: "test", optional: true },
      { text: "\n" },
    ],
    full_test_func: [
      { field: "test_setup_code", optional: true },
      { text: "\n" },
      { field: "test_list", optional: true },
      { field: "challenge_test_list", optional: true },
      { field: "test", optional: true },
      { text: "\n" },
    ],
    language: { text: "python" },
  },
};

/**
 * HumanEval-X (Python, C++, Java, JavaScript, Go): the language is the task id's prefix ("CPP/12");
 * the solution is the prompt + canonical_solution; the test is complete for each language (it calls
 * its checks itself). Java's test is a `public class Main`, Go's a testify test, JavaScript's fails by
 * printing and one C++ task links OpenSSL: run them with the java-main, go-testify, javascript-silent
 * and cpp-openssl harness profiles (docs/sandbox.md). Its Rust file has another shape: humaneval-x-rust.
 */
const HUMANEVAL_X: FieldMappingInput = {
  name: "humaneval-x",
  description:
    'HumanEval-X and translation sets of its shape (task_id "Language/N", prompt, canonical_solution, test, optional test_setup): the language is the task id\'s prefix; the solution is prompt + canonical_solution; the test is test_setup + test. Harness profiles: Java java-main, Go go-testify, JavaScript javascript-silent, C++ cpp-openssl.',
  fields: {
    question: [{ field: "text", optional: true }, "prompt"],
    canonical_solution: ["prompt", "canonical_solution"],
    demo_test_func: [{ field: "test_setup", optional: true }, "test"],
    full_test_func: [{ field: "test_setup", optional: true }, "test"],
    language: { field: "task_id", match: "^([A-Za-z+#]+)/" },
  },
};

/**
 * HumanEval-X's Rust file: its prompt is the docstring only, the `use` lines and signature are in
 * `declaration`, so the solution is declaration + prompt + canonical_solution (the order its own
 * harness splices); the test is a `#[cfg(test)]` module, which the Rust recipe runs as `cargo test` does.
 */
const HUMANEVAL_X_RUST: FieldMappingInput = {
  name: "humaneval-x-rust",
  description:
    "HumanEval-X's Rust file (task_id, declaration, prompt, canonical_solution, test): the solution is declaration + prompt + canonical_solution; the test is the test module. Rust.",
  fields: {
    question: "prompt",
    canonical_solution: ["declaration", "prompt", "canonical_solution"],
    demo_test_func: "test",
    full_test_func: "test",
    language: { text: "rust" },
  },
};

/** The mappings Verity ships, by name; `--mapping NAME` and `?mapping=NAME` pick one. */
export const BUILTIN_MAPPINGS: Readonly<Record<string, FieldMappingInput>> = {
  humaneval: HUMANEVAL,
  mbpp: MBPP,
  "humaneval-x": HUMANEVAL_X,
  "humaneval-x-rust": HUMANEVAL_X_RUST,
};

/**
 * A shipped mapping by name, or a mapping given as JSON text (a string starting with "{"). Throws a
 * ZodError for bad JSON or a bad mapping, naming the path; an unknown name is an issue on `mapping`.
 */
export function resolveFieldMapping(nameOrJson: string): FieldMapping {
  const text = nameOrJson.trim();
  if (text.startsWith("{")) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new z.ZodError([
        {
          code: "custom",
          path: [],
          message: `the mapping is not valid JSON: ${(error as Error).message}`,
          input: text,
        },
      ]);
    }
    return parseFieldMapping(json);
  }
  const builtin = Object.hasOwn(BUILTIN_MAPPINGS, text) ? BUILTIN_MAPPINGS[text] : undefined;
  if (!builtin) {
    throw new z.ZodError([
      {
        code: "custom",
        path: [],
        message: `unknown mapping ${JSON.stringify(text.slice(0, 40))} (shipped: ${Object.keys(BUILTIN_MAPPINGS).join(", ")}; or give the mapping's JSON)`,
        input: text,
      },
    ]);
  }
  return parseFieldMapping(builtin);
}
