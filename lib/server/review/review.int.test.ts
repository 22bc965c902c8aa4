// Integration tests of final labels, review queues, adjudication and agreement against PostgreSQL.
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { getCampaignAgreement } from "@/lib/server/review/agreement";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { exportCampaign } from "@/lib/server/reports/exports";
import { adjudicateItem, listReviewQueue } from "@/lib/server/review/review";

let admin: Actor;
let reviewer: Actor;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  reviewer = await makeUser("REVIEWER");
});

type Label = { valid: boolean; categories?: string[]; needsReview?: boolean };

/**
 * A one-item campaign whose item got `labels` from as many annotators; the record carries the
 * given critic verdict and executable-valid flag.
 */
async function labelledItem({
  labels,
  rule = "consensus",
  criticPass = null,
  executableValid = null,
}: {
  labels: Label[];
  rule?: "consensus" | "majority" | "strict";
  criticPass?: boolean | null;
  executableValid?: boolean | null;
}) {
  const dataset = uniqueName("review");
  const record = makeRecord(
    dataset.replaceAll("-", "_"),
    criticPass === null
      ? {}
      : {
          critic_result: {
            summary: {
              overall_pass: criticPass,
              failed_rules: criticPass ? [] : ["Naming/Signature Inconsistency"],
              key_points: [],
            },
          },
        },
  );
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl([record])),
    skipInvalid: false,
    origin: "api",
  });
  await prisma().record.updateMany({ where: { dataset: { name: dataset } }, data: { executableValid } });
  const campaign = await createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("c"),
      overlap: labels.length,
      agreementFraction: 0,
      blind: false,
      finalRule: rule,
      leaseMinutes: 30,
    },
  });
  const annotators: Actor[] = [];
  let itemId = "";
  for (const label of labels) {
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    annotators.push(annotator);
    const claim = await claimNextItem({ actor: annotator, campaignId: campaign.id });
    itemId = claim!.itemId;
    const categories = label.categories ?? (label.valid ? [] : ["name-mismatch"]);
    await submitAnnotation({
      actor: annotator,
      itemId,
      input: {
        valid: label.valid,
        categories,
        note: label.valid ? null : "names differ",
        needsReview: label.needsReview ?? false,
        activeMs: 5000,
      },
    });
  }
  return { campaignId: campaign.id, itemId, annotators };
}

/** The first item's final label, as the labels export (a reader of the final-label relation) gives it. */
async function finalOf(campaignId: string) {
  let text = "";
  for await (const chunk of exportCampaign({ actor: admin, campaignId, what: "labels", format: "jsonl" }))
    text += chunk;
  const [row] = text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { final_label: string; categories: string[]; decided_by: string });
  return {
    valid: row.final_label === "unresolved" ? null : row.final_label === "valid",
    categories: row.categories,
    decidedBy: row.decided_by === "unresolved" ? null : row.decided_by,
  };
}

describe("final labels", () => {
  it("consensus: unanimous labels decide, a split is unresolved", async () => {
    expect(await finalOf((await labelledItem({ labels: [{ valid: true }, { valid: true }] })).campaignId)).toEqual({
      valid: true,
      categories: [],
      decidedBy: "unanimous",
    });
    expect(
      await finalOf((await labelledItem({ labels: [{ valid: true }, { valid: false }] })).campaignId),
    ).toMatchObject({ valid: null, decidedBy: null });
  });

  it("majority: more than half decides; the union of invalidating categories of the Invalid voters", async () => {
    const { campaignId } = await labelledItem({
      rule: "majority",
      labels: [
        { valid: false, categories: ["name-mismatch", "weak-coverage"] },
        { valid: false, categories: ["precision"] },
        { valid: true },
      ],
    });
    expect(await finalOf(campaignId)).toEqual({
      valid: false,
      categories: ["name-mismatch", "precision"],
      decidedBy: "majority",
    });
  });

  it("strict: any Invalid makes it Invalid", async () => {
    const { campaignId } = await labelledItem({
      rule: "strict",
      labels: [{ valid: true }, { valid: true }, { valid: false, categories: ["precision"] }],
    });
    expect(await finalOf(campaignId)).toEqual({ valid: false, categories: ["precision"], decidedBy: "strict" });
  });

  it("an adjudication overrides the annotators", async () => {
    const { campaignId, itemId } = await labelledItem({ labels: [{ valid: true }, { valid: false }] });
    await adjudicateItem({
      actor: reviewer,
      itemId,
      input: { valid: false, categories: ["statement-incomplete"], reason: "The empty-input case is never specified." },
    });
    expect(await finalOf(campaignId)).toEqual({
      valid: false,
      categories: ["statement-incomplete"],
      decidedBy: "adjudication",
    });
  });
});

describe("review queues", () => {
  it("puts each kind of disagreement in its queue, and an adjudicated item in none", async () => {
    const split = await labelledItem({ labels: [{ valid: true }, { valid: false }] });
    const queue = (id: string) => listReviewQueue({ actor: reviewer, campaignId: id, filters: {} });
    expect((await queue(split.campaignId)).counts).toEqual({ annotators: 1, critic: 0, execution: 0, flagged: 0 });

    const critic = await labelledItem({ labels: [{ valid: true }], criticPass: false });
    expect((await queue(critic.campaignId)).counts).toMatchObject({ annotators: 0, critic: 1 });

    const execution = await labelledItem({ labels: [{ valid: true }], criticPass: true, executableValid: false });
    expect((await queue(execution.campaignId)).counts).toMatchObject({ critic: 0, execution: 1 });
    const invalidButPassing = await labelledItem({
      labels: [{ valid: false }],
      criticPass: true,
      executableValid: true,
    });
    expect((await queue(invalidButPassing.campaignId)).counts).toMatchObject({ critic: 1, execution: 1 });

    const flagged = await labelledItem({ labels: [{ valid: true, needsReview: true }] });
    const flaggedQueue = await queue(flagged.campaignId);
    expect(flaggedQueue.counts.flagged).toBe(1);
    expect(flaggedQueue.items[0].reasons.flagged).toMatch(/asked for review/);

    await adjudicateItem({
      actor: reviewer,
      itemId: split.itemId,
      input: { valid: true, categories: [], reason: "Both readings are fine; the statement is explicit." },
    });
    expect((await queue(split.campaignId)).counts.annotators).toBe(0);
  });

  it("names each item by its problem's title and says who voted what", async () => {
    const split = await labelledItem({ labels: [{ valid: true }, { valid: false, categories: ["precision"] }] });
    const [row] = (await listReviewQueue({ actor: reviewer, campaignId: split.campaignId, filters: {} })).items;
    expect(row.title).toMatch(/^Write add_review_\w+\(a, b\) in Python that returns the sum\.$/);
    expect(row.votes).toEqual([
      { annotator: split.annotators[0].email, valid: true, categories: [] },
      { annotator: split.annotators[1].email, valid: false, categories: ["precision"] },
    ]);
  });

  it("filters by queue, annotator and category, and refuses annotators", async () => {
    const split = await labelledItem({ labels: [{ valid: true }, { valid: false, categories: ["precision"] }] });
    const byCategory = await listReviewQueue({
      actor: reviewer,
      campaignId: split.campaignId,
      filters: { category: "precision" },
    });
    expect(byCategory.items).toHaveLength(1);
    expect(
      (await listReviewQueue({ actor: reviewer, campaignId: split.campaignId, filters: { category: "name-mismatch" } }))
        .items,
    ).toHaveLength(0);
    expect(
      (
        await listReviewQueue({
          actor: reviewer,
          campaignId: split.campaignId,
          filters: { annotatorId: split.annotators[0].id },
        })
      ).items,
    ).toHaveLength(1);
    expect(
      (await listReviewQueue({ actor: reviewer, campaignId: split.campaignId, filters: { queue: "flagged" } })).items,
    ).toHaveLength(0);
    await expect(
      listReviewQueue({ actor: split.annotators[0], campaignId: split.campaignId, filters: {} }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("adjudication", () => {
  it("lets one of two simultaneous reviewers win; the other gets CONFLICT; revisions need the current revision", async () => {
    const { itemId } = await labelledItem({ labels: [{ valid: true }, { valid: false }] });
    const other = await makeUser("REVIEWER");
    const results = await Promise.allSettled([
      adjudicateItem({ actor: reviewer, itemId, input: { valid: true, categories: [], reason: "fine" } }),
      adjudicateItem({
        actor: other,
        itemId,
        input: { valid: false, categories: ["precision"], reason: "float equality" },
      }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((result) => result.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: "CONFLICT" });
    expect(String(rejected.reason.message)).toMatch(/already decided/);

    await expect(
      adjudicateItem({
        actor: other,
        itemId,
        input: { valid: false, categories: [], reason: "stale", baseRevision: 7 },
      }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    const revised = await adjudicateItem({
      actor: other,
      itemId,
      input: { valid: false, categories: ["precision"], reason: "On reflection, float equality.", baseRevision: 1 },
    });
    expect(revised.revision).toBe(2);
    const history = await prisma().adjudicationRevision.findMany({
      where: { adjudication: { itemId } },
      orderBy: { revision: "asc" },
      select: { revision: true },
    });
    expect(history.map((row) => row.revision)).toEqual([1, 2]);
    expect(
      await prisma().auditEvent.count({ where: { targetId: itemId, action: { startsWith: "adjudication." } } }),
    ).toBe(2);
  });

  it("rejects unknown categories", async () => {
    const { itemId } = await labelledItem({ labels: [{ valid: true }] });
    await expect(
      adjudicateItem({ actor: reviewer, itemId, input: { valid: false, categories: ["nope"], reason: "x" } }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});

describe("agreement", () => {
  it("reports null, not a number, where a metric is undefined", async () => {
    const three = await labelledItem({
      labels: [{ valid: true }, { valid: true }, { valid: false }],
      criticPass: true,
    });
    const figures = await getCampaignAgreement({ actor: admin, campaignId: three.campaignId });
    // Three raters: Cohen's kappa does not exist. One item with all-valid-but-one: alpha is defined.
    expect(figures.overall.cohensKappa).toBeNull();
    expect(figures.overall.items).toBe(1);
    expect(figures.overall.percentAgreement).toBeCloseTo(1 / 3, 5);
    // The final label is unresolved under consensus, so nothing to compare with the critic.
    expect(figures.humanVsCritic).toMatchObject({ items: 0, kappa: null });
    expect(figures.annotators).toHaveLength(3);
  });
});
