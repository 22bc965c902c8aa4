// The audit log as each role reads it: admins everything, reviewers their campaigns' events, with
// people, records and campaigns named rather than shown as ids.
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { listAuditEvents } from "@/lib/server/audit/audit";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { importRecords } from "@/lib/server/imports/imports";
import { createInvitation } from "@/lib/server/invitations/invitations";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { adjudicateItem } from "@/lib/server/review/review";

let admin: Actor;
let reviewer: Actor;
let annotator: Actor;
let campaign: { id: string; name: string };
let invitedEmail: string;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  reviewer = await makeUser("REVIEWER");
  annotator = await makeUser("ANNOTATOR", ["python"]);
  const dataset = uniqueName("audit");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(
      toJsonl([makeRecord(dataset.replaceAll("-", "_"), { question: "# Sum of two numbers\n\nWrite add." })]),
    ),
    skipInvalid: false,
    origin: "api",
  });
  campaign = await createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("Audit campaign"),
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  const claim = await claimNextItem({ actor: annotator, campaignId: campaign.id });
  await submitAnnotation({
    actor: annotator,
    itemId: claim!.itemId,
    input: { valid: false, categories: ["precision"], note: "float equality", needsReview: false, activeMs: 1000 },
  });
  await adjudicateItem({
    actor: reviewer,
    itemId: claim!.itemId,
    input: { valid: true, categories: [], reason: "Exact integers." },
  });
  invitedEmail = `${uniqueName("invited")}@example.test`;
  await createInvitation({ actor: admin, email: invitedEmail, role: "ANNOTATOR", languages: ["python"] });
});

describe("listAuditEvents", () => {
  it("shows a reviewer the events of the campaigns they review, naming people, the record and the campaign", async () => {
    const { events } = await listAuditEvents({ actor: reviewer, filters: { campaignId: campaign.id } });
    expect(events.map((event) => event.action).sort()).toEqual([
      "adjudication.create",
      "campaign.create",
      "label.create",
    ]);
    const label = events.find((event) => event.action === "label.create")!;
    expect(label.actorLabel).toBe(annotator.email);
    expect(label.campaignName).toBe(campaign.name);
    expect(label.targetLabel).toMatch(/^Label by .+ on record \d+ “Sum of two numbers”$/);
    expect(label.targetLabel).toContain(annotator.email);
    const decision = events.find((event) => event.action === "adjudication.create")!;
    expect(decision.actorLabel).toBe(reviewer.email);
    expect(decision.targetLabel).toMatch(/^Record \d+ “Sum of two numbers”$/);
    expect(events.find((event) => event.action === "campaign.create")!.targetLabel).toBe(`Campaign “${campaign.name}”`);
  });

  it("keeps people, invitations and tokens from reviewers, not from admins", async () => {
    const asReviewer = await listAuditEvents({ actor: reviewer, filters: { action: "invitation." } });
    expect(asReviewer.events).toEqual([]);
    const asAdmin = await listAuditEvents({ actor: admin, filters: { action: "invitation." } });
    expect(asAdmin.events.find((event) => event.targetLabel === `Invitation for ${invitedEmail}`)).toBeDefined();
  });

  it("refuses annotators", async () => {
    await expect(listAuditEvents({ actor: annotator, filters: {} })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
