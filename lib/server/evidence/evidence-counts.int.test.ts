// The kept evidence counts (issue 36 item 4) against a recount from their sources, after every kind
// of write that feeds them: records inserted with and without each reason, their mutation score,
// flakiness and execution result written, critic verdicts and solutions inserted, updated and
// deleted, records moved between languages and datasets and deleted, campaign items added, removed
// and made gold, and two transactions writing at once. After each step: every record's and item's
// mask equals the reasons recomputed from the sources (the definition of lib/evidence/suspicion.ts,
// written here as SQL without the product's functions), every kept count row equals the recount per
// mask, and the dataset page's evidence-only total and the review page's four queue counts equal
// counting the matches as the code before the kept counts did — for an admin, and for a reviewer who
// holds records a campaign hides from them.
import { beforeAll, describe, expect, it } from "vitest";

import { CRITIC_READING_REASONS, EVIDENCE_REASONS, type EvidenceReason } from "@/lib/evidence/suspicion";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Actor } from "@/lib/server/auth/permissions";
import { combinations, plantEvidence } from "@/lib/testing/evidence";
import { chunks, holdItem, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { criticHiddenRecordWhere, evidenceHiddenRecordWhere } from "@/lib/server/auth/visibility";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { browseRecords } from "@/lib/server/records/records";
import { countEvidenceQueues } from "@/lib/server/review/evidence-queues";

let admin: Actor;
let reviewer: Actor;
const datasets: { name: string; id: string }[] = [];
let campaignId: string;
let hidingCampaignId: string;
const LANGUAGES = ["python", "javascript"];

// The reasons by their definition (lib/evidence/suspicion.ts evidenceReasonsOf), bit 2^k for
// EVIDENCE_REASONS[k]: weak tests (score below 0.5), flaky, solved by no model (a solution ran and
// none passed), critic and execution disagree (both known, different, the record not flaky).
const RECOUNT_MASKS = `
  SELECT r.id, r."datasetId", r.language,
         (CASE WHEN r."mutationScore" < 0.5 THEN 1 ELSE 0 END)
       + (CASE WHEN r.flaky IS TRUE THEN 2 ELSE 0 END)
       + (CASE WHEN EXISTS (SELECT 1 FROM "Solution" s WHERE s."recordId" = r.id AND s.passed IS NOT NULL)
                AND NOT EXISTS (SELECT 1 FROM "Solution" s WHERE s."recordId" = r.id AND s.passed IS TRUE)
               THEN 4 ELSE 0 END)
       + (CASE WHEN c."overallPass" IS NOT NULL AND r."executableValid" IS NOT NULL AND r.flaky IS NOT TRUE
                AND c."overallPass" <> r."executableValid" THEN 8 ELSE 0 END) AS mask
  FROM "Record" r LEFT JOIN "CriticVerdict" c ON c."recordId" = r.id
  WHERE r."datasetId" = ANY($1::text[])`;

type Row = { key: string; n: number };
const sorted = (rows: Row[]) => rows.map((row) => `${row.key}=${row.n}`).sort();

/** Every kept mask and count row of the test's datasets and campaigns equals the recount from the sources. */
async function expectKeptEqualsRecount() {
  const ids = datasets.map((dataset) => dataset.id);
  const wrongRecords = await prisma().$queryRawUnsafe<{ id: number; kept: number; mask: number }[]>(
    `SELECT m.id, r."evidenceReasons" AS kept, m.mask FROM (${RECOUNT_MASKS}) m JOIN "Record" r ON r.id = m.id
     WHERE r."evidenceReasons" <> m.mask`,
    ids,
  );
  expect(wrongRecords, "records whose kept mask is not their reasons").toEqual([]);
  const wrongItems = await prisma().$queryRawUnsafe<{ id: string; kept: number; mask: number }[]>(
    `SELECT i.id, i."evidenceReasons" AS kept, m.mask FROM (${RECOUNT_MASKS}) m JOIN "CampaignItem" i ON i."recordId" = m.id
     WHERE i."evidenceReasons" <> m.mask`,
    ids,
  );
  expect(wrongItems, "items whose kept mask is not their record's reasons").toEqual([]);

  const recountedRecords = await prisma().$queryRawUnsafe<Row[]>(
    `SELECT m."datasetId" || '/' || m.language || '/' || m.mask AS key, count(*)::int AS n
     FROM (${RECOUNT_MASKS}) m WHERE m.mask <> 0 GROUP BY m."datasetId", m.language, m.mask`,
    ids,
  );
  // The kept rows plus the deltas not folded yet, as the reads add them up.
  const keptRecords = await prisma().$queryRawUnsafe<Row[]>(
    `SELECT "datasetId" || '/' || language || '/' || reasons AS key, sum(n)::int AS n FROM (
       SELECT "datasetId", language, reasons, records AS n FROM "EvidenceCount" WHERE "datasetId" = ANY($1::text[])
       UNION ALL
       SELECT "datasetId", language, reasons, delta FROM "EvidenceCountDelta" WHERE "datasetId" = ANY($1::text[])
     ) kept GROUP BY "datasetId", language, reasons HAVING sum(n) <> 0`,
    ids,
  );
  expect(sorted(keptRecords)).toEqual(sorted(recountedRecords));

  const recountedItems = await prisma().$queryRawUnsafe<Row[]>(
    `SELECT i."campaignId" || '/' || i.language || '/' || m.mask AS key, count(*)::int AS n
     FROM (${RECOUNT_MASKS}) m JOIN "CampaignItem" i ON i."recordId" = m.id
     WHERE m.mask <> 0 AND NOT i.gold GROUP BY i."campaignId", i.language, m.mask`,
    ids,
  );
  const keptItems = await prisma().$queryRawUnsafe<Row[]>(
    `SELECT c."campaignId" || '/' || c.language || '/' || c.reasons AS key, sum(c.n)::int AS n FROM (
       SELECT "campaignId", language, reasons, items AS n FROM "CampaignEvidenceCount"
       UNION ALL
       SELECT "campaignId", language, reasons, delta FROM "CampaignEvidenceCountDelta"
     ) c JOIN "Campaign" k ON k.id = c."campaignId"
     WHERE k."datasetId" = ANY($1::text[]) GROUP BY c."campaignId", c.language, c.reasons HAVING sum(c.n) <> 0`,
    ids,
  );
  expect(sorted(keptItems)).toEqual(sorted(recountedItems));
  // Each reason shows somewhere, so equal counts are not equal emptiness.
  expect(recountedRecords.length).toBeGreaterThan(3);
}

/** How many delta rows the test's datasets and their campaigns hold, not folded yet. */
async function deltaRows(): Promise<number> {
  const ids = datasets.map((dataset) => dataset.id);
  const [row] = await prisma().$queryRawUnsafe<{ n: number }[]>(
    `SELECT ((SELECT count(*) FROM "EvidenceCountDelta" WHERE "datasetId" = ANY($1::text[]))
           + (SELECT count(*) FROM "CampaignEvidenceCountDelta" d JOIN "Campaign" k ON k.id = d."campaignId"
               WHERE k."datasetId" = ANY($1::text[])))::int AS n`,
    ids,
  );
  return row.n;
}

/**
 * Folds the deltas of the test's datasets and campaigns into the kept rows, as a read does past its
 * threshold: afterwards no delta row is left, and the kept rows alone equal the recount.
 */
async function expectFoldedEqualsRecount() {
  const ids = datasets.map((dataset) => dataset.id);
  const folded = await prisma().$queryRawUnsafe<{ folded: boolean }[]>(
    `SELECT verity_fold_evidence_counts(id) AS folded FROM "Dataset" WHERE id = ANY($1::text[])
     UNION ALL
     SELECT verity_fold_campaign_evidence_counts(id) FROM "Campaign" WHERE "datasetId" = ANY($1::text[])`,
    ids,
  );
  expect(folded.every((row) => row.folded)).toBe(true);
  expect(await deltaRows()).toBe(0);
  await expectKeptEqualsRecount();
}

/** The condition of each reason as the code before the kept counts wrote it (main's reasons.ts). */
function directCondition(reason: EvidenceReason, weakBelow: number): Prisma.RecordWhereInput {
  switch (reason) {
    case "weak_tests":
      return { mutationScore: { lt: weakBelow } };
    case "flaky":
      return { flaky: true };
    case "unsolved":
      return { solutions: { some: { passed: { not: null } }, none: { passed: true } } };
    case "critic_vs_execution":
      return {
        OR: [{ flaky: null }, { flaky: false }],
        AND: [
          {
            OR: [
              { critic: { overallPass: true }, executableValid: false },
              { critic: { overallPass: false }, executableValid: true },
            ],
          },
        ],
      };
  }
}

async function directWhere(actor: Actor, reason: EvidenceReason, weakBelow: number): Promise<Prisma.RecordWhereInput> {
  return {
    AND: [
      directCondition(reason, weakBelow),
      { NOT: evidenceHiddenRecordWhere(actor) },
      ...(CRITIC_READING_REASONS.includes(reason) ? [{ NOT: await criticHiddenRecordWhere(actor) }] : []),
    ],
  };
}

/** The dataset page's total and the review page's queue counts equal counting matches, per language and in all. */
async function expectPagesEqualDirect(actor: Actor, weakBelow = 0.5) {
  const dataset = datasets[0];
  for (const language of [undefined, ...LANGUAGES]) {
    const inLanguage = language ? { language } : {};
    const queues = await countEvidenceQueues({ actor, campaignId, filters: { ...inLanguage, weakBelow } });
    const direct: Record<string, number> = {};
    for (const reason of EVIDENCE_REASONS) {
      const where = await directWhere(actor, reason, weakBelow);
      direct[reason] = await prisma().campaignItem.count({
        where: { campaignId, gold: false, ...inLanguage, record: where },
      });
      const page = await browseRecords({
        actor,
        datasetName: dataset.name,
        filters: { evidence: reason, weakBelow, ...inLanguage },
        limit: 1,
      });
      const records = await prisma().record.count({
        where: { AND: [{ datasetId: dataset.id, ...inLanguage }, where] },
      });
      expect(page.total, `dataset page, ${reason}, ${language ?? "all languages"}`).toBe(records);
    }
    expect(queues, `review page, ${language ?? "all languages"}`).toEqual(direct);
  }
}

/** Kept counts (with their deltas, then folded) and both pages' counts equal the recount. */
async function expectAllCorrect() {
  await expectKeptEqualsRecount();
  await expectPagesEqualDirect(admin);
  await expectPagesEqualDirect(reviewer);
  await expectFoldedEqualsRecount();
  await expectPagesEqualDirect(reviewer);
}

async function recordsOf(datasetIndex: number, language?: string) {
  return prisma().record.findMany({
    where: { datasetId: datasets[datasetIndex].id, ...(language ? { language } : {}) },
    orderBy: { id: "asc" },
    select: { id: true, language: true },
  });
}

async function importDataset(prefix: string, count: number) {
  const name = uniqueName(prefix);
  await importRecords({
    actor: admin,
    datasetName: name,
    source: chunks(
      toJsonl(
        Array.from({ length: count }, (_, index) =>
          makeRecord(`${prefix}_${index}`, { language: LANGUAGES[index % LANGUAGES.length] }),
        ),
      ),
    ),
    skipInvalid: false,
    origin: "api",
  });
  const dataset = await prisma().dataset.findUniqueOrThrow({ where: { name }, select: { id: true } });
  datasets.push({ name, id: dataset.id });
}

async function newCampaign(datasetName: string, options: { blind: boolean; visibility?: "nothing" | "all" }) {
  return (
    await createCampaign({
      actor: admin,
      input: {
        dataset: datasetName,
        name: uniqueName("ec-c"),
        overlap: 1,
        agreementFraction: 0,
        finalRule: "consensus",
        leaseMinutes: 30,
        ...options,
      },
    })
  ).id;
}

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  reviewer = await makeUser("REVIEWER");
  const facts = combinations();
  await importDataset("ec", facts.length);
  await importDataset("ec-other", 12);
  // The campaigns exist before the evidence, so every item's mask follows its record's.
  campaignId = await newCampaign(datasets[0].name, { blind: false, visibility: "all" });
  hidingCampaignId = await newCampaign(datasets[0].name, { blind: true, visibility: "nothing" });
  const records = await recordsOf(0);
  await plantEvidence(records.map((record, index) => ({ id: record.id, facts: facts[index] })));
  const first = await prisma().campaignItem.findFirstOrThrow({
    where: { campaignId },
    orderBy: { position: "asc" },
    select: { id: true },
  });
  await prisma().campaignItem.update({ where: { id: first.id }, data: { gold: true } });
}, 240_000);

describe("kept evidence counts equal a recount from the sources", () => {
  it("after the import, the planted evidence and a gold item", async () => {
    await expectAllCorrect();
    // The weak-tests threshold other than the default counts matches; it agrees too.
    await expectPagesEqualDirect(reviewer, 0.8);
  }, 120_000);

  it("after records are inserted with and without each reason", async () => {
    const datasetId = datasets[0].id;
    const base = {
      datasetId,
      difficulty: "easy",
      question: "q",
      canonicalSolution: "",
      demoTestFunc: "",
      fullTestFunc: "",
    };
    const seeds = [
      { mutationScore: 0.1 },
      { flaky: true },
      { executableValid: false },
      { mutationScore: 0.2, flaky: true, executableValid: true },
      {},
      { mutationScore: 0.9, flaky: false },
    ];
    await prisma().record.create({
      data: { ...base, key: uniqueName("k"), line: 10_001, language: "python", ...seeds[0] },
    });
    await prisma().record.createMany({
      data: seeds.map((seed, index) => ({
        ...base,
        key: uniqueName("k"),
        line: 10_100 + index,
        language: LANGUAGES[index % 2],
        ...seed,
      })),
    });
    await expectAllCorrect();
  }, 120_000);

  it("after mutation scores, flakiness and execution results are written", async () => {
    const records = await recordsOf(0, "python");
    await prisma().record.updateMany({
      where: { id: { in: records.slice(0, 30).map((r) => r.id) } },
      data: { mutationScore: 0.3 },
    });
    await prisma().record.updateMany({
      where: { id: { in: records.slice(20, 50).map((r) => r.id) } },
      data: { mutationScore: null },
    });
    await prisma().record.updateMany({
      where: { id: { in: records.slice(40, 70).map((r) => r.id) } },
      data: { flaky: true },
    });
    await prisma().record.updateMany({
      where: { id: { in: records.slice(60, 90).map((r) => r.id) } },
      data: { flaky: false },
    });
    await prisma().record.updateMany({
      where: { id: { in: records.slice(80, 120).map((r) => r.id) } },
      data: { executableValid: false, verificationOutcome: "WRONG_ANSWER" },
    });
    await prisma().record.updateMany({
      where: { id: { in: records.slice(100, 140).map((r) => r.id) } },
      data: { executableValid: null },
    });
    for (const record of records.slice(140, 150))
      await prisma().record.update({
        where: { id: record.id },
        data: { executableValid: true, flaky: null, mutationScore: 0.49 },
      });
    await expectAllCorrect();
  }, 120_000);

  it("after critic verdicts are inserted, updated and deleted", async () => {
    const records = await recordsOf(0, "javascript");
    const ids = records.map((record) => record.id);
    await prisma().record.updateMany({
      where: { id: { in: ids.slice(0, 40) } },
      data: { executableValid: true, flaky: false },
    });
    await prisma().criticVerdict.deleteMany({ where: { recordId: { in: ids.slice(0, 40) } } });
    await expectKeptEqualsRecount();
    await prisma().criticVerdict.createMany({
      data: ids.slice(0, 40).map((recordId, index) => ({
        recordId,
        overallPass: index % 2 === 0,
        failedRules: [],
        keyPoints: [],
        raw: "{}",
      })),
    });
    await expectKeptEqualsRecount();
    await prisma().criticVerdict.updateMany({
      where: { recordId: { in: ids.slice(0, 20) } },
      data: { overallPass: false },
    });
    await prisma().criticVerdict.update({ where: { recordId: ids[21] }, data: { overallPass: true } });
    await prisma().criticVerdict.delete({ where: { recordId: ids[30] } });
    await expectAllCorrect();
  }, 120_000);

  it("after solutions are inserted, run, updated and deleted", async () => {
    const records = await recordsOf(0, "python");
    const ids = records.map((record) => record.id).slice(150, 190);
    await prisma().solution.deleteMany({ where: { recordId: { in: ids } } });
    await expectKeptEqualsRecount();
    // Waiting solutions count for nobody; then they run and fail: solved by no model.
    await prisma().solution.createMany({ data: ids.map((recordId) => ({ recordId, model: "m1", code: "" })) });
    await expectKeptEqualsRecount();
    await prisma().solution.updateMany({
      where: { recordId: { in: ids }, model: "m1" },
      data: { passed: false, outcome: "WRONG_ANSWER" },
    });
    await expectKeptEqualsRecount();
    // A second model solves half of them; then one passing solution is rerun and fails.
    await prisma().solution.createMany({
      data: ids.slice(0, 20).map((recordId) => ({ recordId, model: "m2", code: "", passed: true, outcome: "PASSED" })),
    });
    await prisma().solution.update({
      where: { recordId_model: { recordId: ids[0], model: "m2" } },
      data: { passed: false, outcome: "WRONG_ANSWER" },
    });
    await prisma().solution.update({
      where: { recordId_model: { recordId: ids[1], model: "m2" } },
      data: { passed: null, outcome: null },
    });
    await expectKeptEqualsRecount();
    await prisma().solution.deleteMany({ where: { recordId: { in: ids.slice(10, 30) }, model: "m1" } });
    await prisma().solution.delete({ where: { recordId_model: { recordId: ids[35], model: "m1" } } });
    await expectAllCorrect();
  }, 120_000);

  it("after records move between languages and datasets", async () => {
    const python = await recordsOf(0, "python");
    const withReasons = await prisma().record.findMany({
      where: { id: { in: python.map((record) => record.id) }, evidenceReasons: { not: 0 } },
      select: { id: true },
      take: 12,
    });
    expect(withReasons.length).toBe(12);
    await prisma().record.updateMany({
      where: { id: { in: withReasons.slice(0, 6).map((record) => record.id) } },
      data: { language: "javascript" },
    });
    // The product moves no record between datasets (nor languages): the triggers carry it anyway. A
    // campaign is over one dataset's records, so the moved records leave their campaigns first.
    await prisma().campaignItem.deleteMany({ where: { recordId: { in: [withReasons[6].id, withReasons[7].id] } } });
    await prisma().record.update({ where: { id: withReasons[6].id }, data: { datasetId: datasets[1].id } });
    // Moved and rescored in one statement.
    await prisma().record.update({
      where: { id: withReasons[7].id },
      data: { datasetId: datasets[1].id, language: "javascript", mutationScore: 0.05 },
    });
    // The item keeps its campaign but follows its record's language, as the product would write it.
    await prisma().campaignItem.updateMany({
      where: { recordId: { in: withReasons.slice(0, 6).map((record) => record.id) } },
      data: { language: "javascript" },
    });
    await expectAllCorrect();
  }, 120_000);

  it("after campaign items are removed, added and made gold or not", async () => {
    const items = await prisma().campaignItem.findMany({
      where: { campaignId, evidenceReasons: { not: 0 } },
      orderBy: { position: "asc" },
      select: { id: true, recordId: true, language: true },
    });
    await prisma().campaignItem.deleteMany({ where: { id: { in: items.slice(0, 10).map((item) => item.id) } } });
    await expectKeptEqualsRecount();
    const top = await prisma().campaignItem.aggregate({ where: { campaignId }, _max: { position: true } });
    await prisma().campaignItem.createMany({
      data: items.slice(0, 8).map((item, index) => ({
        campaignId,
        recordId: item.recordId,
        language: item.language,
        position: (top._max.position ?? 0) + 1 + index,
        target: 1,
        gold: index % 2 === 0,
      })),
    });
    await expectKeptEqualsRecount();
    await prisma().campaignItem.updateMany({
      where: { id: { in: items.slice(10, 20).map((item) => item.id) } },
      data: { gold: true },
    });
    await prisma().campaignItem.updateMany({
      where: { id: { in: items.slice(15, 18).map((item) => item.id) } },
      data: { gold: false },
    });
    // A gold item's record changes: the item's mask follows, the counts do not see it.
    await prisma().record.update({ where: { id: items[12].recordId }, data: { mutationScore: 0.01, flaky: true } });
    await expectAllCorrect();
  }, 120_000);

  it("after records are deleted (their verdicts, solutions and items go with them)", async () => {
    const records = await recordsOf(0);
    const withReasons = await prisma().record.findMany({
      where: { id: { in: records.map((record) => record.id) }, evidenceReasons: { not: 0 } },
      select: { id: true },
      take: 15,
    });
    await prisma().record.deleteMany({ where: { id: { in: withReasons.map((record) => record.id) } } });
    await prisma().record.delete({ where: { id: records[records.length - 1].id } });
    await expectAllCorrect();
  }, 120_000);

  it("for a reviewer holding records a campaign hides: the counts leave those out", async () => {
    // Items of the hiding campaign (evidence and critic hidden until labelled) whose records are in
    // each reason, held by the reviewer.
    const held: number[] = [];
    for (const reason of EVIDENCE_REASONS) {
      const item = await prisma().campaignItem.findFirstOrThrow({
        where: {
          campaignId: hidingCampaignId,
          record: directCondition(reason, 0.5),
          recordId: { notIn: held },
          assignments: { none: {} },
        },
        select: { id: true, recordId: true },
      });
      await holdItem({ userId: reviewer.id, itemId: item.id });
      held.push(item.recordId);
    }
    const adminCounts = await countEvidenceQueues({ actor: admin, campaignId, filters: {} });
    const reviewerCounts = await countEvidenceQueues({ actor: reviewer, campaignId, filters: {} });
    const heldInCampaign = await prisma().campaignItem.findMany({
      where: { campaignId, gold: false, recordId: { in: held } },
      select: { recordId: true },
    });
    expect(heldInCampaign.length).toBeGreaterThan(0);
    for (const reason of EVIDENCE_REASONS) {
      const heldInReason = await prisma().campaignItem.count({
        where: { campaignId, gold: false, recordId: { in: held }, record: directCondition(reason, 0.5) },
      });
      expect(reviewerCounts[reason], reason).toBe(adminCounts[reason] - heldInReason);
    }
    expect(Object.values(reviewerCounts).reduce((a, b) => a + b)).toBeLessThan(
      Object.values(adminCounts).reduce((a, b) => a + b),
    );
    await expectAllCorrect();
    // A held record's evidence changes while held: still left out, still equal to counting.
    await prisma().record.update({ where: { id: held[0] }, data: { flaky: true, mutationScore: 0.1 } });
    await expectAllCorrect();
  }, 120_000);
});

/** Sends a query, and once it has had time to reach the database (and perhaps wait there), calls `then`. */
async function startedThen<T>(query: PromiseLike<T>, then: () => void): Promise<T> {
  const running = Promise.resolve().then(() => query);
  await new Promise((resolve) => setTimeout(resolve, 300));
  then();
  return running;
}

describe("kept evidence counts under concurrent writers", () => {
  it("two transactions moving records of one dataset and language between masks at once", async () => {
    const records = (await recordsOf(0, "python")).map((record) => record.id);
    const first = records.slice(0, 40);
    const second = records.slice(40, 80);
    await Promise.all([
      prisma().$transaction(async (tx) => {
        for (const id of first) await tx.record.update({ where: { id }, data: { mutationScore: 0.2, flaky: null } });
        await tx.record.updateMany({ where: { id: { in: first.slice(0, 10) } }, data: { flaky: true } });
      }),
      prisma().$transaction(async (tx) => {
        for (const id of second) await tx.record.update({ where: { id }, data: { mutationScore: 0.2, flaky: null } });
        await tx.record.updateMany({ where: { id: { in: second.slice(0, 10) } }, data: { mutationScore: 0.9 } });
      }),
    ]);
    await expectKeptEqualsRecount();
  }, 120_000);

  it("two transactions writing solutions of the same record at once, each committing after both wrote", async () => {
    const [record] = await prisma().record.findMany({
      where: { datasetId: datasets[0].id, language: "python" },
      orderBy: { id: "desc" },
      take: 1,
      select: { id: true },
    });
    await prisma().solution.deleteMany({ where: { recordId: record.id } });
    // One model solves it, another fails it: solved by some model, in no reason. Each transaction
    // sees only its own solution until the other commits.
    let passedWritten!: () => void;
    const passedIn = new Promise<void>((resolve) => (passedWritten = resolve));
    let failedWritten!: () => void;
    const failedIn = new Promise<void>((resolve) => (failedWritten = resolve));
    await Promise.all([
      prisma().$transaction(async (tx) => {
        await tx.solution.create({
          data: { recordId: record.id, model: "c1", code: "", passed: true, outcome: "PASSED" },
        });
        passedWritten();
        await failedIn;
      }),
      prisma().$transaction(async (tx) => {
        await passedIn;
        // Waits for the other transaction only if that one locked the record: let it go on meanwhile.
        await startedThen(
          tx.solution.create({
            data: { recordId: record.id, model: "c2", code: "", passed: false, outcome: "WRONG_ANSWER" },
          }),
          failedWritten,
        );
      }),
    ]);
    await expectKeptEqualsRecount();
  }, 120_000);

  it("a critic verdict written while another transaction writes the record's execution result", async () => {
    const [record] = await prisma().record.findMany({
      where: { datasetId: datasets[0].id, language: "javascript", flaky: { not: true } },
      orderBy: { id: "desc" },
      take: 1,
      select: { id: true },
    });
    await prisma().criticVerdict.deleteMany({ where: { recordId: record.id } });
    await prisma().record.update({ where: { id: record.id }, data: { executableValid: null, flaky: false } });
    let verdictWritten!: () => void;
    const verdictIn = new Promise<void>((resolve) => (verdictWritten = resolve));
    let executionWritten!: () => void;
    const executionIn = new Promise<void>((resolve) => (executionWritten = resolve));
    await Promise.all([
      prisma().$transaction(async (tx) => {
        await tx.criticVerdict.create({
          data: { recordId: record.id, overallPass: true, failedRules: [], keyPoints: [], raw: "{}" },
        });
        verdictWritten();
        await executionIn;
      }),
      prisma().$transaction(async (tx) => {
        await verdictIn;
        // Waits for the verdict's transaction only if that one locked the record: let it go on meanwhile.
        await startedThen(
          tx.record.update({ where: { id: record.id }, data: { executableValid: false } }),
          executionWritten,
        );
      }),
    ]);
    await expectKeptEqualsRecount();
    expect(
      (await prisma().record.findUniqueOrThrow({ where: { id: record.id }, select: { evidenceReasons: true } }))
        .evidenceReasons & 8,
    ).toBe(8);
  }, 120_000);

  it("a campaign item added while another transaction writes its record's evidence", async () => {
    const item = await prisma().campaignItem.findFirstOrThrow({
      where: { campaignId, gold: false, record: { mutationScore: null, flaky: { not: true } } },
      orderBy: { position: "desc" },
    });
    await prisma().campaignItem.delete({ where: { id: item.id } });
    let scoreWritten!: () => void;
    const scoreIn = new Promise<void>((resolve) => (scoreWritten = resolve));
    let itemWritten!: () => void;
    const itemIn = new Promise<void>((resolve) => (itemWritten = resolve));
    await Promise.all([
      prisma().$transaction(async (tx) => {
        await tx.record.update({ where: { id: item.recordId }, data: { mutationScore: 0.1 } });
        scoreWritten();
        await itemIn;
      }),
      prisma().$transaction(async (tx) => {
        await scoreIn;
        const { id, campaignId: itemCampaignId, recordId, language, position, target } = item;
        await startedThen(
          tx.campaignItem.create({ data: { id, campaignId: itemCampaignId, recordId, language, position, target } }),
          itemWritten,
        );
      }),
    ]);
    await expectKeptEqualsRecount();
    expect(
      (await prisma().campaignItem.findUniqueOrThrow({ where: { id: item.id }, select: { evidenceReasons: true } }))
        .evidenceReasons & 1,
    ).toBe(1);
  }, 120_000);
});

/** A deterministic shuffle (a linear congruential generator seeded by `seed`), so a failure replays. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let index = out.length - 1; index > 0; index--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const other = state % (index + 1);
    [out[index], out[other]] = [out[other], out[index]];
  }
  return out;
}

/**
 * A meeting point for `parties` transactions, once per step: each waits until all have reached the
 * step or `patienceMs` has passed (a party blocked in the database never arrives; the others go on,
 * so a wait between them in the database shows as a deadlock, not as a hung test).
 */
function meetings(parties: number, patienceMs: number) {
  const arrived = new Map<number, number>();
  const waiting = new Map<number, (() => void)[]>();
  return (step: number) =>
    new Promise<void>((resolve) => {
      const count = (arrived.get(step) ?? 0) + 1;
      arrived.set(step, count);
      const resolvers = [...(waiting.get(step) ?? []), resolve];
      waiting.set(step, resolvers);
      if (count === parties) for (const release of resolvers) release();
      else setTimeout(resolve, patienceMs);
    });
}

describe("kept evidence counts under writers moving records between the same masks", () => {
  // Each move of a record between masks adds to one kept count and takes from another. Two
  // transactions that each move several records, of different records but between the same masks in
  // opposite orders, must not wait for each other on the counts (when the counts were rows updated in
  // place, one of them was aborted as a deadlock, 40P01).
  it("two transactions moving records between masks in opposite orders both commit", async () => {
    const [a, b, c, d] = (
      await prisma().record.findMany({
        where: { datasetId: datasets[0].id, language: "javascript", evidenceReasons: 0 },
        orderBy: { id: "asc" },
        take: 4,
        select: { id: true },
      })
    ).map((record) => record.id);
    let firstMoved!: () => void;
    const first = new Promise<void>((resolve) => (firstMoved = resolve));
    let secondMoved!: () => void;
    const second = new Promise<void>((resolve) => (secondMoved = resolve));
    const results = await Promise.allSettled([
      prisma().$transaction(async (tx) => {
        await tx.record.update({ where: { id: a }, data: { mutationScore: 0.1 } });
        firstMoved();
        await second;
        await tx.record.update({ where: { id: c }, data: { flaky: true } });
      }),
      prisma().$transaction(async (tx) => {
        await tx.record.update({ where: { id: b }, data: { flaky: true } });
        secondMoved();
        await first;
        await tx.record.update({ where: { id: d }, data: { mutationScore: 0.1 } });
      }),
    ]);
    expect(results.map((result) => (result.status === "rejected" ? String(result.reason) : "committed"))).toEqual([
      "committed",
      "committed",
    ]);
    await expectKeptEqualsRecount();
  }, 120_000);

  it("eight transactions each moving six records between four masks in a random order all commit", async () => {
    const WRITERS = 8;
    const MOVES = 6;
    const records = (
      await prisma().record.findMany({
        where: { datasetId: datasets[0].id, language: "python", evidenceReasons: 0 },
        orderBy: { id: "asc" },
        take: WRITERS * MOVES,
        select: { id: true },
      })
    ).map((record) => record.id);
    expect(records.length).toBe(WRITERS * MOVES);
    // Masks 1 (weak tests), 2 (flaky), 3 (both) and 0 (neither), set by the record's own columns.
    const toMask = [
      { mutationScore: null, flaky: null },
      { mutationScore: 0.1, flaky: null },
      { mutationScore: null, flaky: true },
      { mutationScore: 0.1, flaky: true },
    ];
    const meet = meetings(WRITERS, 1_000);
    const results = await Promise.allSettled(
      Array.from({ length: WRITERS }, (_, writer) =>
        prisma().$transaction(
          async (tx) => {
            const mine = shuffled(records.slice(writer * MOVES, (writer + 1) * MOVES), writer + 1);
            for (const [step, id] of mine.entries()) {
              await tx.record.update({ where: { id }, data: toMask[(writer + step) % toMask.length] });
              // Every writer holds what it moved so far while the others move theirs.
              await meet(step);
            }
          },
          { timeout: 60_000 },
        ),
      ),
    );
    expect(results.map((result) => (result.status === "rejected" ? String(result.reason) : "committed"))).toEqual(
      Array.from({ length: WRITERS }, () => "committed"),
    );
    await expectKeptEqualsRecount();
    expect(await deltaRows()).toBeGreaterThan(0);
    await expectFoldedEqualsRecount();
  }, 120_000);
});

describe("folding the kept counts' deltas", () => {
  it("a fold while a writer's transaction is open neither waits for it nor takes its deltas", async () => {
    await expectFoldedEqualsRecount();
    const records = (
      await prisma().record.findMany({
        where: { datasetId: datasets[0].id, language: "javascript", evidenceReasons: 0 },
        orderBy: { id: "desc" },
        take: 3,
        select: { id: true },
      })
    ).map((record) => record.id);
    expect(records.length).toBe(3);
    let moved!: () => void;
    const movedIn = new Promise<void>((resolve) => (moved = resolve));
    let foldedIt!: () => void;
    const foldedIn = new Promise<void>((resolve) => (foldedIt = resolve));
    const writer = prisma().$transaction(async (tx) => {
      await tx.record.updateMany({ where: { id: { in: records } }, data: { flaky: true } });
      moved();
      await foldedIn;
    });
    await movedIn;
    // The writer holds its delta rows uncommitted: the fold neither waits for them nor deletes them.
    const started = Date.now();
    await expectFoldedEqualsRecount();
    expect(Date.now() - started).toBeLessThan(10_000);
    foldedIt();
    await writer;
    expect(await deltaRows()).toBeGreaterThan(0);
    await expectKeptEqualsRecount();
    await expectFoldedEqualsRecount();
  }, 120_000);

  it("a count read that summed 1,000 delta rows or more folds them, and answers the same before and after", async () => {
    await expectFoldedEqualsRecount();
    const records = (await recordsOf(0)).map((record) => record.id);
    // Each record moved into weak tests, out and in again: two delta rows per move, per dataset and campaign.
    for (const mutationScore of [0.1, null, 0.1]) {
      await prisma().record.updateMany({ where: { id: { in: records } }, data: { mutationScore } });
    }
    expect(await deltaRows()).toBeGreaterThanOrEqual(1_000);
    const read = () =>
      browseRecords({ actor: admin, datasetName: datasets[0].name, filters: { evidence: "weak_tests" }, limit: 1 });
    const before = await read();
    const left = await prisma().evidenceCountDelta.count({ where: { datasetId: datasets[0].id } });
    expect(left).toBe(0);
    expect((await read()).total).toBe(before.total);
    // The review page's counts fold their campaign's deltas the same way.
    const queues = await countEvidenceQueues({ actor: admin, campaignId, filters: {} });
    expect(await prisma().campaignEvidenceCountDelta.count({ where: { campaignId } })).toBe(0);
    expect(await countEvidenceQueues({ actor: admin, campaignId, filters: {} })).toEqual(queues);
    await expectAllCorrect();
  }, 120_000);
});

describe("kept evidence counts of deleted campaigns and datasets", () => {
  it("go with them, and deleting them runs the count triggers without error", async () => {
    expect(await prisma().campaignEvidenceCount.count({ where: { campaignId: hidingCampaignId } })).toBeGreaterThan(0);
    await prisma().campaign.delete({ where: { id: hidingCampaignId } });
    expect(await prisma().campaignEvidenceCount.count({ where: { campaignId: hidingCampaignId } })).toBe(0);
    await expectKeptEqualsRecount();
    const [main, other] = datasets;
    expect(await prisma().evidenceCount.count({ where: { datasetId: other.id, records: { gt: 0 } } })).toBeGreaterThan(
      0,
    );
    await prisma().dataset.delete({ where: { id: other.id } });
    expect(await prisma().evidenceCount.count({ where: { datasetId: other.id } })).toBe(0);
    datasets.splice(0, datasets.length, main);
    await expectKeptEqualsRecount();
  }, 120_000);
});
