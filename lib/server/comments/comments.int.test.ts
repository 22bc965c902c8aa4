// An item's comment thread: who may read and write it, and unread marks per person.
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { addComment, listAnsweredThreads, listComments, markCommentsRead } from "@/lib/server/comments/comments";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";

let admin: Actor;
let reviewer: Actor;
let annotator: Actor;
let stranger: Actor;
let itemId: string;
let campaignId: string;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  reviewer = await makeUser("REVIEWER");
  annotator = await makeUser("ANNOTATOR", ["python"]);
  stranger = await makeUser("ANNOTATOR", ["python"]);
  const dataset = uniqueName("comments");
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
      name: uniqueName("Comments"),
      overlap: 2,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  campaignId = campaign.id;
  itemId = (await claimNextItem({ actor: annotator, campaignId: campaign.id }))!.itemId;
});

describe("comments", () => {
  it("lets the assigned annotator and a reviewer talk; each sees the other's new comments as unread until read", async () => {
    await addComment({ actor: annotator, itemId, body: "  Is this test nondeterministic?  " });
    const forReviewer = await listComments({ actor: reviewer, itemId });
    expect(forReviewer.comments).toEqual([
      expect.objectContaining({
        author: annotator.email,
        body: "Is this test nondeterministic?",
        isUnread: true,
        isMine: false,
      }),
    ]);
    expect(forReviewer.unread).toBe(1);
    // Own comments are never unread.
    expect((await listComments({ actor: annotator, itemId })).unread).toBe(0);

    await markCommentsRead({ actor: reviewer, itemId, seenUpTo: new Date() });
    expect((await listComments({ actor: reviewer, itemId })).unread).toBe(0);
    await addComment({ actor: reviewer, itemId, body: "No: it seeds the generator." });
    const forAnnotator = await listComments({ actor: annotator, itemId });
    expect(forAnnotator.comments.map((comment) => [comment.body, comment.isUnread])).toEqual([
      ["Is this test nondeterministic?", false],
      ["No: it seeds the generator.", true],
    ]);
    expect(await prisma().auditEvent.count({ where: { targetId: itemId, action: "comment.create" } })).toBe(2);
  });

  it("holds another annotator's comments back from an annotator until they have labelled the item", async () => {
    const second = await makeUser("ANNOTATOR", ["python"]);
    expect((await claimNextItem({ actor: second, campaignId }))!.itemId).toBe(itemId);
    const before = await listComments({ actor: second, itemId });
    expect(before.comments.map((comment) => comment.body)).toEqual(["No: it seeds the generator."]);
    await submitAnnotation({
      actor: second,
      itemId,
      input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
    });
    expect((await listComments({ actor: second, itemId })).comments.map((comment) => comment.body)).toEqual([
      "Is this test nondeterministic?",
      "No: it seeds the generator.",
    ]);
  });

  it("hides the thread from annotators never assigned to the item, and refuses empty or huge comments", async () => {
    await expect(listComments({ actor: stranger, itemId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(addComment({ actor: stranger, itemId, body: "hello" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(markCommentsRead({ actor: stranger, itemId, seenUpTo: new Date() })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(addComment({ actor: admin, itemId: "no-such-item", body: "hello" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect((await listComments({ actor: admin, itemId })).comments.length).toBeGreaterThan(0);
    await expect(addComment({ actor: annotator, itemId, body: "   " })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    await expect(addComment({ actor: annotator, itemId, body: "x".repeat(5001) })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
  });

  it("tells an annotator which of their threads a reviewer answered, until they read it", async () => {
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset: (await prisma().campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { dataset: true } }))
          .dataset.name,
        name: uniqueName("Answered"),
        overlap: 2,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const answeredItem = (await claimNextItem({ actor: annotator, campaignId: campaign.id }))!.itemId;
    await claimNextItem({ actor: stranger, campaignId: campaign.id });
    await addComment({ actor: annotator, itemId: answeredItem, body: "Is the second assert right?" });
    expect(await listAnsweredThreads({ actor: annotator, campaignId: campaign.id })).toEqual([]);
    // Another annotator's comment is no answer from a reviewer.
    await addComment({ actor: stranger, itemId: answeredItem, body: "I wondered too." });
    expect(await listAnsweredThreads({ actor: annotator, campaignId: campaign.id })).toEqual([]);
    await addComment({ actor: reviewer, itemId: answeredItem, body: "Yes, it is." });
    // Apart by more than the timestamps' millisecond, so a read mark can fall between the two.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await addComment({ actor: admin, itemId: answeredItem, body: "Agreed." });
    expect(await listAnsweredThreads({ actor: annotator, campaignId: campaign.id })).toEqual([
      { itemId: answeredItem, question: expect.any(String), answers: 2 },
    ]);
    // The other annotator wrote in the thread too, so the answers are news to them as well.
    expect(await listAnsweredThreads({ actor: stranger, campaignId: campaign.id })).toEqual([
      { itemId: answeredItem, question: expect.any(String), answers: 2 },
    ]);
    // A mark sent by a page that showed only the first answer, landing after the second: one stays new.
    const [, firstAnswer] = (await listComments({ actor: annotator, itemId: answeredItem })).comments.filter(
      (comment) => comment.body !== "I wondered too.",
    );
    await markCommentsRead({ actor: annotator, itemId: answeredItem, seenUpTo: new Date(firstAnswer.createdAt) });
    expect(await listAnsweredThreads({ actor: annotator, campaignId: campaign.id })).toEqual([
      { itemId: answeredItem, question: expect.any(String), answers: 1 },
    ]);
    // A later mark from an older page does not move the read mark back.
    await markCommentsRead({ actor: annotator, itemId: answeredItem, seenUpTo: new Date(0) });
    expect(await listAnsweredThreads({ actor: annotator, campaignId: campaign.id })).toHaveLength(1);
    await markCommentsRead({ actor: annotator, itemId: answeredItem, seenUpTo: new Date() });
    expect(await listAnsweredThreads({ actor: annotator, campaignId: campaign.id })).toEqual([]);
    // Threads of other campaigns do not show here.
    expect((await listAnsweredThreads({ actor: annotator, campaignId })).map((thread) => thread.itemId)).not.toContain(
      answeredItem,
    );
  });
});
