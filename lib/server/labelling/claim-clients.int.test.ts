// Scripts that label through REST run several clients under one annotator's token, each claiming
// and submitting in its own loop. Claims without a client name share the person's one lease (two
// browser tabs get the same item), so four such clients took one item between them and three of
// every four submits relabelled it: about 12 labels/s for 2 annotators × 4 clients. A claim naming
// its client holds a lease of that client's own.
import { beforeAll, describe, expect, it } from "vitest";

import { POST as postClaim } from "@/app/api/v1/campaigns/[id]/claim/route";
import { POST as postAnnotation } from "@/app/api/v1/items/[id]/annotations/route";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { MAX_CLIENT_LEASES } from "@/lib/server/labelling/claim-next-item";
import { createApiToken } from "@/lib/server/users/tokens";
import { readResponse } from "@/lib/testing/api-response";
import { postWithToken as post } from "@/lib/testing/route-call";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

const ITEMS = 24;

let dataset: string;

async function campaignOf(overlap: number): Promise<string> {
  const campaign = await createCampaign({
    actor: SYSTEM_ACTOR.cli,
    input: {
      dataset,
      name: uniqueName("clients"),
      overlap,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  return campaign.id;
}

async function annotatorToken(): Promise<string> {
  const actor = await makeUser("ANNOTATOR", ["python"]);
  return (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: actor.id, name: "clients" })).token;
}

/** A claim's item id, or null when nothing is left (204) or only items with others remain. */
async function claim(token: string, campaignId: string, body?: unknown): Promise<string | null> {
  const response = await post(postClaim, token, { id: campaignId }, body);
  if (response.status === 204) return null;
  const answer = (await readResponse(response, "POST", "/campaigns/{id}/claim")) as { item: { id: string } | null };
  return answer.item?.id ?? null;
}

/** One client's loop, as a script runs it: claim, label, again, until nothing is left; the submits' statuses. */
async function clientLoop(token: string, campaignId: string, client: string): Promise<number[]> {
  const statuses: number[] = [];
  for (
    let itemId = await claim(token, campaignId, { client });
    itemId;
    itemId = await claim(token, campaignId, { client })
  ) {
    const submitted = await post(postAnnotation, token, { id: itemId }, { valid: true, categories: [] });
    statuses.push(submitted.status);
  }
  return statuses;
}

beforeAll(async () => {
  dataset = uniqueName("clients");
  await importRecords({
    actor: SYSTEM_ACTOR.cli,
    datasetName: dataset,
    source: chunks(
      toJsonl(Array.from({ length: ITEMS }, (_, n) => makeRecord(`${dataset.replaceAll("-", "_")}_${n}`))),
    ),
    skipInvalid: false,
    origin: "api",
  });
});

describe("several clients under one annotator's token", () => {
  it("each named client claims an item of its own at the same instant", async () => {
    const campaignId = await campaignOf(1);
    const token = await annotatorToken();
    const clients = ["worker-1", "worker-2", "worker-3", "worker-4"];
    const items = await Promise.all(clients.map((client) => claim(token, campaignId, { client })));
    expect(new Set(items).size).toBe(clients.length);
    // A client that claims again keeps its own item, as a tab does.
    expect(await claim(token, campaignId, { client: "worker-2" })).toBe(items[1]);
  });

  it(`2 annotators × 4 clients label all ${ITEMS} items of an overlap-2 campaign, every submit a new label, no item over its overlap`, async () => {
    const campaignId = await campaignOf(2);
    const tokens = [await annotatorToken(), await annotatorToken()];
    const loops = tokens.flatMap((token, person) =>
      [1, 2, 3, 4].map((n) => clientLoop(token, campaignId, `p${person}-c${n}`)),
    );
    const statuses = (await Promise.all(loops)).flat();
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    expect(statuses).toHaveLength(ITEMS * 2);
    const perItem = await prisma().annotation.groupBy({
      by: ["itemId"],
      where: { item: { campaignId } },
      _count: { _all: true },
    });
    expect(perItem).toHaveLength(ITEMS);
    expect(perItem.every((row) => row._count._all === 2)).toBe(true);
  }, 120_000);

  it("claims that name no client still share one lease (two tabs get the same item)", async () => {
    const campaignId = await campaignOf(1);
    const token = await annotatorToken();
    const [first, second] = await Promise.all([claim(token, campaignId), claim(token, campaignId, {})]);
    expect(first).not.toBeNull();
    expect(second).toBe(first);
  });

  it(`refuses a lease past ${MAX_CLIENT_LEASES} running ones in a campaign (409), and takes one again after a label`, async () => {
    const campaignId = await campaignOf(1);
    const token = await annotatorToken();
    const held: string[] = [];
    for (let n = 0; n < MAX_CLIENT_LEASES; n++) held.push((await claim(token, campaignId, { client: `c${n}` }))!);
    const refused = await post(postClaim, token, { id: campaignId }, { client: "one-more" });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      new RegExp(`${MAX_CLIENT_LEASES} items`),
    );
    expect((await post(postAnnotation, token, { id: held[0] }, { valid: true, categories: [] })).status).toBe(201);
    expect(await claim(token, campaignId, { client: "one-more" })).not.toBeNull();
  });

  it("answers a client name it cannot take with 422 and what to send", async () => {
    const campaignId = await campaignOf(1);
    const token = await annotatorToken();
    for (const body of [
      { client: "" },
      { client: "x".repeat(65) },
      { client: "has space" },
      { client: 7 },
      "not json",
    ]) {
      const response = await post(postClaim, token, { id: campaignId }, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
    }
    expect(await prisma().assignment.count({ where: { item: { campaignId } } })).toBe(0);
  });
});
