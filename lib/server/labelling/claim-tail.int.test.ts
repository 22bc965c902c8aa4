// The end of a campaign, when a team finishes together: annotators claiming the last item of an
// overlap-2 campaign at the same instant, through the claim route on the real database. A claim
// that meets the item while another claim holds its row for a moment must wait and take the free
// slot, not answer "nothing left"; an annotator whose only items left are leased by others is told
// so, not that they are done.
import { beforeAll, describe, expect, it } from "vitest";

import { POST as postClaim } from "@/app/api/v1/campaigns/[id]/claim/route";
import { POST as postAnnotation } from "@/app/api/v1/items/[id]/annotations/route";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { createApiToken } from "@/lib/server/users/tokens";
import { readResponse } from "@/lib/testing/api-response";
import { postWithToken as post } from "@/lib/testing/route-call";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

const ROUNDS = 30;

let dataset: string;
/** Three annotators, the same in every campaign. */
let tokens: string[];

/** A campaign of one Python record with overlap 2. */
async function oneItemCampaign(): Promise<string> {
  const campaign = await createCampaign({
    actor: SYSTEM_ACTOR.cli,
    input: {
      dataset,
      name: uniqueName("tail"),
      overlap: 2,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  return campaign.id;
}

type Answer = { status: number; itemId: string | null; body: unknown };

async function claim(token: string, campaignId: string): Promise<Answer> {
  const response = await post(postClaim, token, { id: campaignId });
  if (response.status === 204) return { status: 204, itemId: null, body: null };
  const body = (await readResponse(response, "POST", "/campaigns/{id}/claim")) as { item: { id: string } | null };
  return { status: response.status, itemId: body.item?.id ?? null, body };
}

async function labelCount(campaignId: string): Promise<number> {
  return prisma().annotation.count({ where: { item: { campaignId } } });
}

beforeAll(async () => {
  dataset = uniqueName("tail");
  await importRecords({
    actor: SYSTEM_ACTOR.cli,
    datasetName: dataset,
    source: chunks(toJsonl([makeRecord(dataset.replaceAll("-", "_"))])),
    skipInvalid: false,
    origin: "api",
  });
  tokens = await Promise.all(
    [0, 1, 2].map(async () => {
      const actor = await makeUser("ANNOTATOR", ["python"]);
      return (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: actor.id, name: "tail" })).token;
    }),
  );
});

describe("claiming the last item of a campaign at the same instant", () => {
  it(`hands the item to both of two annotators in each of ${ROUNDS} campaigns, which end with two labels each`, async () => {
    const campaigns: string[] = [];
    for (let round = 0; round < ROUNDS; round++) campaigns.push(await oneItemCampaign());
    let empty = 0;
    const labels: number[] = [];
    for (const campaignId of campaigns) {
      const answers = await Promise.all(tokens.slice(0, 2).map((token) => claim(token, campaignId)));
      empty += answers.filter((answer) => answer.itemId === null).length;
      for (const [n, answer] of answers.entries()) {
        if (!answer.itemId) continue;
        const submitted = await post(postAnnotation, tokens[n], { id: answer.itemId }, { valid: true, categories: [] });
        expect(submitted.status).toBe(201);
      }
      labels.push(await labelCount(campaignId));
    }
    console.info(`two annotators: ${empty} of ${ROUNDS * 2} claims got no item`);
    expect(empty).toBe(0);
    expect(labels).toEqual(campaigns.map(() => 2));
  }, 180_000);

  it(`gives the item to two of three annotators and tells the third that it is with others, in each of ${ROUNDS} campaigns`, async () => {
    const campaigns: string[] = [];
    for (let round = 0; round < ROUNDS; round++) campaigns.push(await oneItemCampaign());
    let handedOut = 0;
    const waiting: unknown[] = [];
    const labels: number[] = [];
    for (const campaignId of campaigns) {
      const answers = await Promise.all(tokens.map((token) => claim(token, campaignId)));
      for (const [n, answer] of answers.entries()) {
        if (answer.itemId) {
          handedOut += 1;
          const submitted = await post(
            postAnnotation,
            tokens[n],
            { id: answer.itemId },
            { valid: true, categories: [] },
          );
          expect(submitted.status).toBe(201);
        } else waiting.push(answer.status === 204 ? "204" : answer.body);
      }
      labels.push(await labelCount(campaignId));
      // Once both labels are in, the third annotator is done.
      const third = answers.findIndex((answer) => answer.itemId === null);
      if (third >= 0) expect((await claim(tokens[third], campaignId)).status).toBe(204);
    }
    console.info(`three annotators: ${handedOut} of ${ROUNDS * 2} slots handed out`);
    expect(handedOut).toBe(ROUNDS * 2);
    expect(waiting).toEqual(
      campaigns.map(() => ({
        item: null,
        withOthers: 1,
        nextLeaseEndsAt: expect.any(String),
        message: "1 item is with another annotator; it comes back here if the lease runs out.",
      })),
    );
    expect(labels).toEqual(campaigns.map(() => 2));
  }, 180_000);
});
