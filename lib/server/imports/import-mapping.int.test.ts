// Importing another benchmark's format over REST with a field mapping: the preview shows the first
// records as they would be stored (or why not) and writes nothing; the import then stores them;
// a bad mapping or a record missing a mapped field imports nothing and says which line and field.
import { beforeAll, describe, expect, it } from "vitest";

import { POST as postPreview } from "@/app/api/v1/datasets/[name]/records/preview/route";
import { POST as postRecords } from "@/app/api/v1/datasets/[name]/records/route";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { createApiToken } from "@/lib/server/users/tokens";
import { readResponse } from "@/lib/testing/api-response";
import { makeUser, uniqueName } from "@/lib/testing/factories";

let token: string;

beforeAll(async () => {
  const admin = await makeUser("ADMIN");
  token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "import-mapping" })).token;
});

function humanEvalLine(name: string, factor: number) {
  return JSON.stringify({
    task_id: `Sample/${name}`,
    prompt: `def ${name}(n: int) -> int:\n    """Return n times ${factor}."""\n`,
    canonical_solution: `    return n * ${factor}\n`,
    test: `def check(candidate):\n    assert candidate(2) == ${2 * factor}\n`,
    entry_point: name,
  });
}

function call(route: typeof postRecords, dataset: string, suffix: string, body: string, query: string) {
  const request = new Request(`http://localhost/api/v1/datasets/${dataset}/records${suffix}?${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
    body,
  });
  return route(request, { params: Promise.resolve({ name: dataset }) });
}

async function recordCount(dataset: string) {
  return prisma().record.count({ where: { dataset: { name: dataset } } });
}

describe("import with a mapping", () => {
  it("previews the first records without writing, then imports them", async () => {
    const dataset = uniqueName("map-humaneval");
    const body = ["twice", "thrice", "fourfold"].map((name, index) => humanEvalLine(name, index + 2)).join("\n");

    const preview = await call(postPreview, dataset, "/preview", body, "mapping=humaneval&limit=2");
    expect(preview.status).toBe(200);
    const shown = (await readResponse(preview, "POST", "/datasets/{name}/records/preview")) as {
      records: { line: number; language: string; canonicalSolution: string; fullTestFunc: string; extra: unknown }[];
      errors: unknown[];
      hasMore: boolean;
    };
    expect(shown.records.map((record) => record.line)).toEqual([1, 2]);
    expect(shown.records[0]).toMatchObject({
      language: "python",
      canonicalSolution: 'def twice(n: int) -> int:\n    """Return n times 2."""\n    return n * 2\n',
      fullTestFunc: "def check(candidate):\n    assert candidate(2) == 4\n\ncheck(twice)\n",
      extra: { task_id: "Sample/twice" },
    });
    expect(shown.errors).toEqual([]);
    expect(shown.hasMore).toBe(true);
    expect(await prisma().dataset.count({ where: { name: dataset } })).toBe(0);

    const imported = await call(postRecords, dataset, "", body, "mapping=humaneval");
    expect(imported.status).toBe(201);
    expect(await readResponse(imported, "POST", "/datasets/{name}/records")).toMatchObject({
      ok: true,
      imported: 3,
      byLanguage: { python: 3 },
    });
    const stored = await prisma().record.findFirstOrThrow({
      where: { dataset: { name: dataset }, line: 3 },
      select: { canonicalSolution: true, fullTestFunc: true, extra: true },
    });
    expect(stored.fullTestFunc).toBe("def check(candidate):\n    assert candidate(2) == 8\n\ncheck(fourfold)\n");
    expect(stored.extra).toEqual({ task_id: "Sample/fourfold" });
  });

  it("takes a mapping given as JSON", async () => {
    const dataset = uniqueName("map-json");
    const mapping = JSON.stringify({
      name: "ours",
      fields: {
        question: "statement",
        canonical_solution: "solution",
        demo_test_func: "tests",
        full_test_func: "tests",
        language: { text: "python" },
        difficulty: "level",
      },
    });
    const body = JSON.stringify({ statement: "s", solution: "x = 1", tests: ["assert x == 1"], level: "Easy" });
    const response = await call(postRecords, dataset, "", body, `mapping=${encodeURIComponent(mapping)}`);
    expect(response.status).toBe(201);
    const stored = await prisma().record.findFirstOrThrow({
      where: { dataset: { name: dataset } },
      select: { difficulty: true, fullTestFunc: true },
    });
    expect(stored).toEqual({ difficulty: "easy", fullTestFunc: "assert x == 1" });
  });

  it("imports nothing when a record lacks a mapped field, naming the line and the field", async () => {
    const dataset = uniqueName("map-missing");
    const { entry_point: _, ...broken } = JSON.parse(humanEvalLine("thrice", 3)) as Record<string, unknown>;
    const body = [humanEvalLine("twice", 2), JSON.stringify(broken)].join("\n");

    const preview = await call(postPreview, dataset, "/preview", body, "mapping=humaneval");
    expect(((await preview.json()) as { errors: unknown[] }).errors).toEqual([
      { line: 2, message: 'missing field "entry_point" (the "humaneval" mapping reads it for demo_test_func)' },
    ]);

    const response = await call(postRecords, dataset, "", body, "mapping=humaneval");
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      ok: false,
      imported: 0,
      errors: [
        { line: 2, message: 'missing field "entry_point" (the "humaneval" mapping reads it for demo_test_func)' },
      ],
    });
    expect(await recordCount(dataset)).toBe(0);
  });

  it("answers 422 to a bad mapping before reading the file, naming the mapping's bad path", async () => {
    const dataset = uniqueName("map-bad");
    const mapping = JSON.stringify({ name: "bad", fields: { question: "q" } });
    for (const [route, suffix] of [
      [postRecords, ""],
      [postPreview, "/preview"],
    ] as const) {
      const response = await call(
        route,
        dataset,
        suffix,
        humanEvalLine("twice", 2),
        `mapping=${encodeURIComponent(mapping)}`,
      );
      expect(response.status).toBe(422);
      const { error } = (await response.json()) as { error: { message: string; fieldErrors: { mapping: string[] } } };
      expect(error.fieldErrors.mapping).toContain(
        "fields.canonical_solution: missing: name the source field it comes from (or give its parts)",
      );
      expect(error.message).toMatch(/^The mapping is invalid: /);
    }
    const unknown = await call(postRecords, dataset, "", humanEvalLine("twice", 2), "mapping=humaneval-y");
    expect(unknown.status).toBe(422);
    expect(await prisma().dataset.count({ where: { name: dataset } })).toBe(0);
  });
});
