// Creating a campaign over a large dataset (issue 36): above RECORDS_DRAWN_IN_REQUEST records the
// request stores the campaign with a RUNNING item draw and answers at once; a job on the queue
// draws the items, exactly those the request would have inserted, once however often it runs.
// Until then claims and extensions say the items are being drawn, and the Jobs list shows the draw.
import { setTimeout as sleep } from "node:timers/promises";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { POST as postClaim } from "@/app/api/v1/campaigns/[id]/claim/route";
import { POST as postCampaign } from "@/app/api/v1/campaigns/route";
import { RECORDS_DRAWN_IN_REQUEST } from "@/lib/campaigns/item-draw";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { AppError } from "@/lib/server/errors";
import { listJobs } from "@/lib/server/jobs/list-jobs";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { createApiToken } from "@/lib/server/users/tokens";
import { startVerificationWorkers, stopVerificationWorkers } from "@/lib/server/verification/jobs";
import { DRAW_ITEMS_QUEUE } from "@/lib/server/workers/queue-names";
import { readResponse } from "@/lib/testing/api-response";
import { makeUser, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "./create-campaign";
import { drawCampaignItems } from "./draw-items";
import { extendCampaign } from "./extend-campaign";
import { insertSample } from "./queries";

// Just over the limit, in two languages: the smallest dataset a job draws from.
const RECORDS = RECORDS_DRAWN_IN_REQUEST + 100;
let admin: Actor;
let annotator: Actor;
let dataset: string;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  annotator = await makeUser("ANNOTATOR", ["python", "cpp"]);
  dataset = uniqueName("item-draw");
  // Written in SQL: importing 2,100 records one by one would be most of this file's time.
  await prisma().$executeRaw`
    WITH created AS (INSERT INTO "Dataset" (id, name) VALUES ('ds_' || md5(${dataset}), ${dataset}) RETURNING id)
    INSERT INTO "Record" ("datasetId", key, line, language, difficulty, question, "canonicalSolution", "demoTestFunc", "fullTestFunc")
    SELECT created.id, md5(${dataset} || i), i, (ARRAY['python', 'cpp'])[1 + i % 2], 'easy', 'Question ' || i,
           'def f(): return ' || i, 'assert True', 'assert True'
    FROM created, generate_series(1, ${RECORDS}::int) AS i`;
});

afterAll(async () => {
  // Stops the job queue this file's creations started, and the workers of its last test.
  await stopVerificationWorkers();
});

const input = (overrides: Record<string, unknown> = {}) => ({
  dataset,
  name: uniqueName("drawn"),
  seed: "draw-seed",
  overlap: 1,
  agreementFraction: 0.3,
  blind: false,
  finalRule: "consensus" as const,
  leaseMinutes: 30,
  ...overrides,
});

type ItemRow = { recordId: number; language: string; position: number; target: number };

async function itemsOf(campaignId: string): Promise<ItemRow[]> {
  return prisma().campaignItem.findMany({
    where: { campaignId },
    orderBy: { position: "asc" },
    select: { recordId: true, language: true, position: true, target: true },
  });
}

/**
 * The items the request's own path (insertCampaign → insertSample) inserts for this campaign, read
 * inside a transaction that puts its items back as they were: what a synchronous creation holds.
 */
async function itemsDrawnInRequest(campaignId: string): Promise<ItemRow[]> {
  const campaign = await prisma().campaign.findUniqueOrThrow({ where: { id: campaignId } });
  let drawn: ItemRow[] = [];
  await prisma()
    .$transaction(async (tx) => {
      await tx.campaignItem.deleteMany({ where: { campaignId } });
      await insertSample(tx, {
        campaignId,
        datasetId: campaign.datasetId,
        drawKey: campaign.sampleKey ?? campaign.seed,
        languages: campaign.languages,
        perLanguage: campaign.perLanguage,
        overlap: campaign.overlap,
        agreementFraction: campaign.agreementFraction,
        sampling: campaign.sampling === "SUSPICION" ? "suspicion" : "random",
        visibility: campaign.visibility,
      });
      drawn = await tx.campaignItem.findMany({
        where: { campaignId },
        orderBy: { position: "asc" },
        select: { recordId: true, language: true, position: true, target: true },
      });
      throw new Error("roll back");
    })
    .catch((error: unknown) => {
      if (!(error instanceof Error) || error.message !== "roll back") throw error;
    });
  return drawn;
}

async function queuedDraws(campaignId: string): Promise<number> {
  const [row] = await prisma().$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM pgboss.job WHERE name = ${DRAW_ITEMS_QUEUE} AND data->>'campaignId' = ${campaignId}`;
  return Number(row.n);
}

async function claimError(campaignId: string): Promise<AppError> {
  const error = await claimNextItem({ actor: annotator, campaignId }).catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("creating a campaign over a large dataset", () => {
  it("answers before any item exists, with a RUNNING draw queued on the job queue", async () => {
    const campaign = await createCampaign({ actor: admin, input: input() });
    expect(campaign.itemCount).toBe(0);
    expect(campaign.itemDraw).toEqual({ status: "RUNNING", total: RECORDS, stopReason: null });
    expect(await itemsOf(campaign.id)).toEqual([]);
    expect(await queuedDraws(campaign.id)).toBe(1);
  });

  it("keeps drawing inside the request up to the limit", async () => {
    const campaign = await createCampaign({
      actor: admin,
      input: input({ languages: ["python"], perLanguage: 10 }),
    });
    // 1,050 python records: drawn here, no job.
    expect(campaign.itemDraw).toBeNull();
    expect(campaign.itemCount).toBe(10);
    expect(await queuedDraws(campaign.id)).toBe(0);
  });

  it("draws, by the job, exactly the items the request would have inserted, random or most suspicious first", async () => {
    for (const sampling of ["random", "suspicion"] as const) {
      for (const perLanguage of [null, 700]) {
        const campaign = await createCampaign({ actor: admin, input: input({ sampling, perLanguage }) });
        expect(campaign.itemDraw?.status, sampling).toBe("RUNNING");
        const drawn = await drawCampaignItems({ campaignId: campaign.id });
        const expected = perLanguage === null ? RECORDS : 2 * perLanguage;
        expect(drawn).toEqual({ outcome: "drawn", itemCount: expected });
        const items = await itemsOf(campaign.id);
        expect(items).toHaveLength(expected);
        expect(items, `${sampling}, ${perLanguage}`).toEqual(await itemsDrawnInRequest(campaign.id));
        const after = await prisma().campaign.findUniqueOrThrow({
          where: { id: campaign.id },
          select: { itemCount: true, itemDraw: { select: { status: true, finishedAt: true } } },
        });
        expect(after.itemCount).toBe(expected);
        expect(after.itemDraw?.status).toBe("SUCCEEDED");
        expect(after.itemDraw?.finishedAt).not.toBeNull();
      }
    }
  });

  it("inserts nothing twice when its job runs again, one after the other or at once", async () => {
    const campaign = await createCampaign({ actor: admin, input: input() });
    const [first, second] = await Promise.all([
      drawCampaignItems({ campaignId: campaign.id }),
      drawCampaignItems({ campaignId: campaign.id }),
    ]);
    expect([first.outcome, second.outcome].sort()).toEqual(["already drawn", "drawn"]);
    expect(await drawCampaignItems({ campaignId: campaign.id })).toEqual({ outcome: "already drawn" });
    const items = await itemsOf(campaign.id);
    expect(items).toHaveLength(RECORDS);
    expect(new Set(items.map((item) => item.recordId)).size).toBe(RECORDS);
    const audit = await prisma().auditEvent.count({
      where: { action: "campaign.items_drawn", targetId: campaign.id },
    });
    expect(audit).toBe(1);
  });

  it("refuses claims and extensions while drawing, saying so, and hands out items once drawn", async () => {
    const campaign = await createCampaign({ actor: admin, input: input() });
    const refused = await claimError(campaign.id);
    expect(refused.code).toBe("CONFLICT");
    expect(refused.message).toMatch(/still being drawn/);
    await expect(
      extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: null, languages: ["python"] } }),
    ).rejects.toThrow(/still being drawn/);

    await drawCampaignItems({ campaignId: campaign.id });
    expect(await claimNextItem({ actor: annotator, campaignId: campaign.id })).toMatchObject({ isNew: true });
  });

  it("lets a deleted campaign's job find nothing to do", async () => {
    const campaign = await createCampaign({ actor: admin, input: input() });
    await prisma().campaign.delete({ where: { id: campaign.id } });
    expect(await drawCampaignItems({ campaignId: campaign.id })).toEqual({ outcome: "no draw" });
  });

  it("is listed on the Jobs list while drawing and once drawn, for whoever sees the campaign", async () => {
    const campaign = await createCampaign({ actor: admin, input: input({ sampling: "suspicion" }) });
    const drawOf = async (actor: Actor) =>
      (await listJobs({ actor, query: { kind: "campaign", limit: 100 } })).jobs.find(
        (job) => job.href === `/campaigns/${campaign.id}`,
      );
    expect(await drawOf(admin)).toMatchObject({
      kind: "campaign",
      status: "RUNNING",
      done: 0,
      total: RECORDS,
      unit: "records",
      dataset,
      result: "drawing items…",
      startedBy: { email: admin.email },
    });
    expect(await drawOf(annotator)).toMatchObject({ status: "RUNNING" });
    const outsider = await makeUser("ANNOTATOR", ["java"]);
    expect(await drawOf(outsider)).toBeUndefined();

    await drawCampaignItems({ campaignId: campaign.id });
    expect(await drawOf(admin)).toMatchObject({ status: "SUCCEEDED", done: RECORDS, total: RECORDS });
    expect(
      (await listJobs({ actor: SYSTEM_ACTOR.cli, query: { kind: "campaign", limit: 100 } })).jobs.length,
    ).toBeGreaterThan(0);
  });
});

describe("POST /api/v1/campaigns over a large dataset", () => {
  it("answers 202 with the campaign and its RUNNING draw; its claims answer 409 until drawn", async () => {
    const { token } = await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "item-draw" });
    const response = await postCampaign(
      new Request("http://localhost/api/v1/campaigns", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(input()),
      }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(202);
    const body = (await readResponse(response, "POST", "/campaigns")) as { id: string };
    expect(body).toMatchObject({ itemCount: 0, itemDraw: { status: "RUNNING", total: RECORDS, stopReason: null } });

    const annotatorToken = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: annotator.id, name: "item-draw" }))
      .token;
    const claim = await postClaim(
      new Request(`http://localhost/api/v1/campaigns/${body.id}/claim`, {
        method: "POST",
        headers: { authorization: `Bearer ${annotatorToken}` },
      }),
      { params: Promise.resolve({ id: body.id }) },
    );
    expect(claim.status).toBe(409);
    expect(JSON.stringify(await claim.json())).toMatch(/still being drawn/);
  });
});

describe("the workers", () => {
  it("draw a queued campaign's items on their own", async () => {
    const campaign = await createCampaign({ actor: admin, input: input() });
    await startVerificationWorkers(1);
    const started = performance.now();
    let status: string | undefined = "RUNNING";
    while (status === "RUNNING" && performance.now() - started < 60_000) {
      await sleep(200);
      status = (await prisma().campaignItemDraw.findUnique({ where: { campaignId: campaign.id } }))?.status;
    }
    expect(status).toBe("SUCCEEDED");
    expect(await itemsOf(campaign.id)).toHaveLength(RECORDS);
  });
});
