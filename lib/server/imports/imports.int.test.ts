// Integration tests of the import pipeline against the embedded PostgreSQL: all-or-nothing writes,
// duplicates, input formats, critic verdicts, and how bad files are reported.
import { gzipSync } from "node:zlib";

import { beforeAll, describe, expect, it } from "vitest";

import { recordKey } from "@/lib/records";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { prisma } from "@/lib/server/db/client";
import { findImportJob, type ImportProgress, importCriticFile, importRecords } from "@/lib/server/imports/imports";
import { getRecord, listRecords } from "@/lib/server/records/records";

let admin: Actor;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
});

async function* bytes(...parts: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield part;
}

/** Splits a buffer into small chunks, so lines and gzip members straddle chunk boundaries. */
async function* sliced(buffer: Uint8Array, size = 97): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < buffer.length; offset += size) yield buffer.subarray(offset, offset + size);
}

function importText(datasetName: string, text: string, skipInvalid = false) {
  return importRecords({ actor: admin, datasetName, source: chunks(text), skipInvalid, origin: "api" });
}

async function recordCount(datasetName: string): Promise<number> {
  return prisma().record.count({ where: { dataset: { name: datasetName } } });
}

async function datasetExists(datasetName: string): Promise<boolean> {
  return (await prisma().dataset.findUnique({ where: { name: datasetName }, select: { id: true } })) !== null;
}

async function allRecords(datasetName: string) {
  const { records } = await listRecords({ actor: admin, datasetName, filters: {}, limit: 500 });
  return records;
}

function records(prefix: string, count: number) {
  return Array.from({ length: count }, (_, i) => makeRecord(`${prefix}_${i}`));
}

const CRITIC_RESULT = {
  rule_results: [
    { rule: "naming/signature inconsistency", result: false, reason: "the statement never names add" },
    { rule: "non-executable tests", result: true, reason: "tests run" },
  ],
  summary: {
    overall_pass: false,
    failed_rules: ["naming/signature inconsistency"],
    key_points: ["function name missing from the statement"],
  },
};

describe("importRecords", () => {
  it("imports a JSONL file and, run again, counts every record as a duplicate and adds no rows", async () => {
    const name = uniqueName("idem");
    const text = toJsonl(records(name.replaceAll("-", "_"), 5));

    const first = await importText(name, text);
    expect(first).toMatchObject({
      ok: true,
      dataset: name,
      imported: 5,
      duplicates: 0,
      skipped: 0,
      errorCount: 0,
      errors: [],
    });
    expect(first.byLanguage).toEqual({ python: 5 });
    expect(await recordCount(name)).toBe(5);

    const second = await importText(name, text);
    expect(second).toMatchObject({ ok: true, imported: 0, duplicates: 5, errorCount: 0 });
    expect(second.byLanguage).toEqual({});
    expect(await recordCount(name)).toBe(5);
  });

  it("counts a record repeated inside one file once, as a duplicate", async () => {
    const name = uniqueName("repeat");
    const record = makeRecord(name.replaceAll("-", "_"));
    const summary = await importText(name, toJsonl([record, makeRecord(`${name.replaceAll("-", "_")}_b`), record]));
    expect(summary).toMatchObject({ ok: true, imported: 2, duplicates: 1 });
    expect(await recordCount(name)).toBe(2);
  });

  it("keeps the source line numbers and the content hash as the key", async () => {
    const name = uniqueName("lines");
    const [a, b] = records(name.replaceAll("-", "_"), 2);
    // A blank line in between still counts as a line.
    const summary = await importText(name, `${JSON.stringify(a)}\n\n${JSON.stringify(b)}\n`);
    expect(summary.imported).toBe(2);
    const stored = await allRecords(name);
    expect(stored.map((r) => r.line)).toEqual([1, 3]);
    expect(stored[0].key).toBe(
      recordKey({
        language: "python",
        question: a.question as string,
        canonicalSolution: a.canonical_solution as string,
        demoTestFunc: a.demo_test_func as string,
        fullTestFunc: a.full_test_func as string,
      }),
    );
  });

  it("imports nothing from a file with one bad line, and names the line and the reason", async () => {
    const name = uniqueName("onebad");
    const good = records(name.replaceAll("-", "_"), 4);
    const lines = [good[0], good[1], { ...good[2], language: "cobol" }, good[3]].map((r) => JSON.stringify(r));
    const recordsBefore = await prisma().record.count();

    const summary = await importText(name, lines.join("\n"));

    expect(summary.ok).toBe(false);
    expect(summary).toMatchObject({ imported: 0, duplicates: 0, skipped: 0, errorCount: 1 });
    expect(summary.errors).toHaveLength(1);
    expect(summary.errors[0].line).toBe(3);
    expect(summary.errors[0].message).toMatch(/unknown language "cobol"/);
    expect(summary.byLanguage).toEqual({});
    expect(await datasetExists(name)).toBe(false);
    expect(await prisma().record.count()).toBe(recordsBefore);
  });

  it("does not add to an existing dataset when the new file has a bad line", async () => {
    const name = uniqueName("keep");
    const seed = name.replaceAll("-", "_");
    await importText(name, toJsonl(records(seed, 2)));
    const summary = await importText(name, toJsonl([makeRecord(`${seed}_new`), { question: "no other fields" }]));
    expect(summary.ok).toBe(false);
    expect(summary.errors[0]).toMatchObject({
      line: 2,
      message: expect.stringMatching(/missing field "canonical_solution"/),
    });
    expect(await recordCount(name)).toBe(2);
  });

  it("with skipInvalid imports the valid records and counts the bad ones as skipped", async () => {
    const name = uniqueName("skip");
    const good = records(name.replaceAll("-", "_"), 3);
    const text = [
      JSON.stringify(good[0]),
      "{not json",
      JSON.stringify(good[1]),
      JSON.stringify({ ...good[2], difficulty: "impossible" }),
    ].join("\n");

    const summary = await importText(name, text, true);

    expect(summary).toMatchObject({ ok: true, imported: 2, duplicates: 0, skipped: 2, errorCount: 2 });
    expect(summary.errors.map((e) => e.line)).toEqual([2, 4]);
    expect(summary.errors[0].message).toMatch(/invalid JSON/);
    expect(summary.errors[1].message).toMatch(/unknown difficulty "impossible"/);
    expect((await allRecords(name)).map((r) => r.line)).toEqual([1, 3]);
    const job = await findImportJob({ actor: admin, jobId: summary.jobId });
    expect(job).toMatchObject({ status: "SUCCEEDED", imported: 2, skipped: 2 });
  });

  it("with skipInvalid and no valid record imports nothing and fails", async () => {
    const name = uniqueName("skipall");
    const summary = await importText(name, "{bad\n[1,2]\n", true);
    expect(summary).toMatchObject({ ok: false, imported: 0, errorCount: 2 });
    expect(await datasetExists(name)).toBe(false);
    expect((await findImportJob({ actor: admin, jobId: summary.jobId })).status).toBe("FAILED");
  });

  it("reads gzipped JSONL streamed in small chunks", async () => {
    const name = uniqueName("gzip");
    const gz = gzipSync(Buffer.from(toJsonl(records(name.replaceAll("-", "_"), 30))));
    const summary = await importRecords({
      actor: admin,
      datasetName: name,
      source: sliced(gz),
      skipInvalid: false,
      origin: "cli",
      fileName: "x.jsonl.gz",
    });
    expect(summary).toMatchObject({ ok: true, imported: 30, errorCount: 0 });
    expect(await recordCount(name)).toBe(30);
  });

  it("reads a JSON array, gzipped or not, with line numbers of each element", async () => {
    const name = uniqueName("array");
    const seed = name.replaceAll("-", "_");
    const text = `[\n${records(seed, 3)
      .map((r) => JSON.stringify(r))
      .join(",\n")}\n]\n`;
    const plain = await importText(name, text);
    expect(plain).toMatchObject({ ok: true, imported: 3 });
    expect((await allRecords(name)).map((r) => r.line)).toEqual([2, 3, 4]);

    const other = uniqueName("arraygz");
    const gz = gzipSync(Buffer.from(JSON.stringify(records(`${seed}_gz`, 4), null, 2)));
    const zipped = await importRecords({
      actor: admin,
      datasetName: other,
      source: sliced(gz, 13),
      skipInvalid: false,
      origin: "api",
    });
    expect(zipped).toMatchObject({ ok: true, imported: 4 });
  });

  it("keeps unknown fields verbatim in extra", async () => {
    const name = uniqueName("extra");
    const record = makeRecord(name.replaceAll("-", "_"), {
      index: 17,
      seed: "abc",
      tags: ["dp", "graphs"],
      meta: { source: "gen-v2", nested: { deep: null } },
    });
    const summary = await importText(name, toJsonl([record]));
    expect(summary.imported).toBe(1);

    const [listed] = await allRecords(name);
    const extra = {
      index: 17,
      seed: "abc",
      tags: ["dp", "graphs"],
      meta: { source: "gen-v2", nested: { deep: null } },
    };
    expect(listed.extra).toEqual(extra);
    expect((await getRecord({ actor: admin, id: listed.id })).extra).toEqual(extra);
    // Known fields are columns, not extra.
    expect(Object.keys(listed.extra)).not.toContain("question");
    expect(listed.difficulty).toBe("easy");
  });

  it("stores an embedded critic verdict and returns it with the record", async () => {
    const name = uniqueName("critic");
    const seed = name.replaceAll("-", "_");
    const withCritic = makeRecord(seed, {
      critic_result: JSON.stringify(CRITIC_RESULT),
      critic_reasoning: "The statement omits the function name.",
    });
    const withoutCritic = makeRecord(`${seed}_plain`);
    const summary = await importText(name, toJsonl([withCritic, withoutCritic]));
    expect(summary.imported).toBe(2);

    const [first, second] = await allRecords(name);
    expect(first.critic).toEqual({
      overallPass: false,
      failedRules: ["naming/signature inconsistency"],
      rules: [
        { rule: "naming/signature inconsistency", passed: false, reason: "the statement never names add" },
        { rule: "non-executable tests", passed: true, reason: "tests run" },
      ],
      keyPoints: ["function name missing from the statement"],
      reasoning: "The statement omits the function name.",
      raw: JSON.stringify(CRITIC_RESULT),
    });
    expect(second.critic).toBeNull();
    // Critic fields are not copied into extra.
    expect(first.extra).toEqual({});
    expect((await getRecord({ actor: admin, id: first.id })).critic?.overallPass).toBe(false);
  });

  it("calls the progress callback and records the job's progress", async () => {
    const name = uniqueName("progress");
    const text = toJsonl(records(name.replaceAll("-", "_"), 10));
    const seen: ImportProgress[] = [];
    const summary = await importRecords({
      actor: admin,
      datasetName: name,
      source: chunks(text),
      skipInvalid: false,
      origin: "web",
      bytesTotal: Buffer.byteLength(text),
      onProgress: (progress) => seen.push(progress),
    });
    expect(summary.ok).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    const last = seen[seen.length - 1];
    expect(last).toEqual({
      linesRead: 10,
      bytesRead: Buffer.byteLength(text),
      bytesTotal: Buffer.byteLength(text),
      imported: 10,
      errorCount: 0,
    });
    const job = await findImportJob({ actor: admin, jobId: summary.jobId });
    expect(job).toMatchObject({
      datasetName: name,
      status: "SUCCEEDED",
      linesRead: 10,
      bytesRead: Buffer.byteLength(text),
      bytesTotal: Buffer.byteLength(text),
      imported: 10,
      duplicates: 0,
    });
  });

  it("reports imported 0 in the last progress of a file rejected after a full batch went in", async () => {
    const name = uniqueName("lateerror");
    const seed = name.replaceAll("-", "_");
    // More than one batch of good records, so some were written (then rolled back) before the bad line.
    const text = toJsonl(records(seed, 1200)) + "{bad\n";
    const seen: ImportProgress[] = [];
    const summary = await importRecords({
      actor: admin,
      datasetName: name,
      source: chunks(text),
      skipInvalid: false,
      origin: "api",
      onProgress: (p) => seen.push(p),
    });
    expect(summary).toMatchObject({
      ok: false,
      imported: 0,
      errorCount: 1,
      errors: [{ line: 1201, message: expect.stringMatching(/invalid JSON/) }],
    });
    expect(seen[seen.length - 1]).toMatchObject({ linesRead: 1201, imported: 0, errorCount: 1 });
    expect(await datasetExists(name)).toBe(false);
    const job = await findImportJob({ actor: admin, jobId: summary.jobId });
    expect(job).toMatchObject({ status: "FAILED", imported: 0, linesRead: 1201 });
  });

  it("rethrows a failing source, writes nothing, and marks the job FAILED", async () => {
    const name = uniqueName("broken");
    const seed = name.replaceAll("-", "_");
    async function* broken(): AsyncGenerator<string> {
      yield toJsonl(records(seed, 3));
      throw new Error("socket hang up");
    }
    const error = await importRecords({
      actor: admin,
      datasetName: name,
      source: broken(),
      skipInvalid: true,
      origin: "api",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe("socket hang up");
    expect(await datasetExists(name)).toBe(false);
    const job = await prisma().importJob.findFirstOrThrow({
      where: { datasetName: name },
      select: { status: true, message: true, finishedAt: true },
    });
    expect(job.status).toBe("FAILED");
    expect(job.message).toMatch(/nothing was imported/);
    expect(job.finishedAt).not.toBeNull();
  });

  it("refuses a bad dataset name before writing anything", async () => {
    const jobsBefore = await prisma().importJob.count();
    const error = await importText("../etc", toJsonl([makeRecord("badname")])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("INVALID_INPUT");
    expect(await prisma().importJob.count()).toBe(jobsBefore);
  });
});

/** A record line with `field` set to raw JSON text, for values JSON.stringify cannot write (100,000 levels deep). */
function lineWithRawField(seed: string, field: string, json: string): string {
  return `${JSON.stringify(makeRecord(seed)).slice(0, -1)},${JSON.stringify(field)}:${json}}`;
}
const DEEP_ARRAY = "[".repeat(100_000) + "]".repeat(100_000);
const DEEP_OBJECT = '{"summary":'.repeat(100_000) + "{}" + "}".repeat(100_000);

describe("the audit events of imports", () => {
  it("commit with the records, by the importer (none for the system), and not for a rejected file", async () => {
    const datasetName = uniqueName("audited");
    await importText(datasetName, toJsonl([makeRecord(uniqueName("a"))]));
    await importRecords({
      actor: SYSTEM_ACTOR.cli,
      datasetName,
      source: chunks(toJsonl([makeRecord(uniqueName("b"))])),
      skipInvalid: false,
      origin: "cli",
    });
    await importText(datasetName, toJsonl([makeRecord(uniqueName("c")), { language: "python" }]));
    // A critic file naming an unknown record attaches nothing and leaves no event; a good one does.
    await importCriticFile({
      actor: admin,
      datasetName,
      source: chunks(toJsonl([{ key: "f".repeat(64), critic_result: CRITIC_RESULT }])),
    });
    await importCriticFile({
      actor: admin,
      datasetName,
      source: chunks(toJsonl([{ key: (await allRecords(datasetName))[0].key, critic_result: CRITIC_RESULT }])),
    });
    const datasetId = (await prisma().dataset.findUniqueOrThrow({ where: { name: datasetName }, select: { id: true } }))
      .id;
    const events = await prisma().auditEvent.findMany({
      where: { targetType: "Dataset", targetId: datasetId },
      orderBy: { createdAt: "asc" },
      select: { actorId: true, action: true, campaignId: true, after: true },
    });
    expect(events).toEqual([
      {
        actorId: admin.id,
        action: "dataset.import",
        campaignId: null,
        after: { origin: "api", fileName: null, imported: 1, duplicates: 0, skipped: 0 },
      },
      {
        actorId: null,
        action: "dataset.import",
        campaignId: null,
        after: { origin: "cli", fileName: null, imported: 1, duplicates: 0, skipped: 0 },
      },
      { actorId: admin.id, action: "dataset.import-critic", campaignId: null, after: { attached: 1 } },
    ]);
  });
});

describe("importRecords with bad input", () => {
  const big = "x".repeat(1024 * 1024 + 1);
  const cases: { label: string; source: () => AsyncIterable<Uint8Array | string>; line: number; message: RegExp }[] = [
    {
      label: "a malformed JSON line",
      source: () => chunks(`${JSON.stringify(makeRecord("mal_1"))}\n{"question": "x",\n`),
      line: 2,
      message: /^invalid JSON/,
    },
    {
      label: "a missing field",
      source: () => chunks(toJsonl([makeRecord("miss_1"), { ...makeRecord("miss_2"), full_test_func: undefined }])),
      line: 2,
      message: /missing field "full_test_func"/,
    },
    {
      label: "an unknown language",
      source: () => chunks(toJsonl([makeRecord("lang_1", { language: "cobol" })])),
      line: 1,
      message: /unknown language "cobol" \(expected one of python, cpp/,
    },
    {
      label: "an oversized field",
      source: () => chunks(toJsonl([makeRecord("big_1"), makeRecord("big_2", { canonical_solution: big })])),
      line: 2,
      message: /field "canonical_solution" is .* over the 1 MB limit/,
    },
    {
      label: "an oversized unknown field",
      source: () => chunks(toJsonl([makeRecord("bigx_1", { notes: big })])),
      line: 1,
      message: /field "notes" is .* over the 1 MB limit/,
    },
    { label: "an empty file", source: () => chunks(""), line: 0, message: /the file is empty/ },
    { label: "a file of blank lines", source: () => chunks("\n  \n\t\n"), line: 0, message: /the file is empty/ },
    {
      label: "binary garbage",
      source: () =>
        bytes(Uint8Array.from({ length: 600 }, (_, i) => (i * 37 + 11) % 256).map((b) => (b === 0x0a ? 0 : b))),
      line: 1,
      message: /not UTF-8 text/,
    },
    {
      label: "a truncated gzip file",
      source: () => {
        const gz = gzipSync(Buffer.from(toJsonl(Array.from({ length: 40 }, (_, i) => makeRecord(`trunc_${i}`)))));
        return sliced(gz.subarray(0, Math.floor(gz.length * 0.6)));
      },
      line: -1,
      message: /gzip data is truncated or corrupt/,
    },
    {
      label: "a record that is not an object",
      source: () => chunks(`${JSON.stringify(makeRecord("arr_1"))}\n[1, 2]\n`),
      line: 2,
      message: /must be a JSON object, got array/,
    },
    {
      label: "an empty code field",
      source: () => chunks(toJsonl([makeRecord("empty_1", { question: "   " })])),
      line: 1,
      message: /field "question" is empty/,
    },
    {
      label: "a NUL character in a code field",
      source: () => chunks(toJsonl([makeRecord("nul_1"), makeRecord("nul_2", { question: "a\u0000b" })])),
      line: 2,
      message: /^field "question" contains a NUL character/,
    },
    {
      label: "a NUL character in an unknown field",
      source: () => chunks(toJsonl([makeRecord("nulx_1", { meta: { tags: ["\u0000"] } })])),
      line: 1,
      message: /^field "meta.tags\[0\]" contains a NUL character/,
    },
    {
      label: "a NUL character in an unknown field's key",
      source: () => chunks(toJsonl([makeRecord("nulk_1", { meta: { "a\u0000": 1 } })])),
      line: 1,
      message: /^field "meta" has a key with a NUL character/,
    },
    {
      label: "a NUL character in critic_result",
      source: () => chunks(toJsonl([makeRecord("nulc_1", { critic_result: "fail\u0000" })])),
      line: 1,
      message: /^field "critic_result" contains a NUL character/,
    },
    {
      label: "a NUL character inside the critic's JSON text",
      source: () =>
        chunks(
          toJsonl([
            makeRecord("nulj_1", {
              critic: JSON.stringify({ summary: { overall_pass: false, key_points: ["\u0000"] } }),
            }),
          ]),
        ),
      line: 1,
      message: /^the critic output holds JSON text with a NUL character/,
    },
    {
      label: "an unpaired surrogate in an unknown field",
      source: () => chunks(toJsonl([makeRecord("sur_1", { notes: "\ud800" })])),
      line: 1,
      message: /^field "notes" contains an unpaired surrogate/,
    },
    {
      label: "an unknown field nested 100,000 deep",
      source: () =>
        chunks(`${JSON.stringify(makeRecord("deep_1"))}\n${lineWithRawField("deep_2", "samples", DEEP_ARRAY)}\n`),
      line: 2,
      message: /^nested deeper than 64 levels/,
    },
    {
      label: "a critic_result nested 100,000 deep",
      source: () => chunks(`${lineWithRawField("deepc_1", "critic_result", DEEP_OBJECT)}\n`),
      line: 1,
      message: /^nested deeper than 64 levels/,
    },
  ];

  for (const testCase of cases) {
    it(`reports ${testCase.label} by line, writes nothing, and marks the job FAILED`, async () => {
      const name = uniqueName("bad");
      const recordsBefore = await prisma().record.count();
      const summary = await importRecords({
        actor: admin,
        datasetName: name,
        source: testCase.source(),
        skipInvalid: false,
        origin: "api",
      });

      expect(summary.ok).toBe(false);
      expect(summary.imported).toBe(0);
      expect(summary.errorCount).toBeGreaterThanOrEqual(1);
      const error = summary.errors.find((e) => testCase.message.test(e.message));
      expect(error, JSON.stringify(summary.errors)).toBeDefined();
      if (testCase.line >= 0) expect(error!.line).toBe(testCase.line);
      else expect(error!.line).toBeGreaterThan(1);
      expect(await datasetExists(name)).toBe(false);
      expect(await prisma().record.count()).toBe(recordsBefore);

      const job = await findImportJob({ actor: admin, jobId: summary.jobId });
      expect(job.status).toBe("FAILED");
      expect(job.message).toBeTruthy();
      expect(job.errors).toEqual(
        expect.arrayContaining([expect.objectContaining({ line: error!.line, message: error!.message })]),
      );
    });
  }

  it("with skipInvalid skips lines with a NUL character or deep nesting, names them, and imports the rest", async () => {
    const name = uniqueName("nulskip");
    const seed = name.replaceAll("-", "_");
    const text = [
      JSON.stringify(makeRecord(`${seed}_a`)),
      JSON.stringify(makeRecord(`${seed}_b`, { notes: "x\u0000" })),
      lineWithRawField(`${seed}_c`, "critic_result", DEEP_OBJECT),
      JSON.stringify(makeRecord(`${seed}_d`, { critic_reasoning: "\u0000" })),
      lineWithRawField(`${seed}_e`, "samples", DEEP_ARRAY),
      JSON.stringify(makeRecord(`${seed}_f`)),
    ].join("\n");
    const summary = await importText(name, text, true);
    expect(summary).toMatchObject({ ok: true, imported: 2, skipped: 4, errorCount: 4 });
    expect(summary.errors).toEqual([
      { line: 2, message: 'field "notes" contains a NUL character (\\u0000), which cannot be stored' },
      { line: 3, message: "nested deeper than 64 levels of arrays and objects" },
      { line: 4, message: 'field "critic_reasoning" contains a NUL character (\\u0000), which cannot be stored' },
      { line: 5, message: "nested deeper than 64 levels of arrays and objects" },
    ]);
    expect((await allRecords(name)).map((r) => r.line)).toEqual([1, 6]);
    expect(await findImportJob({ actor: admin, jobId: summary.jobId })).toMatchObject({
      status: "SUCCEEDED",
      skipped: 4,
      errors: summary.errors,
    });
  });

  it('never stores a critic answer as "[object Object]": objects are kept as their JSON text', async () => {
    const name = uniqueName("criticobj");
    const summary = await importText(
      name,
      toJsonl([makeRecord(name.replaceAll("-", "_"), { critic_result: CRITIC_RESULT })]),
    );
    expect(summary.imported).toBe(1);
    const [stored] = await allRecords(name);
    expect(stored.critic).toMatchObject({ overallPass: false, raw: JSON.stringify(CRITIC_RESULT) });
  });

  it("imports the whole lines read before a truncated gzip file ended, when skipInvalid is set", async () => {
    const name = uniqueName("truncskip");
    const gz = gzipSync(
      Buffer.from(toJsonl(Array.from({ length: 40 }, (_, i) => makeRecord(`${name.replaceAll("-", "_")}_${i}`)))),
    );
    const summary = await importRecords({
      actor: admin,
      datasetName: name,
      source: sliced(gz.subarray(0, Math.floor(gz.length * 0.6))),
      skipInvalid: true,
      origin: "api",
    });
    expect(summary.ok).toBe(true);
    expect(summary.imported).toBeGreaterThan(0);
    expect(summary.imported).toBeLessThan(40);
    expect(summary.skipped).toBe(1);
    expect(await recordCount(name)).toBe(summary.imported);
  });
});

describe("importCriticFile", () => {
  async function dataset(count: number) {
    const name = uniqueName("cf");
    const seed = name.replaceAll("-", "_");
    const input = records(seed, count);
    const summary = await importText(name, toJsonl(input));
    expect(summary.imported).toBe(count);
    return { name, stored: await allRecords(name) };
  }

  it("attaches verdicts by source line number", async () => {
    const { name, stored } = await dataset(3);
    const file = toJsonl([
      { line: 1, critic_result: CRITIC_RESULT, critic_reasoning: "first" },
      {
        line: 3,
        critic:
          "```json\n" + JSON.stringify({ summary: { overall_pass: true, failed_rules: [], key_points: [] } }) + "\n```",
      },
    ]);
    const summary = await importCriticFile({ actor: admin, datasetName: name, source: chunks(file) });
    expect(summary).toEqual({ dataset: name, ok: true, attached: 2, errorCount: 0, errors: [] });

    const after = await allRecords(name);
    expect(after[0].critic).toMatchObject({
      overallPass: false,
      failedRules: ["naming/signature inconsistency"],
      reasoning: "first",
      keyPoints: ["function name missing from the statement"],
    });
    expect(after[1].critic).toBeNull();
    expect(after[2].critic).toMatchObject({ overallPass: true, failedRules: [], reasoning: null });
    expect(after[2].critic?.raw).toContain("overall_pass");
    expect(after.map((r) => r.id)).toEqual(stored.map((r) => r.id));
  });

  it("attaches verdicts by content hash, replacing an earlier verdict", async () => {
    const { name, stored } = await dataset(2);
    const first = await importCriticFile({
      actor: admin,
      datasetName: name,
      source: chunks(toJsonl([{ key: stored[1].key, critic_result: CRITIC_RESULT }])),
    });
    expect(first).toMatchObject({ ok: true, attached: 1 });
    expect((await getRecord({ actor: admin, id: stored[1].id })).critic?.overallPass).toBe(false);

    const pass = { summary: { overall_pass: true, failed_rules: [], key_points: ["fine"] } };
    const second = await importCriticFile({
      actor: admin,
      datasetName: name,
      source: chunks(toJsonl([{ hash: stored[1].key.toUpperCase(), ...pass }])),
    });
    expect(second).toMatchObject({ ok: true, attached: 1 });
    const record = await getRecord({ actor: admin, id: stored[1].id });
    expect(record.critic).toMatchObject({ overallPass: true, failedRules: [], keyPoints: ["fine"] });
    expect((await getRecord({ actor: admin, id: stored[0].id })).critic).toBeNull();
  });

  it("attaches nothing when one line names an unknown key", async () => {
    const { name, stored } = await dataset(2);
    const file = toJsonl([
      { key: stored[0].key, critic_result: CRITIC_RESULT },
      { key: "0".repeat(64), critic_result: CRITIC_RESULT },
    ]);
    const summary = await importCriticFile({ actor: admin, datasetName: name, source: chunks(file) });
    expect(summary).toMatchObject({ ok: false, attached: 0, errorCount: 1 });
    expect(summary.errors).toEqual([{ line: 2, message: expect.stringMatching(/no record with hash 000000000000/) }]);
    for (const record of await allRecords(name)) expect(record.critic).toBeNull();
  });

  it("attaches nothing when a line names a record line that does not exist, or cannot be read", async () => {
    const { name } = await dataset(2);
    const file = [
      JSON.stringify({ line: 1, critic_result: CRITIC_RESULT }),
      JSON.stringify({ line: 9, critic_result: CRITIC_RESULT }),
      "{oops",
      JSON.stringify({ critic_result: "x", line: -2 }),
    ].join("\n");
    const summary = await importCriticFile({ actor: admin, datasetName: name, source: chunks(file) });
    expect(summary.ok).toBe(false);
    expect(summary.attached).toBe(0);
    expect(summary.errors.map((e) => e.line).sort()).toEqual([2, 3, 4]);
    expect(summary.errors.find((e) => e.line === 2)?.message).toMatch(/no record from line 9/);
    expect(summary.errors.find((e) => e.line === 3)?.message).toMatch(/invalid JSON/);
    expect(summary.errors.find((e) => e.line === 4)?.message).toMatch(/"line" must be a positive integer/);
    for (const record of await allRecords(name)) expect(record.critic).toBeNull();
  });

  it("refuses a line number shared by records from two files of one dataset", async () => {
    const name = uniqueName("cfmulti");
    const seed = name.replaceAll("-", "_");
    await importText(name, toJsonl(records(`${seed}_a`, 2)));
    await importText(name, toJsonl(records(`${seed}_b`, 2)));
    const summary = await importCriticFile({
      actor: admin,
      datasetName: name,
      source: chunks(toJsonl([{ line: 1, critic_result: CRITIC_RESULT }])),
    });
    expect(summary).toMatchObject({ ok: false, attached: 0, errorCount: 1 });
    expect(summary.errors[0]).toMatchObject({ line: 1, message: expect.stringMatching(/line 1 matches 2 records/) });
    for (const record of await allRecords(name)) expect(record.critic).toBeNull();

    // Addressed by key, the same verdict attaches to exactly one of them.
    const target = (await allRecords(name))[2];
    const byKey = await importCriticFile({
      actor: admin,
      datasetName: name,
      source: chunks(toJsonl([{ key: target.key, critic_result: CRITIC_RESULT }])),
    });
    expect(byKey).toMatchObject({ ok: true, attached: 1 });
    expect((await allRecords(name)).map((r) => r.critic?.overallPass ?? null)).toEqual([null, null, false, null]);
  });

  it("reports a critic line with a NUL character by line and attaches nothing", async () => {
    const { name } = await dataset(2);
    const file = toJsonl([
      { line: 1, critic_result: CRITIC_RESULT },
      { line: 2, critic: JSON.stringify({ summary: { overall_pass: false, key_points: ["a\u0000"] } }) },
    ]);
    const summary = await importCriticFile({ actor: admin, datasetName: name, source: chunks(file) });
    expect(summary).toMatchObject({
      ok: false,
      attached: 0,
      errorCount: 1,
      errors: [{ line: 2, message: expect.stringMatching(/NUL character/) }],
    });
    expect((await allRecords(name)).map((r) => r.critic)).toEqual([null, null]);
  });

  it("answers NOT_FOUND for an unknown dataset", async () => {
    const error = await importCriticFile({ actor: admin, datasetName: uniqueName("nope"), source: chunks("{}") }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("NOT_FOUND");
  });
});
