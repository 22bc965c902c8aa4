// Integration tests of who sees what of a record: blind mode hides the critic on every read (record
// page, browser and its critic filter, REST list, review, exports), and annotators see only the
// datasets they work on.
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { runRecord } from "@/lib/server/runs/run-record";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { exportCampaign } from "@/lib/server/reports/exports";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { getClaimedRecord } from "@/lib/server/labelling/get-claimed-record";
import { getWorkItem } from "@/lib/server/labelling/get-work-item";
import { skipItem } from "@/lib/server/labelling/skip-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { browseRecords, getRecord, listDatasets, listRecords } from "@/lib/server/records/records";
import { getReviewItem } from "@/lib/server/review/review";

let admin: Actor;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
});

const label = { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 };
const failingCritic = {
  critic_result: {
    summary: { overall_pass: false, failed_rules: ["Other Issues"], key_points: ["tests check stdout"] },
  },
  critic_reasoning: "The statement never mentions stdout.",
};

/** A dataset of python records, each with a failing critic verdict. */
async function makeDataset(count: number): Promise<string> {
  const name = uniqueName("vis");
  const records = Array.from({ length: count }, (_, index) =>
    makeRecord(`v${index}_${name.replaceAll("-", "_")}`, failingCritic),
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

async function makeCampaign(dataset: string, blind: boolean) {
  return createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("c"),
      overlap: 1,
      agreementFraction: 0,
      blind,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
}

/** Every read an annotator has of a record's critic, as what each one reveals. */
async function criticAsSeenBy(actor: Actor, dataset: string, recordId: number) {
  const record = await getRecord({ actor, id: recordId });
  const listed = (await listRecords({ actor, datasetName: dataset, filters: {}, limit: 100 })).records.find(
    (row) => row.id === recordId,
  )!;
  const browsed = (await browseRecords({ actor, datasetName: dataset, filters: {}, limit: 100 })).items.find(
    (row) => row.id === recordId,
  )!;
  const filtered = async (critic: "pass" | "fail" | "none") =>
    (await browseRecords({ actor, datasetName: dataset, filters: { critic }, limit: 100 })).items.some(
      (row) => row.id === recordId,
    );
  const listedFiltered = async (critic: "pass" | "fail" | "none") =>
    (await listRecords({ actor, datasetName: dataset, filters: { critic }, limit: 100 })).records.some(
      (row) => row.id === recordId,
    );
  return {
    page: record.critic?.overallPass ?? null,
    pageHidden: record.isCriticHidden,
    rest: listed.critic?.overallPass ?? null,
    restHidden: listed.isCriticHidden,
    browser: browsed.criticPass,
    browserHasCritic: browsed.hasCritic,
    browserHidden: browsed.isCriticHidden,
    matchesFilter: {
      fail: await filtered("fail"),
      pass: await filtered("pass"),
      none: await filtered("none"),
      restFail: await listedFiltered("fail"),
      restNone: await listedFiltered("none"),
    },
  };
}

const HIDDEN = {
  page: null,
  pageHidden: true,
  rest: null,
  restHidden: true,
  browser: null,
  browserHasCritic: false,
  browserHidden: true,
  matchesFilter: { fail: false, pass: false, none: false, restFail: false, restNone: false },
};
const SHOWN = {
  page: false,
  pageHidden: false,
  rest: false,
  restHidden: false,
  browser: false,
  browserHasCritic: true,
  browserHidden: false,
  matchesFilter: { fail: true, pass: false, none: false, restFail: true, restNone: false },
};

describe("blind mode on every read", () => {
  it("hides the critic of a blind item from its annotator everywhere until they label it", async () => {
    const dataset = await makeDataset(2);
    const campaign = await makeCampaign(dataset, true);
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: ann, campaignId: campaign.id });
    expect(await criticAsSeenBy(ann, dataset, claim!.recordId)).toEqual(HIDDEN);
    expect((await getWorkItem({ actor: ann, itemId: claim!.itemId })).record.critic).toBeNull();
    // The API's claim answers with the same record read (getClaimedRecord), so the same rule.
    expect((await getClaimedRecord({ actor: ann, itemId: claim!.itemId })).record.critic).toBeNull();

    await submitAnnotation({ actor: ann, itemId: claim!.itemId, input: label });
    expect(await criticAsSeenBy(ann, dataset, claim!.recordId)).toEqual(SHOWN);
  });

  it("hides the critic from an annotator before they claim the item, so a first label is truly pre-reveal", async () => {
    const dataset = await makeDataset(1);
    const campaign = await makeCampaign(dataset, true);
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const [item] = await prisma().campaignItem.findMany({
      where: { campaignId: campaign.id },
      select: { recordId: true },
    });
    expect(await criticAsSeenBy(ann, dataset, item.recordId)).toEqual(HIDDEN);
  });

  it("shows the critic once the annotator skipped the item, since they can no longer label it", async () => {
    const dataset = await makeDataset(1);
    const campaign = await makeCampaign(dataset, true);
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: ann, campaignId: campaign.id });
    await skipItem({ actor: ann, itemId: claim!.itemId, reason: "not my area" });
    expect(await criticAsSeenBy(ann, dataset, claim!.recordId)).toEqual(SHOWN);
  });

  it("keeps the critic hidden through an expired lease the annotator could still submit on", async () => {
    const dataset = await makeDataset(1);
    const campaign = await makeCampaign(dataset, true);
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: ann, campaignId: campaign.id });
    await prisma().assignment.updateMany({
      where: { itemId: claim!.itemId },
      data: { status: "EXPIRED", leaseExpiresAt: new Date(Date.now() - 1000) },
    });
    await prisma().campaignItem.update({ where: { id: claim!.itemId }, data: { slotsTaken: 0 } });
    expect(await criticAsSeenBy(ann, dataset, claim!.recordId)).toEqual(HIDDEN);
  });

  it("shows the critic of a record in a campaign that is not blind", async () => {
    const dataset = await makeDataset(1);
    const campaign = await makeCampaign(dataset, false);
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: ann, campaignId: campaign.id });
    expect(await criticAsSeenBy(ann, dataset, claim!.recordId)).toEqual(SHOWN);
  });

  it("hides the critic from a reviewer only while they hold a blind item, in records, review and exports", async () => {
    const dataset = await makeDataset(2);
    const campaign = await makeCampaign(dataset, true);
    const reviewer = await makeUser("REVIEWER", ["python"]);
    const [first, second] = await prisma().campaignItem.findMany({
      where: { campaignId: campaign.id },
      orderBy: { position: "asc" },
      select: { id: true, recordId: true },
    });
    // Before claiming, a reviewer sees the critic (reviewing needs it).
    expect(await criticAsSeenBy(reviewer, dataset, first.recordId)).toEqual(SHOWN);

    const claim = await claimNextItem({ actor: reviewer, campaignId: campaign.id });
    expect(claim!.itemId).toBe(first.id);
    expect(await criticAsSeenBy(reviewer, dataset, first.recordId)).toEqual(HIDDEN);
    expect(await criticAsSeenBy(reviewer, dataset, second.recordId)).toEqual(SHOWN);
    expect((await getReviewItem({ actor: reviewer, itemId: first.id })).record.critic).toBeNull();
    expect((await getReviewItem({ actor: reviewer, itemId: second.id })).record.critic?.overallPass).toBe(false);

    let exported = "";
    for await (const chunk of exportCampaign({
      actor: reviewer,
      campaignId: campaign.id,
      what: "labels",
      format: "jsonl",
    }))
      exported += chunk;
    const rows = exported
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { critic_pass: boolean | null });
    expect(rows.map((row) => row.critic_pass)).toEqual([null, false]);

    let adminExport = "";
    for await (const chunk of exportCampaign({
      actor: admin,
      campaignId: campaign.id,
      what: "labels",
      format: "jsonl",
    }))
      adminExport += chunk;
    expect(
      adminExport
        .trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as { critic_pass: boolean | null }).critic_pass),
    ).toEqual([false, false]);

    // The reviewer may have read the critic before claiming, so their first label is not kept as pre-reveal.
    const saved = await submitAnnotation({ actor: reviewer, itemId: first.id, input: label });
    expect(
      (await prisma().annotation.findUniqueOrThrow({ where: { id: saved.id }, select: { preRevealValid: true } }))
        .preRevealValid,
    ).toBeNull();
    expect(await criticAsSeenBy(reviewer, dataset, first.recordId)).toEqual(SHOWN);
  });
});

describe("records outside an annotator's campaigns", () => {
  it("shows annotators only the datasets that have a campaign in one of their languages", async () => {
    const worked = await makeDataset(1);
    const other = await makeDataset(1);
    await makeCampaign(worked, false);
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const rustOnly = await makeUser("ANNOTATOR", ["rust"]);
    const reviewer = await makeUser("REVIEWER", []);
    const [otherRecord] = await prisma().record.findMany({ where: { dataset: { name: other } }, select: { id: true } });
    const [workedRecord] = await prisma().record.findMany({
      where: { dataset: { name: worked } },
      select: { id: true },
    });

    const names = async (actor: Actor) => (await listDatasets({ actor })).map((dataset) => dataset.name);
    expect(await names(ann)).toContain(worked);
    expect(await names(ann)).not.toContain(other);
    expect(await names(rustOnly)).not.toContain(worked);
    expect(await names(reviewer)).toEqual(expect.arrayContaining([worked, other]));

    await expect(getRecord({ actor: ann, id: otherRecord.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(browseRecords({ actor: ann, datasetName: other, filters: {}, limit: 10 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(listRecords({ actor: ann, datasetName: other, filters: {}, limit: 10 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(runRecord({ actor: ann, recordId: otherRecord.id, kind: "demo" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(getRecord({ actor: rustOnly, id: workedRecord.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await getRecord({ actor: ann, id: workedRecord.id })).id).toBe(workedRecord.id);
    expect((await getRecord({ actor: reviewer, id: otherRecord.id })).id).toBe(otherRecord.id);
  });
});
