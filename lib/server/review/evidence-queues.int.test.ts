// The review page's evidence queues on a real database: over a campaign whose records carry every
// combination of evidence, each queue lists exactly the items whose record lib/evidence/suspicion.ts
// puts in that reason, in campaign order, page by page over REST, with counts; an item's neighbours
// walk the same order; gold items and annotators stay out.
import { beforeAll, describe, expect, it } from "vitest";

import { GET as evidenceQueueRoute } from "@/app/api/v1/campaigns/[id]/evidence-queue/route";
import {
  EVIDENCE_REASONS,
  evidenceReasonsOf,
  type EvidenceReason,
  type SuspicionFacts,
} from "@/lib/evidence/suspicion";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { readResponse } from "@/lib/testing/api-response";
import { combinations, plantEvidence } from "@/lib/testing/evidence";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { getEvidenceQueueNeighbours } from "@/lib/server/review/evidence-queues";
import { createApiToken } from "@/lib/server/users/tokens";

let reviewer: Actor;
let reviewerToken: string;
let campaignId: string;
/** The campaign's items in position order with their record's evidence. */
let items: { id: string; position: number; facts: SuspicionFacts }[];

beforeAll(async () => {
  const admin = await makeUser("ADMIN");
  reviewer = await makeUser("REVIEWER");
  reviewerToken = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: reviewer.id, name: "eq" })).token;
  const dataset = uniqueName("eq");
  const facts = combinations();
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl(facts.map((_, index) => makeRecord(`eq_${index}`)))),
    skipInvalid: false,
    origin: "api",
  });
  const records = await prisma().record.findMany({
    where: { dataset: { name: dataset } },
    orderBy: { line: "asc" },
    select: { id: true },
  });
  const factsOf = new Map(records.map((record, index) => [record.id, facts[index]]));
  await plantEvidence(records.map((record) => ({ id: record.id, facts: factsOf.get(record.id)! })));
  campaignId = (
    await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("eq-c"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    })
  ).id;
  // A gold item (served to an annotator) must never show in a queue: make one of them gold.
  const rows = await prisma().campaignItem.findMany({
    where: { campaignId },
    orderBy: { position: "asc" },
    select: { id: true, position: true, recordId: true },
  });
  await prisma().campaignItem.update({ where: { id: rows[0].id }, data: { gold: true } });
  items = rows.slice(1).map((row) => ({ id: row.id, position: row.position, facts: factsOf.get(row.recordId)! }));
}, 240_000);

function get(token: string, query: string) {
  return evidenceQueueRoute(
    new Request(`http://localhost/api/v1/campaigns/${campaignId}/evidence-queue?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    }),
    { params: Promise.resolve({ id: campaignId }) },
  );
}

type Page = {
  counts: Record<EvidenceReason, number>;
  items: { itemId: string; why: string }[];
  nextCursor: number | null;
};

const expected = (reason: EvidenceReason, weakBelow?: number) =>
  items.filter((item) => evidenceReasonsOf(item.facts, weakBelow).includes(reason)).map((item) => item.id);

describe("evidence queues", () => {
  for (const reason of EVIDENCE_REASONS)
    it(`${reason}: exactly the items whose record is in it, in campaign order, page by page, with counts`, async () => {
      const listed: string[] = [];
      let cursor: number | null = null;
      let counts: Page["counts"] | null = null;
      do {
        const response = await get(reviewerToken, `reason=${reason}${cursor === null ? "" : `&cursor=${cursor}`}`);
        expect(response.status).toBe(200);
        const page = (await readResponse(response, "GET", "/campaigns/{id}/evidence-queue")) as Page;
        listed.push(...page.items.map((item) => item.itemId));
        expect(page.items.every((item) => item.why.length > 0)).toBe(true);
        counts = page.counts;
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(expected(reason).length).toBeGreaterThan(50);
      expect(listed).toEqual(expected(reason));
      expect(counts).toEqual(Object.fromEntries(EVIDENCE_REASONS.map((each) => [each, expected(each).length])));
    }, 60_000);

  it("weak tests follow the threshold given", async () => {
    const page = (await (await get(reviewerToken, "reason=weak_tests&weakBelow=0.8")).json()) as Page;
    expect(page.counts.weak_tests).toBe(expected("weak_tests", 0.8).length);
    expect(page.counts.weak_tests).toBeGreaterThan(expected("weak_tests").length);
  });

  it("an item's neighbours are the queue's items before and after it", async () => {
    const queue = expected("unsolved");
    const middle = await getEvidenceQueueNeighbours({
      actor: reviewer,
      campaignId,
      itemId: queue[3],
      filters: { reason: "unsolved" },
    });
    expect(middle).toEqual({ total: queue.length, position: 4, previousItemId: queue[2], nextItemId: queue[4] });
    const outside = items.find((item) => !evidenceReasonsOf(item.facts).includes("unsolved"))!;
    expect(
      await getEvidenceQueueNeighbours({
        actor: reviewer,
        campaignId,
        itemId: outside.id,
        filters: { reason: "unsolved" },
      }),
    ).toEqual({ total: queue.length, position: null, previousItemId: null, nextItemId: queue[0] });
  });

  it("are for reviewers: an annotator is refused (403), and a bad reason is 422", async () => {
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    const token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: annotator.id, name: "a" })).token;
    expect((await get(token, "reason=weak_tests")).status).toBe(403);
    expect((await get(reviewerToken, "reason=everything")).status).toBe(422);
  });
});
