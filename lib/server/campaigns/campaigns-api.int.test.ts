// Campaigns over REST, through the real route handlers.
import { beforeAll, describe, expect, it } from "vitest";

import { DELETE as deleteCampaign, PATCH as patchCampaign } from "@/app/api/v1/campaigns/[id]/route";
import { POST as postStatus } from "@/app/api/v1/campaigns/[id]/status/route";
import { POST as postClaim } from "@/app/api/v1/campaigns/[id]/claim/route";
import { POST as postCampaign } from "@/app/api/v1/campaigns/route";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { importRecords } from "@/lib/server/imports/imports";
import { createApiToken } from "@/lib/server/users/tokens";
import { readResponse } from "@/lib/testing/api-response";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

let token: string;
let annotatorToken: string;
let dataset: string;

beforeAll(async () => {
  const admin = await makeUser("ADMIN");
  token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "campaigns-api" })).token;
  const annotator = await makeUser("ANNOTATOR", ["python"]);
  annotatorToken = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: annotator.id, name: "campaigns-api" }))
    .token;
  dataset = uniqueName("api-campaigns");
  const seed = dataset.replaceAll("-", "_");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl([0, 1, 2, 3, 4].map((n) => makeRecord(`${seed}_${n}`)))),
    skipInvalid: false,
    origin: "api",
  });
});

function create(body: Record<string, unknown>) {
  const request = new Request("http://localhost/api/v1/campaigns", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return postCampaign(request, { params: Promise.resolve({}) });
}

describe("POST /api/v1/campaigns", () => {
  it('takes the seed as a number or a string (42 and "42" are the same seed)', async () => {
    const asNumber = await create({ dataset, name: uniqueName("seed-number"), seed: 42, perLanguage: 2 });
    expect(asNumber.status).toBe(201);
    expect(await readResponse(asNumber, "POST", "/campaigns")).toMatchObject({ seed: "42", itemCount: 2 });

    const asString = await create({ dataset, name: uniqueName("seed-string"), seed: "42", perLanguage: 2 });
    expect(asString.status).toBe(201);
    expect(await readResponse(asString, "POST", "/campaigns")).toMatchObject({ seed: "42", itemCount: 2 });
  });

  it("refuses a seed that is neither a number nor a string, or a fractional number, with 422", async () => {
    for (const seed of [true, 1.5, [], ""]) {
      const response = await create({ dataset, name: uniqueName("seed-bad"), seed });
      expect(response.status, JSON.stringify(seed)).toBe(422);
      expect(
        ((await response.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors.seed,
      ).toBeDefined();
    }
  });
});

function call(
  handler: (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>,
  method: string,
  id: string,
  body?: unknown,
  bearer = token,
) {
  const request = new Request(`http://localhost/api/v1/campaigns/${id}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return handler(request, { params: Promise.resolve({ id }) });
}

describe("a campaign's lifecycle over REST", () => {
  it("renames, pauses (claims answer 409), resumes, and deletes while unlabelled", async () => {
    const created = (await readResponse(
      await create({ dataset, name: uniqueName("life-api") }),
      "POST",
      "/campaigns",
    )) as {
      id: string;
    };
    const name = uniqueName("life-api-renamed");
    const renamed = await call(patchCampaign, "PATCH", created.id, { name, overlap: 2 });
    expect(renamed.status).toBe(200);
    expect(await readResponse(renamed, "PATCH", "/campaigns/{id}")).toMatchObject({
      name,
      overlap: 2,
      status: "ACTIVE",
    });
    expect((await call(patchCampaign, "PATCH", created.id, {})).status).toBe(422);
    expect((await call(patchCampaign, "PATCH", created.id, { overlap: 0 })).status).toBe(422);

    const paused = await call(postStatus, "POST", created.id, { action: "pause" });
    expect(paused.status).toBe(200);
    expect(await readResponse(paused, "POST", "/campaigns/{id}/status")).toEqual({ status: "PAUSED", endedLeases: 0 });
    expect((await call(postClaim, "POST", created.id, undefined, annotatorToken)).status).toBe(409);
    expect((await call(postStatus, "POST", created.id, { action: "archive" })).status).toBe(409);
    expect((await call(postStatus, "POST", created.id, { action: "explode" })).status).toBe(422);
    expect((await call(postStatus, "POST", created.id, { action: "resume" })).status).toBe(200);
    const claimed = await call(postClaim, "POST", created.id, undefined, annotatorToken);
    expect(claimed.status).toBe(200);
    // What an annotator is handed: no seed, no gold share, no verification verdict (strict schema).
    await readResponse(claimed, "POST", "/campaigns/{id}/claim");

    const deleted = await call(deleteCampaign, "DELETE", created.id);
    expect(deleted.status).toBe(204);
    expect(await readResponse(deleted, "DELETE", "/campaigns/{id}")).toBeNull();
    expect((await call(deleteCampaign, "DELETE", created.id)).status).toBe(404);
  });
});
