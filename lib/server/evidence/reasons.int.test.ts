// Where people should look, on a real database: the dataset's evidence filters (REST, keyset-paged)
// find exactly the records lib/evidence/suspicion.ts puts in each reason, across every combination
// of the evidence a record can carry; the SQL suspicion score equals the pure one; and an annotator
// neither filters by the critic beside execution nor finds evidence a campaign hides from them.
import { beforeAll, describe, expect, it } from "vitest";

import { GET as listRecordsRoute } from "@/app/api/v1/datasets/[name]/records/route";
import {
  EVIDENCE_REASONS,
  evidenceReasonsOf,
  type EvidenceReason,
  type SuspicionFacts,
  suspicionScore,
} from "@/lib/evidence/suspicion";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { readResponse } from "@/lib/testing/api-response";
import { combinations, plantEvidence as plant } from "@/lib/testing/evidence";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { createApiToken } from "@/lib/server/users/tokens";

let admin: Actor;
let adminToken: string;
let dataset: string;
/** Every record of the dataset with the evidence it was given. */
let planted: { id: number; facts: SuspicionFacts }[];

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  adminToken = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "reasons" })).token;
  dataset = uniqueName("look");
  const facts = combinations();
  const summary = await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl(facts.map((_, index) => makeRecord(`look_${index}`)))),
    skipInvalid: false,
    origin: "api",
  });
  expect(summary.ok).toBe(true);
  const records = await prisma().record.findMany({
    where: { dataset: { name: dataset } },
    orderBy: { line: "asc" },
    select: { id: true },
  });
  planted = records.map((record, index) => ({ id: record.id, facts: facts[index] }));
  await plant(planted);
}, 240_000);

function get(token: string, query: string) {
  return listRecordsRoute(
    new Request(`http://localhost/api/v1/datasets/${dataset}/records?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    }),
    { params: Promise.resolve({ name: dataset }) },
  );
}

/** Every id the filter lists, walking the pages by cursor. */
async function walk(token: string, query: string): Promise<number[]> {
  const ids: number[] = [];
  let cursor: number | null = null;
  do {
    const response = await get(token, `${query}&limit=37${cursor ? `&cursor=${cursor}` : ""}`);
    expect(response.status).toBe(200);
    const page = (await readResponse(response, "GET", "/datasets/{name}/records")) as {
      records: { id: number }[];
      nextCursor: number | null;
    };
    ids.push(...page.records.map((record) => record.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

const expected = (reason: EvidenceReason, weakBelow?: number) =>
  planted.filter((record) => evidenceReasonsOf(record.facts, weakBelow).includes(reason)).map((record) => record.id);

describe("the dataset's evidence filters", () => {
  for (const reason of EVIDENCE_REASONS)
    it(`${reason}: lists exactly the records the rule puts there, in id order, page by page`, async () => {
      const ids = await walk(adminToken, `evidence=${reason}`);
      expect(expected(reason).length).toBeGreaterThan(0);
      expect(ids).toEqual(expected(reason));
    }, 60_000);

  it("weak tests take the threshold given (0.8 adds the 0.5 and 0.75 scores)", async () => {
    const ids = await walk(adminToken, "evidence=weak_tests&weakBelow=0.8");
    expect(ids).toEqual(expected("weak_tests", 0.8));
    expect(ids.length).toBeGreaterThan(expected("weak_tests").length);
  }, 60_000);

  it("combine with the other filters", async () => {
    const ids = await walk(adminToken, "evidence=unsolved&critic=fail");
    expect(ids).toEqual(
      planted
        .filter((record) => record.facts.criticPass === false && evidenceReasonsOf(record.facts).includes("unsolved"))
        .map((record) => record.id),
    );
  }, 60_000);

  it("refuse a reason or threshold they do not know with 422, not a 500", async () => {
    expect((await get(adminToken, "evidence=suspicious")).status).toBe(422);
    expect((await get(adminToken, "evidence=weak_tests&weakBelow=2")).status).toBe(422);
    expect((await get(adminToken, "evidence=weak_tests&weakBelow=low")).status).toBe(422);
  });
});

describe("who may look", () => {
  it("an annotator may not filter by the critic beside execution (403); a reviewer may", async () => {
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    const reviewer = await makeUser("REVIEWER");
    await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("look-c"),
        perLanguage: 1,
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const annotatorToken = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: annotator.id, name: "a" })).token;
    const reviewerToken = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: reviewer.id, name: "r" })).token;
    expect((await get(annotatorToken, "evidence=critic_vs_execution")).status).toBe(403);
    expect((await get(annotatorToken, "evidence=weak_tests")).status).toBe(200);
    expect(await walk(reviewerToken, "evidence=critic_vs_execution")).toEqual(expected("critic_vs_execution"));
  }, 60_000);

  it("an annotator finds no record whose evidence a campaign hides from them until their first label", async () => {
    const hiddenDataset = uniqueName("look-h");
    await importRecords({
      actor: admin,
      datasetName: hiddenDataset,
      source: chunks(toJsonl([makeRecord(`lookh_${hiddenDataset.slice(-8)}`)])),
      skipInvalid: false,
      origin: "api",
    });
    const record = await prisma().record.findFirstOrThrow({ where: { dataset: { name: hiddenDataset } } });
    await plant([{ id: record.id, facts: { ...combinations()[0], mutationScore: 0.1, flaky: true } }]);
    await createCampaign({
      actor: admin,
      input: {
        dataset: hiddenDataset,
        name: uniqueName("look-n"),
        overlap: 1,
        agreementFraction: 0,
        blind: true,
        visibility: "nothing",
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    const token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: annotator.id, name: "h" })).token;
    const list = (query: string) =>
      listRecordsRoute(
        new Request(`http://localhost/api/v1/datasets/${hiddenDataset}/records?${query}`, {
          headers: { authorization: `Bearer ${token}` },
        }),
        { params: Promise.resolve({ name: hiddenDataset }) },
      ).then((response) => response.json() as Promise<{ records: { id: number }[] }>);
    expect((await list("")).records.map((row) => row.id)).toEqual([record.id]);
    expect((await list("evidence=weak_tests")).records).toEqual([]);
    expect((await list("evidence=flaky")).records).toEqual([]);
  }, 60_000);
});

describe("the suspicion score in SQL", () => {
  it("equals suspicionScore for every combination, at the default threshold and another", async () => {
    for (const weakBelow of [0.5, 0.8]) {
      const rows = await prisma().$queryRaw<{ id: number; score: number }[]>`
        SELECT r.id, verity_suspicion_score(r."mutationScore", r.flaky,
                 (SELECT count(*)::int FROM "Solution" s WHERE s."recordId" = r.id AND s.passed IS NOT NULL),
                 (SELECT count(*)::int FROM "Solution" s WHERE s."recordId" = r.id AND s.passed),
                 c."overallPass", r."executableValid", ${weakBelow}::float8) AS score
        FROM "Record" r LEFT JOIN "CriticVerdict" c ON c."recordId" = r.id
        WHERE r.id = ANY(${planted.map((record) => record.id)}::int[]) ORDER BY r.id`;
      expect(rows.map((row) => row.score)).toEqual(planted.map((record) => suspicionScore(record.facts, weakBelow)));
    }
  });
});
