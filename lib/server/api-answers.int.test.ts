// The routes no other route test reads a success from, called through their real handlers and read
// through the API catalog's schemas (lib/testing/api-response.ts): growing a campaign, renewing a
// lease, the review queue, agreement, adjudication, batch verification and a sandbox run. With the
// other route tests this parses a success answer of every /api/v1 operation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { POST as postAdjudication } from "@/app/api/v1/items/[id]/adjudication/route";
import { POST as postAnnotation } from "@/app/api/v1/items/[id]/annotations/route";
import { POST as postLease } from "@/app/api/v1/items/[id]/lease/route";
import { GET as getAgreement } from "@/app/api/v1/campaigns/[id]/agreement/route";
import { POST as postClaim } from "@/app/api/v1/campaigns/[id]/claim/route";
import { GET as getDisagreements } from "@/app/api/v1/campaigns/[id]/disagreements/route";
import { POST as postItems } from "@/app/api/v1/campaigns/[id]/items/route";
import { POST as postVerification } from "@/app/api/v1/datasets/[name]/verifications/route";
import { POST as postRuns } from "@/app/api/v1/records/[id]/runs/route";
import { GET as getVerification } from "@/app/api/v1/verifications/[id]/route";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { createApiToken } from "@/lib/server/users/tokens";
import { stopBoss } from "@/lib/server/workers/boss";
import { readResponse } from "@/lib/testing/api-response";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { findBubblewrap, skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

// Skipped without bubblewrap, except in CI, where that fails the run.
const hasBwrap = !skipWithoutSandbox(findBubblewrap() ? null : "bubblewrap is not installed");

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

function call<P>(
  handler: Handler<P>,
  token: string,
  params: P,
  init: { method?: string; body?: unknown; query?: string } = {},
) {
  const request = new Request(`http://localhost/api/v1/x${init.query ?? ""}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return handler(request, { params: Promise.resolve(params) });
}

const tokenOf = async (role: "ADMIN" | "REVIEWER" | "ANNOTATOR") => {
  const actor = await makeUser(role, ["python"]);
  return (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: actor.id, name: "answers" })).token;
};

const failingCritic = {
  critic_result: { summary: { overall_pass: false, failed_rules: ["Other Issues"], key_points: ["no edge cases"] } },
  critic_reasoning: "The full test checks nothing the statement asks for.",
};

let admin: string;
let reviewer: string;
let annotators: string[];
let dataset: string;
let campaignId: string;

beforeAll(async () => {
  admin = await tokenOf("ADMIN");
  reviewer = await tokenOf("REVIEWER");
  annotators = [await tokenOf("ANNOTATOR"), await tokenOf("ANNOTATOR")];
  dataset = uniqueName("answers");
  const seed = dataset.replaceAll("-", "_");
  await importRecords({
    actor: SYSTEM_ACTOR.cli,
    datasetName: dataset,
    source: chunks(toJsonl([0, 1, 2].map((n) => makeRecord(`${seed}_${n}`, failingCritic)))),
    skipInvalid: false,
    origin: "api",
  });
  campaignId = (
    await createCampaign({
      actor: SYSTEM_ACTOR.cli,
      input: {
        dataset,
        name: uniqueName("answers"),
        perLanguage: 2,
        overlap: 2,
        agreementFraction: 0,
        blind: true,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    })
  ).id;
});

afterAll(() => stopBoss(1_000));

describe("success answers of the review and labelling routes", () => {
  it("grows the campaign, then two annotators claim, renew and label every item, disagreeing on each", async () => {
    const grown = await call(postItems, admin, { id: campaignId }, { method: "POST", body: { perLanguage: null } });
    expect(grown.status).toBe(200);
    expect(await readResponse(grown, "POST", "/campaigns/{id}/items")).toEqual({
      status: "SUCCEEDED",
      added: 1,
      perLanguage: null,
      before: { python: 2 },
      after: { python: 3 },
    });

    for (const [index, token] of annotators.entries()) {
      let labelled = 0;
      for (;;) {
        const claimed = await call(postClaim, token, { id: campaignId }, { method: "POST" });
        if (claimed.status === 204) break;
        const { item, record } = (await readResponse(claimed, "POST", "/campaigns/{id}/claim")) as {
          item: { id: string };
          record: { critic: unknown };
        };
        // Blind: no critic before the label.
        expect(record.critic).toBeNull();
        const renewed = await call(postLease, token, { id: item.id }, { method: "POST" });
        expect(renewed.status).toBe(200);
        const { leaseExpiresAt } = (await readResponse(renewed, "POST", "/items/{id}/lease")) as {
          leaseExpiresAt: string;
        };
        expect(Date.parse(leaseExpiresAt)).toBeGreaterThan(Date.now());
        const label = index === 0 ? { valid: true, categories: [] } : { valid: false, categories: ["other"] };
        const submitted = await call(postAnnotation, token, { id: item.id }, { method: "POST", body: label });
        expect(submitted.status).toBe(201);
        expect(await readResponse(submitted, "POST", "/items/{id}/annotations")).toMatchObject({
          ...label,
          revision: 1,
          created: true,
        });
        labelled += 1;
      }
      expect(labelled).toBe(3);
    }
  });

  it("lists the disagreements, adjudicates one and revises the decision", async () => {
    const queue = await call(getDisagreements, reviewer, { id: campaignId }, { query: "?queue=annotators" });
    expect(queue.status).toBe(200);
    const { items, counts } = (await readResponse(queue, "GET", "/campaigns/{id}/disagreements")) as {
      items: { itemId: string; votes: unknown[] }[];
      counts: { annotators: number };
    };
    expect(counts.annotators).toBe(3);
    expect(items).toHaveLength(3);
    expect(items[0].votes).toHaveLength(2);

    const decision = { valid: false, categories: ["other"], reason: "The full test is wrong." };
    const first = await call(postAdjudication, reviewer, { id: items[0].itemId }, { method: "POST", body: decision });
    expect(first.status).toBe(201);
    expect(await readResponse(first, "POST", "/items/{id}/adjudication")).toMatchObject({ ...decision, revision: 1 });
    const revised = await call(
      postAdjudication,
      reviewer,
      { id: items[0].itemId },
      { method: "POST", body: { ...decision, valid: true, categories: [], baseRevision: 1 } },
    );
    expect(revised.status).toBe(200);
    expect(await readResponse(revised, "POST", "/items/{id}/adjudication")).toMatchObject({
      valid: true,
      revision: 2,
    });
  });

  it("answers the agreement figures, the blind reveal included", async () => {
    const response = await call(getAgreement, admin, { id: campaignId });
    expect(response.status).toBe(200);
    const agreement = (await readResponse(response, "GET", "/campaigns/{id}/agreement")) as {
      overall: { items: number; percentAgreement: number | null };
      annotators: unknown[];
      blindReveal: unknown;
    };
    expect(agreement.overall).toMatchObject({ items: 3, percentAgreement: 0 });
    expect(agreement.annotators).toHaveLength(2);
    expect(agreement.blindReveal).not.toBeNull();
  });
});

describe("success answers of batch verification and sandbox runs", () => {
  it("starts a verification batch and reads its progress", async () => {
    const started = await call(postVerification, admin, { name: dataset }, { method: "POST", body: {} });
    expect(started.status).toBe(202);
    const batch = (await readResponse(started, "POST", "/datasets/{name}/verifications")) as {
      batchId: string;
      total: number;
    };
    expect(batch).toMatchObject({ total: 3, resumed: false });
    const progress = await call(getVerification, reviewer, { id: batch.batchId });
    expect(progress.status).toBe(200);
    expect(await readResponse(progress, "GET", "/verifications/{id}")).toMatchObject({
      batchId: batch.batchId,
      dataset,
      language: null,
      total: 3,
    });
  });

  it.skipIf(!hasBwrap)("runs a record's demo test and answers the stored run (needs bubblewrap)", async () => {
    const record = await prisma().record.findFirstOrThrow({
      where: { dataset: { name: dataset } },
      select: { id: true },
    });
    const response = await call(postRuns, admin, { id: String(record.id) }, { method: "POST", body: { kind: "demo" } });
    expect(response.status).toBe(201);
    expect(await readResponse(response, "POST", "/records/{id}/runs")).toMatchObject({
      runs: [{ kind: "DEMO", outcome: "PASSED", language: "python" }],
    });
  });
});
