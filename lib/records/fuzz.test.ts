// Property-based fuzzing of the import parser: whatever bytes arrive, reading and validating never
// throws, every item has a line number, and line numbers never go backwards.
import { gzipSync } from "node:zlib";

import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { readItems } from "./reader";
import { validateRecord } from "./validate";

// A fixed seed keeps CI deterministic; FUZZ_SEED=<n> explores other inputs (fast-check prints the
// seed and the shrunk counterexample of any failure).
const seed = Number(process.env.FUZZ_SEED ?? 20261129);

async function readAll(chunks: Uint8Array[]) {
  async function* source() {
    for (const chunk of chunks) yield chunk;
  }
  const items = [];
  for await (const item of readItems(source(), { maxLineBytes: 8192 })) items.push(item);
  return items;
}

const validRecord = fc.record({
  question: fc.string({ minLength: 1 }).filter((s) => s.trim().length > 0),
  canonical_solution: fc.string({ minLength: 1 }).filter((s) => s.trim().length > 0),
  demo_test_func: fc.string({ minLength: 1 }).filter((s) => s.trim().length > 0),
  full_test_func: fc.string({ minLength: 1 }).filter((s) => s.trim().length > 0),
  language: fc.constantFrom("python", "cpp", "js", "Rust", "c#"),
});

/** A string PostgreSQL cannot store: a NUL or an unpaired surrogate somewhere in it. */
const unstorable = fc
  .tuple(fc.string(), fc.constantFrom("\u0000", "\ud800", "\udfff"), fc.string())
  .map((parts) => parts.join(""));

/** A JSON value holding `leaf` somewhere inside, as a value or as a key. */
const holding = (leaf: string) =>
  fc
    .array(fc.constantFrom("array", "object", "key"), { maxLength: 6 })
    .map((wrappers) =>
      wrappers.reduce<unknown>(
        (inner, wrapper) =>
          wrapper === "array" ? [1, inner] : wrapper === "object" ? { k: inner } : { [leaf]: inner },
        leaf,
      ),
    );

/** Brackets and braces nested `depth` levels, as JSON text. */
const nested = fc
  .tuple(fc.integer({ min: 1, max: 700 }), fc.constantFrom("[", '{"a":'))
  .map(([depth, open]) => `${open.repeat(depth)}0${(open === "[" ? "]" : "}").repeat(depth)}`);

const line = fc.oneof(
  validRecord.map((record) => JSON.stringify(record)),
  fc.json(),
  fc.string(),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
  fc.tuple(validRecord, unstorable.chain(holding)).map(([record, notes]) => JSON.stringify({ ...record, notes })),
  fc
    .tuple(validRecord, nested)
    .map(([record, deep]) => `${JSON.stringify(record).slice(0, -1)},"critic_result":${deep}}`),
);

/** Splits bytes at arbitrary points, as a network would. */
const chunked = (bytes: Uint8Array) =>
  fc.array(fc.nat({ max: Math.max(bytes.length, 1) }), { maxLength: 8 }).map((cuts) => {
    const points = [...new Set([0, ...cuts.map((cut) => cut % (bytes.length + 1)), bytes.length])].sort(
      (a, b) => a - b,
    );
    return points.slice(1).map((end, index) => bytes.subarray(points[index], end));
  });

function checkItems(items: Awaited<ReturnType<typeof readAll>>) {
  let previous = 0;
  for (const item of items) {
    expect(Number.isInteger(item.line)).toBe(true);
    expect(item.line).toBeGreaterThanOrEqual(previous);
    previous = item.line;
    if ("value" in item) expect(() => validateRecord(item.value)).not.toThrow();
    else expect(item.error.length).toBeGreaterThan(0);
  }
}

describe("import parser fuzzing", () => {
  it("never throws on arbitrary bytes, split anywhere", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 2048 }).chain((bytes) => chunked(bytes)),
        async (chunks) => {
          checkItems(await readAll(chunks));
        },
      ),
      { numRuns: 300, seed },
    );
  });

  it("reports every line of a JSONL mix of records and garbage, in order, gzipped or not", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 30 }), fc.boolean(), async (lines, isGzipped) => {
        const text = Buffer.from(lines.map((entry) => entry.replace(/[\r\n]/g, " ")).join("\n"));
        const items = await readAll([isGzipped ? gzipSync(text) : text]);
        checkItems(items);
        // Blank means JSON whitespace only (a vertical tab is not blank: it is invalid JSON).
        const nonBlank = lines.filter((entry) => !/^[ \t]*$/.test(entry.replace(/[\r\n]/g, " "))).length;
        const start = text
          .toString("utf8")
          .replace(/^\uFEFF/, "")
          .replace(/^[ \t\r\n]+/, "");
        // Every non-blank line yields exactly one item unless the whole file is one JSON array.
        if (!start.startsWith("[") && nonBlank > 0) expect(items).toHaveLength(nonBlank);
      }),
      { numRuns: 300, seed },
    );
  });

  it("rejects a record holding a NUL or an unpaired surrogate anywhere, field, key or critic, and never throws", () => {
    const field = fc.constantFrom(
      "question",
      "canonical_solution",
      "language",
      "notes",
      "critic",
      "critic_result",
      "critic_reasoning",
    );
    fc.assert(
      fc.property(validRecord, field, unstorable.chain(holding), (record, name, value) => {
        const result = validateRecord({ ...record, [name]: value });
        expect(result.ok).toBe(false);
      }),
      { numRuns: 300, seed },
    );
  });

  it("reads nesting up to 64 levels and refuses deeper lines, whatever their shape", async () => {
    await fc.assert(
      fc.asyncProperty(nested, async (deep) => {
        // Inside an object, so a leading "[" is not read as a file-level JSON array.
        const text = `{"k":${deep}}`;
        const [item] = await readAll([Buffer.from(text)]);
        const depth = (text.match(/[[{]/g) ?? []).length;
        if (depth <= 64) expect(item).toHaveProperty("value");
        else expect(item).toEqual({ line: 1, error: "nested deeper than 64 levels of arrays and objects" });
      }),
      { numRuns: 200, seed },
    );
  });

  it("cuts a gzip stream anywhere without throwing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(validRecord, { minLength: 1, maxLength: 10 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (records, cut) => {
          const full = gzipSync(records.map((record) => JSON.stringify(record)).join("\n"));
          checkItems(await readAll([full.subarray(0, Math.floor(full.length * cut))]));
        },
      ),
      { numRuns: 100, seed },
    );
  });
});
