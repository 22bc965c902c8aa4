// Property: an import is all or nothing. For random mixes of good records and garbage, either the
// file had no bad line and every distinct record is in the dataset, or nothing was written at all.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, makeRecord, makeUser, uniqueName } from "@/lib/testing/factories";

import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";

let admin: Actor;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
});

const entry = fc.oneof(
  fc.integer({ min: 0, max: 20 }).map((seed) => ({ good: true, text: JSON.stringify(makeRecord(`fz${seed}`)) })),
  fc
    .constantFrom('{"question": "cut', "not json", '{"question":"q","language":"cobol"}', "[1,2", "\u0000\u0001binary")
    .map((text) => ({ good: false, text })),
  // Records PostgreSQL could not store, or too deep to write back: a NUL, an unpaired surrogate, 100,000 levels.
  fc
    .tuple(
      fc.integer({ min: 0, max: 20 }),
      fc.constantFrom("\u0000", "\ud800"),
      fc.constantFrom("question", "notes", "critic_result", "critic_reasoning"),
    )
    .map(([seed, bad, field]) => ({
      good: false,
      text: JSON.stringify(makeRecord(`fz${seed}`, { [field]: `x${bad}` })),
    })),
  fc.integer({ min: 0, max: 20 }).map((seed) => ({
    good: false,
    text: `${JSON.stringify(makeRecord(`fzd${seed}`)).slice(0, -1)},"meta":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
  })),
);

describe("import fuzzing against the database", () => {
  it("never imports part of a file", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 12 }), async (entries) => {
        const dataset = uniqueName("fuzz");
        const text = entries.map((e) => e.text).join("\n");
        const summary = await importRecords({
          actor: admin,
          datasetName: dataset,
          source: chunks(text),
          skipInvalid: false,
          origin: "api",
        });
        const stored = await prisma().record.count({ where: { dataset: { name: dataset } } });
        const distinctGood = new Set(entries.filter((e) => e.good).map((e) => e.text)).size;
        if (entries.some((e) => !e.good)) {
          expect(summary.ok).toBe(false);
          expect(stored).toBe(0);
          expect(await prisma().dataset.count({ where: { name: dataset } })).toBe(0);
        } else {
          expect(summary.ok).toBe(true);
          expect(stored).toBe(distinctGood);
        }
      }),
      { numRuns: 25, seed: Number(process.env.FUZZ_SEED ?? 20261129) },
    );
  });
});
