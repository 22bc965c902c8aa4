// Integration tests of campaigns and the leased queue against the embedded PostgreSQL:
// reproducible sampling, overlap under concurrency, leases, blind mode and revisions.
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { AppError } from "@/lib/server/errors";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { getCampaignProgress } from "@/lib/server/campaigns/get-campaign-progress";
import { prisma } from "@/lib/server/db/client";
import { pgPool } from "@/lib/server/db/pool";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { getWorkItem } from "@/lib/server/labelling/get-work-item";
import { renewLease } from "@/lib/server/labelling/renew-lease";
import { skipItem } from "@/lib/server/labelling/skip-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";

let admin: Actor;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
});

/** A dataset of `count` records per language, with a failing critic verdict on each. */
async function makeDataset(perLanguage: Record<string, number>): Promise<string> {
  const name = uniqueName("queue");
  const records = Object.entries(perLanguage).flatMap(([language, count]) =>
    Array.from({ length: count }, (_, index) =>
      makeRecord(`${language}_${index}_${name.replaceAll("-", "_")}`, {
        language,
        critic_result: { summary: { overall_pass: false, failed_rules: ["Other Issues"], key_points: [] } },
      }),
    ),
  );
  const summary = await importRecords({
    actor: admin,
    datasetName: name,
    source: chunks(toJsonl(records)),
    skipInvalid: false,
    origin: "api",
  });
  expect(summary.ok).toBe(true);
  return name;
}

const label = { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 };

async function itemRecordIds(campaignId: string): Promise<number[]> {
  const items = await prisma().campaignItem.findMany({
    where: { campaignId },
    orderBy: { position: "asc" },
    select: { recordId: true },
  });
  return items.map((item) => item.recordId);
}

describe("campaign sampling", () => {
  it("takes N records per language, reproducibly from the seed, in a secret order", async () => {
    const dataset = await makeDataset({ python: 12, cpp: 8 });
    const first = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        perLanguage: 5,
        seed: "s1",
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const again = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        perLanguage: 5,
        seed: "s1",
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const other = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        perLanguage: 5,
        seed: "s2",
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    expect(first.itemCount).toBe(10);
    const byLanguage = await prisma().campaignItem.groupBy({
      by: ["language"],
      where: { campaignId: first.id },
      _count: { _all: true },
    });
    expect(Object.fromEntries(byLanguage.map((row) => [row.language, row._count._all]))).toEqual({ python: 5, cpp: 5 });
    const sorted = async (campaignId: string) => (await itemRecordIds(campaignId)).sort((a, b) => a - b);
    expect(await sorted(again.id)).toEqual(await sorted(first.id));
    expect(await sorted(other.id)).not.toEqual(await sorted(first.id));
    // The order items are handed out in is secret (keyed by the server, not the seed): the same
    // sample comes in another order in another campaign.
    expect(await itemRecordIds(again.id)).not.toEqual(await itemRecordIds(first.id));
  });

  it("gives the agreement subset one extra annotator when the overlap is 1", async () => {
    const dataset = await makeDataset({ python: 40 });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        seed: "agree",
        overlap: 1,
        agreementFraction: 0.5,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const targets = await prisma().campaignItem.groupBy({
      by: ["target"],
      where: { campaignId: campaign.id },
      _count: { _all: true },
    });
    const extra = targets.find((row) => row.target === 2)?._count._all ?? 0;
    expect(targets.every((row) => row.target === 1 || row.target === 2)).toBe(true);
    expect(extra).toBeGreaterThan(8);
    expect(extra).toBeLessThan(32);
  });

  it("refuses an unknown dataset and a language the dataset lacks", async () => {
    const dataset = await makeDataset({ python: 1 });
    await expect(
      createCampaign({
        actor: admin,
        input: {
          dataset: "nope-" + dataset,
          name: uniqueName("c"),
          overlap: 1,
          agreementFraction: 0,
          blind: false,
          finalRule: "consensus",
          leaseMinutes: 30,
        },
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      createCampaign({
        actor: admin,
        input: {
          dataset,
          name: uniqueName("c"),
          languages: ["rust"],
          overlap: 1,
          agreementFraction: 0,
          blind: false,
          finalRule: "consensus",
          leaseMinutes: 30,
        },
      }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});

describe("the leased queue", () => {
  it("20 parallel claimers on 50 items with overlap 2 make exactly 100 annotations, none over the overlap, no one twice", async () => {
    const dataset = await makeDataset({ python: 50 });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        overlap: 2,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const annotators = await Promise.all(Array.from({ length: 20 }, () => makeUser("ANNOTATOR", ["python"])));
    await Promise.all(
      annotators.map(async (annotator) => {
        for (;;) {
          const claim = await claimNextItem({ actor: annotator, campaignId: campaign.id });
          if (!claim) return;
          await submitAnnotation({ actor: annotator, itemId: claim.itemId, input: label });
        }
      }),
    );
    const annotations = await prisma().annotation.findMany({
      where: { item: { campaignId: campaign.id } },
      select: { itemId: true, userId: true },
    });
    expect(annotations).toHaveLength(100);
    const perItem = new Map<string, number>();
    for (const annotation of annotations) perItem.set(annotation.itemId, (perItem.get(annotation.itemId) ?? 0) + 1);
    expect([...perItem.values()].every((count) => count === 2)).toBe(true);
    expect(new Set(annotations.map((a) => `${a.itemId}:${a.userId}`)).size).toBe(100);
    const progress = await getCampaignProgress({ actor: admin, campaignId: campaign.id });
    expect(progress).toMatchObject({ items: 50, annotationsWanted: 100, annotationsDone: 100, itemsComplete: 50 });
  });

  it("hands two tabs of one annotator the same item and skips return the slot", async () => {
    const dataset = await makeDataset({ python: 2 });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const bob = await makeUser("ANNOTATOR", ["python"]);
    const [tab1, tab2] = await Promise.all([
      claimNextItem({ actor: ann, campaignId: campaign.id }),
      claimNextItem({ actor: ann, campaignId: campaign.id }),
    ]);
    expect(tab1?.itemId).toBe(tab2?.itemId);
    await skipItem({ actor: ann, itemId: tab1!.itemId, reason: "unsure about Rust lifetimes" });
    const next = await claimNextItem({ actor: ann, campaignId: campaign.id });
    expect(next?.itemId).not.toBe(tab1!.itemId);
    // The skipped item went back to the pool for someone else.
    expect((await claimNextItem({ actor: bob, campaignId: campaign.id }))?.itemId).toBe(tab1!.itemId);
    expect(await claimNextItem({ actor: ann, campaignId: campaign.id })).toMatchObject({ itemId: next!.itemId });
  });

  it("only hands out items in the annotator's languages", async () => {
    const dataset = await makeDataset({ python: 2, cpp: 2 });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const cppOnly = await makeUser("ANNOTATOR", ["cpp"]);
    const languages: string[] = [];
    for (;;) {
      const claim = await claimNextItem({ actor: cppOnly, campaignId: campaign.id });
      if (!claim) break;
      languages.push((await getWorkItem({ actor: cppOnly, itemId: claim.itemId })).record.language);
      await submitAnnotation({ actor: cppOnly, itemId: claim.itemId, input: label });
    }
    expect(languages).toEqual(["cpp", "cpp"]);
    const rustOnly = await makeUser("ANNOTATOR", ["rust"]);
    await expect(claimNextItem({ actor: rustOnly, campaignId: campaign.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("accepts a submit after the lease expired while the slot is free, and refuses it once someone took the slot", async () => {
    const dataset = await makeDataset({ python: 1 });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const bob = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: ann, campaignId: campaign.id });
    await prisma().assignment.updateMany({
      where: { itemId: claim!.itemId },
      data: { leaseExpiresAt: new Date(Date.now() - 1000) },
    });
    const bobClaim = await claimNextItem({ actor: bob, campaignId: campaign.id });
    expect(bobClaim?.itemId).toBe(claim!.itemId);
    const error = await submitAnnotation({ actor: ann, itemId: claim!.itemId, input: label }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("CONFLICT");
    await skipItem({ actor: bob, itemId: claim!.itemId, reason: "leaving it" });
    // Bob let it go: the slot is free again, so Ann's late submit now goes through.
    await expect(submitAnnotation({ actor: ann, itemId: claim!.itemId, input: label })).resolves.toMatchObject({
      created: true,
    });
  });

  it("rejects unknown category keys and keeps a double submit to one annotation", async () => {
    const dataset = await makeDataset({ python: 1 });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: ann, campaignId: campaign.id });
    await expect(
      submitAnnotation({
        actor: ann,
        itemId: claim!.itemId,
        input: { ...label, valid: false, note: "x", categories: ["made-up"] },
      }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    const invalid = {
      ...label,
      valid: false,
      note: "The statement never says what an empty list returns.",
      categories: ["statement-incomplete"],
    };
    const [a, b] = await Promise.all([
      submitAnnotation({ actor: ann, itemId: claim!.itemId, input: invalid }),
      submitAnnotation({ actor: ann, itemId: claim!.itemId, input: invalid }),
    ]);
    expect(a.id).toBe(b.id);
    expect(await prisma().annotation.count({ where: { itemId: claim!.itemId } })).toBe(1);
    expect(await prisma().annotationRevision.count({ where: { annotationId: a.id } })).toBe(1);
  });
});

describe("label ownership", () => {
  it("refuses a label on an item the actor never claimed, whatever its id", async () => {
    const dataset = await makeDataset({ python: 2 });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        overlap: 2,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    // The second item in campaign order: one the queue would not hand out first.
    const [, chosen] = await prisma().campaignItem.findMany({
      where: { campaignId: campaign.id },
      orderBy: { position: "asc" },
      select: { id: true },
    });
    await expect(submitAnnotation({ actor: ann, itemId: chosen.id, input: label })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await prisma().annotation.count({ where: { itemId: chosen.id } })).toBe(0);
    expect(
      (await prisma().campaignItem.findUniqueOrThrow({ where: { id: chosen.id }, select: { slotsTaken: true } }))
        .slotsTaken,
    ).toBe(0);
  });

  it("refuses a label on an item the actor skipped", async () => {
    const dataset = await makeDataset({ python: 1 });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        overlap: 2,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: ann, campaignId: campaign.id });
    await skipItem({ actor: ann, itemId: claim!.itemId, reason: "not my area" });
    await expect(submitAnnotation({ actor: ann, itemId: claim!.itemId, input: label })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect(await prisma().annotation.count({ where: { itemId: claim!.itemId } })).toBe(0);
    expect(
      (await prisma().campaignItem.findUniqueOrThrow({ where: { id: claim!.itemId }, select: { slotsTaken: true } }))
        .slotsTaken,
    ).toBe(0);
  });

  it("refuses a label on another annotator's leased item", async () => {
    const dataset = await makeDataset({ python: 1 });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        overlap: 2,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const bob = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: ann, campaignId: campaign.id });
    await expect(submitAnnotation({ actor: bob, itemId: claim!.itemId, input: label })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(renewLease({ actor: bob, itemId: claim!.itemId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const renewed = await renewLease({ actor: ann, itemId: claim!.itemId });
    // The campaign's lease length from now, and what is stored.
    expect(Math.abs(renewed.getTime() - (Date.now() + 30 * 60_000))).toBeLessThan(60_000);
    const stored = await prisma().assignment.findFirstOrThrow({
      where: { itemId: claim!.itemId, userId: ann.id },
      select: { leaseExpiresAt: true },
    });
    expect(stored.leaseExpiresAt.getTime()).toBe(renewed.getTime());
    await expect(submitAnnotation({ actor: ann, itemId: claim!.itemId, input: label })).resolves.toMatchObject({
      created: true,
    });
    await expect(renewLease({ actor: ann, itemId: claim!.itemId })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  // A renewal that read the lease as running and then wrote a new expiry would revive a lease a claim
  // collected in between (its slot already handed back): the check and the write are one statement.
  it("does not renew a lease that ends while the renewal waits for it", async () => {
    const dataset = await makeDataset({ python: 1 });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: ann, campaignId: campaign.id });
    const held = await pgPool().connect();
    let renewal: Promise<Date> | undefined;
    try {
      // Another transaction ends the lease (as a claim collecting lapsed leases does) and holds the row.
      await held.query("BEGIN");
      await held.query(`UPDATE "Assignment" SET status = 'EXPIRED', "finishedAt" = now() WHERE "itemId" = $1`, [
        claim!.itemId,
      ]);
      renewal = renewLease({ actor: ann, itemId: claim!.itemId });
      renewal.catch(() => undefined);
      // Polled from outside the transaction: inside it, pg_stat_activity is read once.
      await expect
        .poll(
          async () =>
            (
              await prisma().$queryRaw<{ n: number }[]>`
                SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%Assignment%'`
            )[0].n,
          { timeout: 10_000 },
        )
        .toBe(1);
      await held.query("COMMIT");
    } finally {
      held.release();
    }
    await expect(renewal).rejects.toMatchObject({ code: "CONFLICT" });
    const after = await prisma().assignment.findFirstOrThrow({
      where: { itemId: claim!.itemId },
      select: { status: true, leaseExpiresAt: true },
    });
    expect(after.status).toBe("EXPIRED");
    expect(after.leaseExpiresAt.getTime()).toBe(claim!.leaseExpiresAt.getTime());
  });
});

describe("blind mode and revisions", () => {
  it("hides the critic until the first label, keeps the pre-reveal label, and appends revisions", async () => {
    const dataset = await makeDataset({ python: 1 });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        overlap: 1,
        agreementFraction: 0,
        blind: true,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: ann, campaignId: campaign.id });
    const before = await getWorkItem({ actor: ann, itemId: claim!.itemId });
    expect(before.isCriticVisible).toBe(false);
    expect(before.record.critic).toBeNull();

    const first = await submitAnnotation({ actor: ann, itemId: claim!.itemId, input: label });
    const after = await getWorkItem({ actor: ann, itemId: claim!.itemId });
    expect(after.isCriticVisible).toBe(true);
    expect(after.record.critic?.overallPass).toBe(false);

    const revised = await submitAnnotation({
      actor: ann,
      itemId: claim!.itemId,
      input: {
        ...label,
        valid: false,
        categories: ["other"],
        note: "The critic is right: the tests check stdout formatting.",
        baseRevision: first.revision,
      },
    });
    expect(revised.revision).toBe(2);
    const stored = await prisma().annotation.findUniqueOrThrow({
      where: { id: first.id },
      select: {
        valid: true,
        preRevealValid: true,
        revisions: { orderBy: { revision: "asc" }, select: { revision: true, valid: true } },
      },
    });
    expect(stored).toEqual({
      valid: false,
      preRevealValid: true,
      revisions: [
        { revision: 1, valid: true },
        { revision: 2, valid: false },
      ],
    });

    // A form loaded at revision 1 is now stale.
    await expect(
      submitAnnotation({ actor: ann, itemId: claim!.itemId, input: { ...label, note: "stale tab", baseRevision: 1 } }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("does not show another annotator's item", async () => {
    const dataset = await makeDataset({ python: 1 });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        overlap: 2,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const bob = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: ann, campaignId: campaign.id });
    await expect(getWorkItem({ actor: bob, itemId: claim!.itemId })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("returns a lapsed lease to the pool at the next claim in its campaign, and leaves other campaigns' leases alone", async () => {
    const dataset = await makeDataset({ python: 1 });
    const input = {
      dataset,
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus" as const,
      leaseMinutes: 30,
    };
    const first = await createCampaign({ actor: admin, input: { ...input, name: uniqueName("c") } });
    const other = await createCampaign({ actor: admin, input: { ...input, name: uniqueName("c") } });
    const [gone, next, elsewhere] = await Promise.all([0, 1, 2].map(() => makeUser("ANNOTATOR", ["python"])));
    const lapsed = await claimNextItem({ actor: gone, campaignId: first.id });
    const otherLapsed = await claimNextItem({ actor: elsewhere, campaignId: other.id });
    await prisma().assignment.updateMany({
      where: { userId: { in: [gone.id, elsewhere.id] } },
      data: { leaseExpiresAt: new Date(Date.now() - 60_000) },
    });
    const claim = await claimNextItem({ actor: next, campaignId: first.id });
    expect(claim?.itemId).toBe(lapsed!.itemId);
    const statusOf = async (userId: string) =>
      (await prisma().assignment.findFirstOrThrow({ where: { userId }, select: { status: true } })).status;
    expect(await statusOf(gone.id)).toBe("EXPIRED");
    expect(await statusOf(elsewhere.id)).toBe("ACTIVE");
    const slots = async (itemId: string) =>
      (await prisma().campaignItem.findUniqueOrThrow({ where: { id: itemId }, select: { slotsTaken: true } }))
        .slotsTaken;
    expect(await slots(lapsed!.itemId)).toBe(1);
    expect(await slots(otherLapsed!.itemId)).toBe(1);
  });
});
