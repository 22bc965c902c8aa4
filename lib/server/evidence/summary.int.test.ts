// What a finished evidence batch reports (`verity evidence --json`, bench:mutation): the counts per
// language against a recomputation from the results written, with no sandbox (the results are
// stored as a worker stores them).
import { describe, expect, it } from "vitest";

import { prisma } from "@/lib/server/db/client";
import { listRecords } from "@/lib/server/records/records";
import { importRecords } from "@/lib/server/imports/imports";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import {
  getEvidenceProgress,
  type MutationResult,
  openEvidenceBatch,
  summarizeEvidenceBatch,
  writeFlakyCheck,
  writeMutationAnalysis,
} from "./batches";

function analysis(counts: { generated: number; viable: number; killed: number }): MutationResult {
  return {
    requested: 4,
    ...counts,
    demoKilled: counts.killed,
    fullKilled: counts.killed,
    stillborn: counts.generated - counts.viable,
    score: counts.viable > 0 ? counts.killed / counts.viable : null,
    notApplicable: counts.generated === 0 ? "the operators found nothing to change in the solution" : null,
    mutants: [],
  };
}

describe("evidence batch summary", () => {
  it("counts mutants, viable, killed, stillborn, the mean score and flaky records per language", async () => {
    const admin = await makeUser("ADMIN");
    const datasetName = uniqueName("evsum");
    const seed = datasetName.replaceAll("-", "_");
    const summary = await importRecords({
      actor: admin,
      datasetName,
      source: chunks(
        toJsonl([
          makeRecord(`${seed}_a`),
          makeRecord(`${seed}_b`),
          makeRecord(`${seed}_c`, { language: "javascript", canonical_solution: "const c = 1;\n" }),
        ]),
      ),
      skipInvalid: false,
      origin: "api",
    });
    expect(summary.ok).toBe(true);
    const [a, b, c] = await prisma().record.findMany({
      where: { dataset: { name: datasetName } },
      orderBy: { line: "asc" },
      select: { id: true },
    });
    const batch = await openEvidenceBatch({ actor: admin, datasetName, mutants: 4, repeat: 3 });
    expect(batch.total).toBe(6);

    const results = new Map([
      [a.id, { language: "python", result: analysis({ generated: 4, viable: 3, killed: 1 }), flaky: true }],
      [b.id, { language: "python", result: analysis({ generated: 4, viable: 4, killed: 4 }), flaky: false }],
      [c.id, { language: "javascript", result: analysis({ generated: 0, viable: 0, killed: 0 }), flaky: null }],
    ]);
    for (const [recordId, { result, flaky }] of results) {
      await writeMutationAnalysis({ actor: admin, batchId: batch.batchId, recordId, result });
      await writeFlakyCheck({ actor: admin, batchId: batch.batchId, recordId, repeats: 3, outcomes: [], flaky });
    }
    expect((await getEvidenceProgress({ actor: admin, batchId: batch.batchId })).status).toBe("SUCCEEDED");

    // The same figures recomputed from what was written.
    const expected = (language: string) => {
      const rows = [...results.values()].filter((row) => row.language === language);
      const scores = rows.flatMap((row) => (row.result.score === null ? [] : [row.result.score]));
      const sum = (pick: (row: (typeof rows)[number]) => number) => rows.reduce((total, row) => total + pick(row), 0);
      return {
        records: rows.length,
        mutants: sum((row) => row.result.generated),
        viable: sum((row) => row.result.viable),
        killed: sum((row) => row.result.killed),
        stillborn: sum((row) => row.result.stillborn),
        measured: scores.length,
        meanScore: scores.length > 0 ? scores.reduce((x, y) => x + y, 0) / scores.length : null,
        weak: scores.filter((score) => score < 0.5).length,
        flaky: rows.filter((row) => row.flaky === true).length,
      };
    };
    const found = await summarizeEvidenceBatch({ actor: admin, batchId: batch.batchId, weakBelow: 0.5 });
    expect(found.byLanguage.python).toEqual({ ...expected("python"), meanScore: expect.closeTo(2 / 3, 10) });
    expect(found.byLanguage.javascript).toEqual(expected("javascript"));
    expect(found).toMatchObject({
      records: 3,
      measured: 2,
      mutants: 8,
      viable: 7,
      killed: 5,
      stillborn: 1,
      weak: 1,
      flaky: 1,
      stable: 1,
    });
    expect(found.meanScore).toBeCloseTo(2 / 3, 10);
  });

  it("counts a record weak by its real survivors: likely-equivalent ones are out of its score, its filter and the summary", async () => {
    const admin = await makeUser("ADMIN");
    const datasetName = uniqueName("eveq");
    const seed = datasetName.replaceAll("-", "_");
    await importRecords({
      actor: admin,
      datasetName,
      source: chunks(toJsonl([makeRecord(`${seed}_a`), makeRecord(`${seed}_b`)])),
      skipInvalid: false,
      origin: "api",
    });
    const [a, b] = await prisma().record.findMany({
      where: { dataset: { name: datasetName } },
      orderBy: { line: "asc" },
      select: { id: true },
    });
    const batch = await openEvidenceBatch({ actor: admin, datasetName, mutants: 4, repeat: 0 });
    // Both kill 1 of 4 viable mutants (0.25); in the first, 2 of the 3 survivors are likely equivalent.
    await writeMutationAnalysis({
      actor: admin,
      batchId: batch.batchId,
      recordId: a.id,
      result: { ...analysis({ generated: 4, viable: 4, killed: 1 }), likelyEquivalent: 2 },
    });
    await writeMutationAnalysis({
      actor: admin,
      batchId: batch.batchId,
      recordId: b.id,
      result: analysis({ generated: 4, viable: 4, killed: 1 }),
    });
    const scores = await prisma().record.findMany({
      where: { id: { in: [a.id, b.id] } },
      orderBy: { line: "asc" },
      select: { mutationScore: true },
    });
    expect(scores.map((row) => row.mutationScore)).toEqual([0.5, 0.25]);
    const { records } = await listRecords({
      actor: admin,
      datasetName,
      filters: { evidence: "weak_tests", weakBelow: 0.5 },
      limit: 10,
    });
    expect(records.map((record) => record.id)).toEqual([b.id]);
    expect(await summarizeEvidenceBatch({ actor: admin, batchId: batch.batchId, weakBelow: 0.5 })).toMatchObject({
      weak: 1,
    });
  });
});
