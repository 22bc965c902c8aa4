// Invitations and comment threads over REST, through the real route handlers; every answer is
// parsed with the response schema the API catalog publishes.
import { beforeAll, describe, expect, it } from "vitest";

import { DELETE as deleteInvitation } from "@/app/api/v1/invitations/[id]/route";
import { POST as postInvitationLink } from "@/app/api/v1/invitations/[id]/link/route";
import { POST as postInvitation } from "@/app/api/v1/invitations/route";
import { GET as getComments, POST as postComment } from "@/app/api/v1/items/[id]/comments/route";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { importRecords } from "@/lib/server/imports/imports";
import { findOpenInvitation } from "@/lib/server/invitations/invitations";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { createApiToken } from "@/lib/server/users/tokens";
import { readResponse } from "@/lib/testing/api-response";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

function call<P>(handler: Handler<P>, token: string, params: P, init: { method: string; body?: unknown }) {
  const request = new Request("http://localhost/api/v1/x", {
    method: init.method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return handler(request, { params: Promise.resolve(params) });
}

let adminToken: string;
let annotatorToken: string;

beforeAll(async () => {
  const admin = await makeUser("ADMIN");
  adminToken = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "rest" })).token;
  const annotator = await makeUser("ANNOTATOR", ["python"]);
  annotatorToken = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: annotator.id, name: "rest" })).token;
});

describe("invitations over REST", () => {
  it("invites 20 people in a script, each with a working one-time link", async () => {
    const tag = uniqueName("bulk");
    const links: string[] = [];
    for (let n = 0; n < 20; n++) {
      const response = await call(
        postInvitation,
        adminToken,
        {},
        {
          method: "POST",
          body: { email: `${tag}-${n}@example.test`, role: "ANNOTATOR", languages: ["python", "cpp"] },
        },
      );
      expect(response.status).toBe(201);
      const invitation = (await readResponse(response, "POST", "/invitations")) as { link: string };
      links.push(invitation.link);
    }
    expect(new Set(links).size).toBe(20);
    const pending = await findOpenInvitation(links[7].split("/invite/")[1]);
    expect(pending).toMatchObject({ email: `${tag}-7@example.test`, role: "ANNOTATOR", languages: ["python", "cpp"] });
  });

  it("renews a link (the old one stops working) and revokes an invitation", async () => {
    const created = await call(
      postInvitation,
      adminToken,
      {},
      {
        method: "POST",
        body: { email: `${uniqueName("renew")}@example.test`, role: "REVIEWER", languages: [] },
      },
    );
    const first = (await readResponse(created, "POST", "/invitations")) as { id: string; link: string };
    const renewed = await call(postInvitationLink, adminToken, { id: first.id }, { method: "POST" });
    expect(renewed.status).toBe(200);
    const second = (await readResponse(renewed, "POST", "/invitations/{id}/link")) as { id: string; link: string };
    expect(second.id).toBe(first.id);
    expect(await findOpenInvitation(first.link.split("/invite/")[1])).toBeNull();
    expect(await findOpenInvitation(second.link.split("/invite/")[1])).not.toBeNull();

    const revoked = await call(deleteInvitation, adminToken, { id: first.id }, { method: "DELETE" });
    expect(revoked.status).toBe(204);
    expect(await readResponse(revoked, "DELETE", "/invitations/{id}")).toBeNull();
    expect(await findOpenInvitation(second.link.split("/invite/")[1])).toBeNull();
    expect((await call(deleteInvitation, adminToken, { id: first.id }, { method: "DELETE" })).status).toBe(404);
  });

  it("answers bad input with 422 and field errors, an existing account with 409, and annotators with 403", async () => {
    const bad = await call(
      postInvitation,
      adminToken,
      {},
      {
        method: "POST",
        body: { email: "nobody", role: "OWNER", languages: ["cobol"] },
      },
    );
    expect(bad.status).toBe(422);
    const { error } = (await bad.json()) as { error: { fieldErrors: Record<string, string[]> } };
    expect(Object.keys(error.fieldErrors).sort()).toEqual(["email", "languages", "role"]);

    const existing = await makeUser("ANNOTATOR");
    const taken = await call(
      postInvitation,
      adminToken,
      {},
      {
        method: "POST",
        body: { email: existing.email, role: "ANNOTATOR", languages: [] },
      },
    );
    expect(taken.status).toBe(409);

    const refused = await call(
      postInvitation,
      annotatorToken,
      {},
      {
        method: "POST",
        body: { email: `${uniqueName("x")}@example.test`, role: "ADMIN", languages: [] },
      },
    );
    expect(refused.status).toBe(403);
  });
});

describe("comments over REST", () => {
  it("posts to an item's thread and reads it back in the published shape", async () => {
    const admin = await makeUser("ADMIN");
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    const token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: annotator.id, name: "thread" })).token;
    const dataset = uniqueName("rest-comments");
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl([makeRecord(dataset.replaceAll("-", "_"))])),
      skipInvalid: false,
      origin: "api",
    });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("Rest comments"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const itemId = (await claimNextItem({ actor: annotator, campaignId: campaign.id }))!.itemId;

    const posted = await call(
      postComment,
      token,
      { id: itemId },
      { method: "POST", body: { body: "Is line 3 right?" } },
    );
    expect(posted.status).toBe(201);
    await readResponse(posted, "POST", "/items/{id}/comments");
    const empty = await call(postComment, token, { id: itemId }, { method: "POST", body: { body: "   " } });
    expect(empty.status).toBe(422);

    const thread = (await readResponse(
      await call(getComments, token, { id: itemId }, { method: "GET" }),
      "GET",
      "/items/{id}/comments",
    )) as { comments: { body: string; isMine: boolean }[] };
    expect(thread.comments).toEqual([expect.objectContaining({ body: "Is line 3 right?", isMine: true })]);

    // An item the caller never held is not found, like a missing one.
    const stranger = await makeUser("ANNOTATOR", ["python"]);
    const strangerToken = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: stranger.id, name: "thread" }))
      .token;
    expect((await call(getComments, strangerToken, { id: itemId }, { method: "GET" })).status).toBe(404);
  });
});
