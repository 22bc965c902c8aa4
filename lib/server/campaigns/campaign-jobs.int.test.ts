// Adding records to and deleting a large campaign (issue 36). Above RECORDS_DRAWN_IN_REQUEST ranked
// records an extension is recorded RUNNING and the request answers at once, the campaign unchanged
// (its items still claimed) until a job adds the items; above ITEMS_DELETED_IN_REQUEST items a
// deletion marks the campaign DELETING (gone from lists and claims at once) and a job removes it.
// Each job writes once however often it runs, and a failure is kept with its reason.
import { setTimeout as sleep } from "node:timers/promises";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { DELETE as deleteCampaignRoute } from "@/app/api/v1/campaigns/[id]/route";
import { POST as postItems } from "@/app/api/v1/campaigns/[id]/items/route";
import { RECORDS_DRAWN_IN_REQUEST } from "@/lib/campaigns/item-draw";
import { ITEMS_DELETED_IN_REQUEST } from "@/lib/campaigns/job-limits";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { listJobs } from "@/lib/server/jobs/list-jobs";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { createApiToken } from "@/lib/server/users/tokens";
import { startVerificationWorkers, stopVerificationWorkers } from "@/lib/server/verification/jobs";
import { DELETE_CAMPAIGN_QUEUE, EXTEND_CAMPAIGN_QUEUE } from "@/lib/server/workers/queue-names";
import { readResponse } from "@/lib/testing/api-response";
import { makeUser, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "./create-campaign";
import { deleteCampaign } from "./delete-campaign";
import { drawCampaignItems } from "./draw-items";
import { extendCampaign } from "./extend-campaign";
import { addExtensionItems, failExtension, getLatestCampaignExtension } from "./extension-items";
import { getCampaign } from "./get-campaign";
import { changeCampaignStatus } from "./lifecycle";
import { listCampaigns } from "./list-campaigns";
import { failCampaignRemoval, listPendingCampaignDeletions, removeCampaign } from "./remove-campaign";

// Just over both limits, in two languages.
const RECORDS = Math.max(RECORDS_DRAWN_IN_REQUEST, ITEMS_DELETED_IN_REQUEST) + 100;
let admin: Actor;
let annotator: Actor;
let dataset: string;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  annotator = await makeUser("ANNOTATOR", ["python", "cpp"]);
  dataset = uniqueName("campaign-jobs");
  // Written in SQL: importing 2,100 records one by one would be most of this file's time.
  await prisma().$executeRaw`
    WITH created AS (INSERT INTO "Dataset" (id, name) VALUES ('ds_' || md5(${dataset}), ${dataset}) RETURNING id)
    INSERT INTO "Record" ("datasetId", key, line, language, difficulty, question, "canonicalSolution", "demoTestFunc", "fullTestFunc")
    SELECT created.id, md5(${dataset} || i), i, (ARRAY['python', 'cpp'])[1 + i % 2], 'easy', 'Question ' || i,
           'def f(): return ' || i, 'assert True', 'assert True'
    FROM created, generate_series(1, ${RECORDS}::int) AS i`;
});

afterAll(async () => {
  await stopVerificationWorkers();
});

/** A campaign over the dataset with its items drawn (a job draws them at this size: called here). */
async function drawnCampaign(perLanguage: number | null, seed = "jobs-seed") {
  const campaign = await createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("jobs"),
      seed,
      perLanguage,
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  if (campaign.itemDraw) await drawCampaignItems({ campaignId: campaign.id });
  return campaign;
}

async function recordIdsOf(campaignId: string): Promise<number[]> {
  const items = await prisma().campaignItem.findMany({ where: { campaignId }, select: { recordId: true } });
  return items.map((item) => item.recordId).sort((a, b) => a - b);
}

async function queued(queue: string, key: string, value: string): Promise<number> {
  const [row] = await prisma().$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT count(*) AS n FROM pgboss.job WHERE name = $1 AND data->>$2 = $3`,
    queue,
    key,
    value,
  );
  return Number(row.n);
}

async function apiCall(handler: typeof postItems, method: string, campaignId: string, body?: unknown) {
  const { token } = await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: uniqueName("jobs") });
  return handler(
    new Request(`http://localhost/api/v1/campaigns/${campaignId}/items`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
    { params: Promise.resolve({ id: campaignId }) },
  );
}

describe("adding records to a large campaign", () => {
  it("answers RUNNING before any item is added, the campaign unchanged and its items still claimed", async () => {
    const campaign = await drawnCampaign(10);
    const before = await recordIdsOf(campaign.id);
    const started = performance.now();
    const result = await extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: 700 } });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result).toEqual({ status: "RUNNING", perLanguage: 700, total: 2 * 700 - 2 * 10 });
    expect(await recordIdsOf(campaign.id)).toEqual(before);
    expect(await prisma().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      perLanguage: 10,
      itemCount: 20,
    });
    const [extension] = await prisma().campaignExtension.findMany({ where: { campaignId: campaign.id } });
    expect(extension).toMatchObject({ status: "RUNNING", perLanguage: 700, total: 1380 });
    expect(await queued(EXTEND_CAMPAIGN_QUEUE, "extensionId", extension.id)).toBe(1);
    expect(await getLatestCampaignExtension({ actor: admin, campaignId: campaign.id })).toMatchObject({
      status: "RUNNING",
      total: 1380,
    });
    // Claims go on; a second extension waits for this one.
    expect(await claimNextItem({ actor: annotator, campaignId: campaign.id })).toMatchObject({ isNew: true });
    await expect(
      extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: 800 } }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/being added/) });
  });

  it("adds, by the job, exactly the items a campaign created with the new size holds, once however often it runs", async () => {
    const campaign = await drawnCampaign(10, "extend-seed");
    await extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: 700 } });
    const [{ id }] = await prisma().campaignExtension.findMany({ where: { campaignId: campaign.id } });
    const [first, second] = await Promise.all([
      addExtensionItems({ extensionId: id }),
      addExtensionItems({ extensionId: id }),
    ]);
    expect([first.outcome, second.outcome].sort()).toEqual(["added", "not running"]);
    expect(await addExtensionItems({ extensionId: id })).toEqual({ outcome: "not running" });

    const fresh = await drawnCampaign(700, "extend-seed");
    expect(await recordIdsOf(campaign.id)).toEqual(await recordIdsOf(fresh.id));
    expect(await prisma().campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      perLanguage: 700,
      itemCount: 1400,
    });
    expect(await getLatestCampaignExtension({ actor: admin, campaignId: campaign.id })).toMatchObject({
      status: "SUCCEEDED",
      added: 1380,
    });
    expect(await prisma().auditEvent.count({ where: { action: "campaign.extend", targetId: campaign.id } })).toBe(1);
    const job = (await listJobs({ actor: admin, query: { kind: "extension", limit: 100 } })).jobs.find(
      (row) => row.id === id,
    );
    expect(job).toMatchObject({
      status: "SUCCEEDED",
      done: 1380,
      total: 1380,
      unit: "items",
      result: "1,380 items added",
    });
  });

  it("keeps a failure with its reason, the campaign as it was; archived meanwhile, it adds nothing and says why", async () => {
    const campaign = await drawnCampaign(10);
    await extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: 700 } });
    const [{ id }] = await prisma().campaignExtension.findMany({ where: { campaignId: campaign.id } });
    await failExtension({ extensionId: id, reason: "adding its records stopped on an unexpected error" });
    expect(await getLatestCampaignExtension({ actor: admin, campaignId: campaign.id })).toMatchObject({
      status: "FAILED",
      stopReason: "adding its records stopped on an unexpected error",
    });
    expect(await addExtensionItems({ extensionId: id })).toEqual({ outcome: "not running" });
    expect(await recordIdsOf(campaign.id)).toHaveLength(20);

    // Asked again, then the campaign closed and archived before the job runs.
    await extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: 700 } });
    await changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "close" });
    await changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "archive" });
    const running = await prisma().campaignExtension.findFirstOrThrow({
      where: { campaignId: campaign.id, status: "RUNNING" },
    });
    expect(await addExtensionItems({ extensionId: running.id })).toEqual({ outcome: "refused" });
    expect(await getLatestCampaignExtension({ actor: admin, campaignId: campaign.id })).toMatchObject({
      status: "FAILED",
      stopReason: "the campaign was archived before its records were added",
    });
    expect(await recordIdsOf(campaign.id)).toHaveLength(20);
  });

  it("answers 202 over REST with status RUNNING; a small extension answers 200 SUCCEEDED as before", async () => {
    const campaign = await drawnCampaign(10);
    const response = await apiCall(postItems, "POST", campaign.id, { perLanguage: 700 });
    expect(response.status).toBe(202);
    expect(await readResponse(response, "POST", "/campaigns/{id}/items")).toEqual({
      status: "RUNNING",
      perLanguage: 700,
      total: 1380,
    });

    const small = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("small"),
        languages: ["python"],
        perLanguage: 5,
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    if (small.itemDraw) await drawCampaignItems({ campaignId: small.id });
    // Python alone ranks 1,050 records: added inside the request.
    const added = await apiCall(postItems, "POST", small.id, { perLanguage: 8 });
    expect(added.status).toBe(200);
    expect(await readResponse(added, "POST", "/campaigns/{id}/items")).toMatchObject({
      status: "SUCCEEDED",
      added: 3,
      after: { python: 8 },
    });
  });
});

describe("deleting a large campaign", () => {
  it("marks it DELETING at once: gone from lists, reads and claims; a job removes it", async () => {
    const campaign = await drawnCampaign(null);
    const items = RECORDS;
    expect(await recordIdsOf(campaign.id)).toHaveLength(items);
    // A lease held when it is deleted ends with the deletion.
    expect(await claimNextItem({ actor: annotator, campaignId: campaign.id })).toMatchObject({ isNew: true });

    const started = performance.now();
    expect(await deleteCampaign({ actor: admin, campaignId: campaign.id })).toEqual({ status: "DELETING", items });
    expect(performance.now() - started).toBeLessThan(5_000);
    // Still in the database, with its items: the job removes them.
    expect(await prisma().campaign.findUnique({ where: { id: campaign.id }, select: { status: true } })).toEqual({
      status: "DELETING",
    });
    expect(await recordIdsOf(campaign.id)).toHaveLength(items);
    expect(await prisma().assignment.count({ where: { item: { campaignId: campaign.id }, status: "ACTIVE" } })).toBe(0);
    expect(await queued(DELETE_CAMPAIGN_QUEUE, "campaignId", campaign.id)).toBe(1);

    expect((await listCampaigns({ actor: admin })).map((row) => row.id)).not.toContain(campaign.id);
    expect((await listCampaigns({ actor: annotator })).map((row) => row.id)).not.toContain(campaign.id);
    await expect(getCampaign({ actor: admin, campaignId: campaign.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(claimNextItem({ actor: annotator, campaignId: campaign.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: null } }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      changeCampaignStatus({ actor: admin, campaignId: campaign.id, action: "pause" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await listPendingCampaignDeletions({ actor: admin })).toContainEqual({
      campaignId: campaign.id,
      campaignName: campaign.name,
      items,
      status: "RUNNING",
      stopReason: null,
    });

    const [first, second] = await Promise.all([
      removeCampaign({ campaignId: campaign.id }),
      removeCampaign({ campaignId: campaign.id }),
    ]);
    expect([first.outcome, second.outcome].sort()).toEqual(["not deleting", "removed"]);
    expect(await prisma().campaign.findUnique({ where: { id: campaign.id } })).toBeNull();
    expect(await prisma().campaignItem.count({ where: { campaignId: campaign.id } })).toBe(0);
    expect((await listPendingCampaignDeletions({ actor: admin })).map((deletion) => deletion.campaignId)).not.toContain(
      campaign.id,
    );
    const job = (await listJobs({ actor: admin, query: { kind: "deletion", limit: 100 } })).jobs.find(
      (row) => row.scope === campaign.name,
    );
    expect(job).toMatchObject({
      status: "SUCCEEDED",
      done: items,
      total: items,
      result: `${items.toLocaleString("en")} items removed`,
    });
    expect(await prisma().auditEvent.count({ where: { action: "campaign.delete", targetId: campaign.id } })).toBe(1);
  });

  it("keeps a failure with its reason; deleting it again retries", async () => {
    const campaign = await drawnCampaign(null);
    await deleteCampaign({ actor: admin, campaignId: campaign.id });
    await failCampaignRemoval({ campaignId: campaign.id, reason: "removing it stopped on an unexpected error" });
    expect(await listPendingCampaignDeletions({ actor: admin })).toContainEqual(
      expect.objectContaining({
        campaignId: campaign.id,
        status: "FAILED",
        stopReason: "removing it stopped on an unexpected error",
      }),
    );
    expect(await removeCampaign({ campaignId: campaign.id })).toEqual({ outcome: "not deleting" });
    expect(await prisma().campaign.findUnique({ where: { id: campaign.id }, select: { status: true } })).toEqual({
      status: "DELETING",
    });

    expect(await deleteCampaign({ actor: admin, campaignId: campaign.id })).toMatchObject({ status: "DELETING" });
    expect(await removeCampaign({ campaignId: campaign.id })).toEqual({ outcome: "removed" });
    expect(await prisma().campaign.findUnique({ where: { id: campaign.id } })).toBeNull();
  });

  it("answers 202 over REST with status DELETING; a small campaign answers 204 as before", async () => {
    const campaign = await drawnCampaign(null);
    const response = await apiCall(deleteCampaignRoute, "DELETE", campaign.id);
    expect(response.status).toBe(202);
    expect(await readResponse(response, "DELETE", "/campaigns/{id}")).toEqual({ status: "DELETING", items: RECORDS });

    const small = await drawnCampaign(5);
    const deleted = await apiCall(deleteCampaignRoute, "DELETE", small.id);
    expect(deleted.status).toBe(204);
    expect(await prisma().campaign.findUnique({ where: { id: small.id } })).toBeNull();
  });
});

describe("the workers", () => {
  it("add a queued extension's records and remove a deleted campaign on their own", async () => {
    const extended = await drawnCampaign(10);
    const deleted = await drawnCampaign(null);
    await extendCampaign({ actor: admin, campaignId: extended.id, input: { perLanguage: null } });
    await deleteCampaign({ actor: admin, campaignId: deleted.id });
    await startVerificationWorkers(1);
    const started = performance.now();
    const isDone = async () =>
      (await getLatestCampaignExtension({ actor: admin, campaignId: extended.id }))?.status !== "RUNNING" &&
      (await prisma().campaign.findUnique({ where: { id: deleted.id } })) === null;
    while (!(await isDone()) && performance.now() - started < 60_000) await sleep(200);
    expect(await getLatestCampaignExtension({ actor: admin, campaignId: extended.id })).toMatchObject({
      status: "SUCCEEDED",
      added: RECORDS - 20,
    });
    expect(await recordIdsOf(extended.id)).toHaveLength(RECORDS);
    expect(await prisma().campaign.findUnique({ where: { id: deleted.id } })).toBeNull();
  });
});
