// Gold items against PostgreSQL: importing gold answers (all or nothing), who may read them, how a
// campaign mixes them into each annotator's queue without a visible difference, that they never
// count in reports, agreement, exports, review queues or progress, and gold accuracy per annotator.
import { beforeAll, describe, expect, it } from "vitest";

import { isGoldTurn } from "@/lib/annotation/gold-draw";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { getCampaignAgreement } from "./agreement";
import { listAnnotatorProgress } from "./annotator-progress";
import { updateCampaignSettings } from "./campaign-lifecycle";
import { createCampaign, getCampaign, getCampaignProgress } from "./campaigns";
import { prisma } from "./client";
import { exportCampaign } from "./exports";
import { clearGoldAnswer, getGoldAnswer, importGoldAnswers, listGoldAnswers, setGoldAnswer } from "./gold";
import { importRecords } from "./imports";
import { claimNextItem, getWorkItem, renewLease, skipItem, submitAnnotation } from "./queue";
import { getRecord } from "./records";
import { getCampaignReport, getDatasetReport } from "./reports";
import { adjudicateItem, listReviewQueue } from "./review";

const SAMPLE = 20;
const GOLD = 12;
// Gold answers: the first 8 gold records are valid, the last 4 invalid.
const goldValid = (index: number) => index < 8;

let admin: Actor;
let reviewer: Actor;
let ann: Actor;
let bea: Actor;
let dataset: string;
let goldKeys: string[];
let campaignId: string;
const SEED = "gold-seed";
const SHARE = 0.3;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  reviewer = await makeUser("REVIEWER");
  ann = await makeUser("ANNOTATOR", ["python"]);
  bea = await makeUser("ANNOTATOR", ["python"]);
  dataset = uniqueName("gold");
  const tag = dataset.replaceAll("-", "_");
  const records = [
    ...Array.from({ length: SAMPLE }, (_, index) => makeRecord(`s${index}_${tag}`, { kind: "sample" })),
    ...Array.from({ length: GOLD }, (_, index) => makeRecord(`g${index}_${tag}`, { kind: "gold", index })),
  ];
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl(records)),
    skipInvalid: false,
    origin: "api",
  });
  const gold = await prisma().record.findMany({
    where: { dataset: { name: dataset }, extra: { path: ["kind"], equals: "gold" } },
    select: { key: true, extra: true },
  });
  goldKeys = [];
  for (const record of gold) goldKeys[(record.extra as { index: number }).index] = record.key;
});

const goldLine = (index: number) =>
  JSON.stringify({
    key: goldKeys[index],
    verdict: goldValid(index) ? "valid" : "invalid",
    categories: goldValid(index) ? [] : ["name-mismatch"],
  });

describe("gold answers", () => {
  it("imports a file all or nothing, naming each bad line", async () => {
    const bad = [
      goldLine(0),
      goldLine(1),
      '{"key":"' + goldKeys[2] + '","verdict":"perhaps"}',
      JSON.stringify({ key: "f".repeat(64), verdict: "valid" }),
      goldLine(0),
    ].join("\n");
    const refused = await importGoldAnswers({ actor: admin, datasetName: dataset, text: bad }).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: "INVALID_INPUT" });
    const listed = (refused as { fieldErrors: { file: string[] } }).fieldErrors.file;
    expect(listed).toHaveLength(3);
    expect(listed[0]).toMatch(/^line 3: .*valid" or "invalid/);
    expect(listed[1]).toMatch(/^line 4: .*holds no record with key f{64}/);
    expect(listed[2]).toBe("line 5: The record is named again (first on line 1).");
    expect(await listGoldAnswers({ actor: admin, datasetName: dataset })).toEqual([]);

    const summary = await importGoldAnswers({
      actor: admin,
      datasetName: dataset,
      text: Array.from({ length: GOLD }, (_, index) => goldLine(index)).join("\n"),
    });
    expect(summary).toEqual({ dataset, imported: GOLD });
    const answers = await listGoldAnswers({ actor: reviewer, datasetName: dataset });
    expect(answers.filter((answer) => answer.valid)).toHaveLength(8);
    expect(answers.find((answer) => answer.key === goldKeys[11])).toMatchObject({
      valid: false,
      categories: ["name-mismatch"],
      language: "python",
    });
  });

  it("lets admins set answers by hand, reviewers read them, and never annotators", async () => {
    const recordId = (await prisma().record.findFirstOrThrow({ where: { key: goldKeys[0] }, select: { id: true } })).id;
    await setGoldAnswer({ actor: admin, recordId, answer: { valid: true, categories: [], note: "checked by hand" } });
    await expect(getGoldAnswer({ actor: reviewer, recordId })).resolves.toMatchObject({
      valid: true,
      note: "checked by hand",
    });
    await expect(getGoldAnswer({ actor: ann, recordId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listGoldAnswers({ actor: ann, datasetName: dataset })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      setGoldAnswer({ actor: reviewer, recordId, answer: { valid: false, categories: [], note: null } }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(importGoldAnswers({ actor: reviewer, datasetName: dataset, text: goldLine(0) })).rejects.toMatchObject(
      { code: "FORBIDDEN" },
    );
    await expect(
      setGoldAnswer({ actor: admin, recordId: 2_000_000_000, answer: { valid: true, categories: [], note: null } }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    const spare = await prisma().record.findFirstOrThrow({
      where: { dataset: { name: dataset }, extra: { path: ["kind"], equals: "sample" } },
      select: { id: true },
    });
    await setGoldAnswer({ actor: admin, recordId: spare.id, answer: { valid: true, categories: [], note: null } });
    await clearGoldAnswer({ actor: admin, recordId: spare.id });
    await expect(getGoldAnswer({ actor: admin, recordId: spare.id })).resolves.toBeNull();
  });
});

describe("gold items in a campaign", () => {
  const kinds: Record<string, ("gold" | "sample")[]> = {};
  const itemKind = async (itemId: string) =>
    (await prisma().campaignItem.findUniqueOrThrow({ where: { id: itemId }, select: { gold: true } })).gold
      ? "gold"
      : "sample";

  it("leaves gold records out of the sample and hides the share from annotators", async () => {
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("gold"),
        seed: SEED,
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
        goldShare: SHARE,
      },
    });
    campaignId = campaign.id;
    expect(campaign.itemCount).toBe(SAMPLE);
    expect((await getCampaign({ actor: admin, campaignId })).goldShare).toBe(SHARE);
    expect(await getCampaign({ actor: ann, campaignId })).not.toHaveProperty("goldShare");
  });

  it("mixes gold in at the share, then serves the rest once the sample is done; 'still available' drops by one per item either way", async () => {
    let sampleLeft = SAMPLE;
    let goldLeft = GOLD;
    const shapes = new Set<string>();
    for (let claimIndex = 0; ; claimIndex += 1) {
      const available = (await getCampaignProgress({ actor: ann, campaignId })).mine.available;
      expect(available).toBe(sampleLeft + goldLeft);
      const claim = await claimNextItem({ actor: ann, campaignId });
      const expected =
        isGoldTurn({ seed: SEED, userId: ann.id, claimIndex, share: SHARE }) && goldLeft > 0
          ? "gold"
          : sampleLeft > 0
            ? "sample"
            : goldLeft > 0
              ? "gold"
              : null;
      if (!claim) {
        expect(expected).toBeNull();
        break;
      }
      const kind = await itemKind(claim.itemId);
      expect(kind, `claim ${claimIndex}`).toBe(expected);
      (kinds[ann.id] ??= []).push(kind);
      if (kind === "gold") goldLeft -= 1;
      else sampleLeft -= 1;
      // Nothing in what the annotator receives tells the two apart.
      expect(claim.itemId).toMatch(/^itm_[0-9a-f]{32}$/);
      const work = await getWorkItem({ actor: ann, itemId: claim.itemId });
      shapes.add(
        JSON.stringify([
          Object.keys(claim).sort(),
          Object.keys(work).sort(),
          Object.keys(work.record).sort(),
          Object.keys(work.assignment!).sort(),
        ]),
      );
      expect(JSON.stringify(work)).not.toMatch(/"\w*gold\w*"\s*:/i);
      await submitAnnotation({
        actor: ann,
        itemId: claim.itemId,
        input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
      });
    }
    expect(shapes.size).toBe(1);
    const whileSampleLeft = kinds[ann.id].slice(0, kinds[ann.id].lastIndexOf("sample") + 1);
    const share = whileSampleLeft.filter((kind) => kind === "gold").length / whileSampleLeft.length;
    expect(share).toBeGreaterThan(0.1);
    expect(share).toBeLessThan(0.5);
    expect(kinds[ann.id].filter((kind) => kind === "gold")).toHaveLength(GOLD);
  });

  it("gives every annotator every gold item: overlap does not apply", async () => {
    for (;;) {
      const claim = await claimNextItem({ actor: bea, campaignId });
      if (!claim) break;
      (kinds[bea.id] ??= []).push(await itemKind(claim.itemId));
      await submitAnnotation({
        actor: bea,
        itemId: claim.itemId,
        input: { valid: false, categories: [], note: null, needsReview: false, activeMs: 2000 },
      });
    }
    expect(kinds[bea.id]).toEqual(Array(GOLD).fill("gold"));
  });

  it("never counts gold labels in progress, reports, agreement, review queues or exports", async () => {
    const progress = await getCampaignProgress({ actor: admin, campaignId });
    expect(progress).toMatchObject({
      items: SAMPLE,
      annotationsWanted: SAMPLE,
      annotationsDone: SAMPLE,
      itemsComplete: SAMPLE,
    });
    const report = await getCampaignReport({ actor: admin, campaignId });
    expect(report.pooled).toMatchObject({ sampled: SAMPLE, labelled: SAMPLE, resolved: SAMPLE, valid: SAMPLE });
    expect((await getDatasetReport({ actor: admin, datasetName: dataset })).pooled).toMatchObject({
      sampled: SAMPLE,
      resolved: SAMPLE,
      valid: SAMPLE,
    });
    // Ann said Valid and Bea Invalid on every gold item: counted, they would fill the disagreement queue.
    const queue = await listReviewQueue({ actor: reviewer, campaignId, filters: {} });
    expect(queue.items).toEqual([]);
    const agreement = await getCampaignAgreement({ actor: admin, campaignId });
    expect(agreement.annotators.map((entry) => [entry.userId, entry.items])).toEqual([[ann.id, SAMPLE]]);
    for (const what of ["labels", "annotations"] as const) {
      let text = "";
      for await (const chunk of exportCampaign({ actor: admin, campaignId, what, format: "jsonl" })) text += chunk;
      expect(text.trim().split("\n"), what).toHaveLength(SAMPLE);
    }
    const counters = await prisma().campaignItem.aggregate({
      where: { campaignId, gold: false },
      _max: { slotsTaken: true },
      _count: { _all: true },
    });
    expect(counters).toEqual({ _max: { slotsTaken: 1 }, _count: { _all: SAMPLE } });
  });

  it("refuses to adjudicate a gold item (409): its verdict is the gold answer, and a decision would change nothing", async () => {
    const goldItem = await prisma().campaignItem.findFirstOrThrow({
      where: { campaignId, gold: true },
      select: { id: true },
    });
    await expect(
      adjudicateItem({
        actor: reviewer,
        itemId: goldItem.id,
        input: { valid: false, categories: [], reason: "disagree" },
      }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/gold item: it is not adjudicated/) });
    expect(await prisma().adjudication.count({ where: { itemId: goldItem.id } })).toBe(0);
    const sampleItem = await prisma().campaignItem.findFirstOrThrow({
      where: { campaignId, gold: false },
      select: { id: true },
    });
    await expect(
      adjudicateItem({
        actor: reviewer,
        itemId: sampleItem.id,
        input: { valid: true, categories: [], reason: "checked" },
      }),
    ).resolves.toMatchObject({ revision: 1 });
    await prisma().adjudication.deleteMany({ where: { itemId: sampleItem.id } });
  });

  it("shows gold accuracy per annotator and language: a verdict that matches counts as correct", async () => {
    const rows = await listAnnotatorProgress({ actor: reviewer, campaignId });
    const byUser = Object.fromEntries(rows.map((row) => [row.userId, row]));
    expect(byUser[ann.id]).toMatchObject({
      labelled: SAMPLE + GOLD,
      gold: { n: GOLD, correct: 8, byLanguage: [{ language: "python", n: GOLD, correct: 8 }] },
    });
    expect(byUser[bea.id]).toMatchObject({ labelled: GOLD, gold: { n: GOLD, correct: 4 } });
    const agreement = await getCampaignAgreement({ actor: reviewer, campaignId });
    expect(agreement.annotators.find((entry) => entry.userId === ann.id)?.gold).toEqual({
      n: GOLD,
      correct: 8,
      byLanguage: [{ language: "python", n: GOLD, correct: 8 }],
    });
  });

  it("keeps a gold record's critic hidden from annotators in a blind campaign until they label it, like the sample's", async () => {
    const blindDataset = uniqueName("goldblind");
    const tag = blindDataset.replaceAll("-", "_");
    const critic = { critic_result: { summary: { overall_pass: true, failed_rules: [], key_points: [] } } };
    await importRecords({
      actor: admin,
      datasetName: blindDataset,
      source: chunks(toJsonl([makeRecord(`b0_${tag}`, critic), makeRecord(`b1_${tag}`, critic)])),
      skipInvalid: false,
      origin: "api",
    });
    const [goldRecord, sampleRecord] = await prisma().record.findMany({
      where: { dataset: { name: blindDataset } },
      orderBy: { id: "asc" },
      select: { id: true },
    });
    await setGoldAnswer({ actor: admin, recordId: goldRecord.id, answer: { valid: true, categories: [], note: null } });
    const carl = await makeUser("ANNOTATOR", ["python"]);
    const blind = await createCampaign({
      actor: admin,
      input: {
        dataset: blindDataset,
        name: uniqueName("goldblind"),
        overlap: 1,
        agreementFraction: 0,
        blind: true,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    // Without a gold share the gold record is in no annotator's queue: its critic is not hidden.
    expect((await getRecord({ actor: carl, id: goldRecord.id })).critic).not.toBeNull();
    await updateCampaignSettings({ actor: admin, campaignId: blind.id, input: { goldShare: 0.5 } });
    expect((await getRecord({ actor: carl, id: goldRecord.id })).critic).toBeNull();
    expect((await getRecord({ actor: carl, id: sampleRecord.id })).critic).toBeNull();
    for (;;) {
      const claim = await claimNextItem({ actor: carl, campaignId: blind.id });
      if (!claim) break;
      expect((await getWorkItem({ actor: carl, itemId: claim.itemId })).isCriticVisible).toBe(false);
      await submitAnnotation({
        actor: carl,
        itemId: claim.itemId,
        input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
      });
    }
    expect((await getRecord({ actor: carl, id: goldRecord.id })).critic).not.toBeNull();
    expect((await getRecord({ actor: admin, id: goldRecord.id })).critic).not.toBeNull();
  });
});

describe("gold item leases and skips", () => {
  it("renews, skips and accepts a late submit like any other item", async () => {
    const name = uniqueName("goldlease");
    const tag = name.replaceAll("-", "_");
    await importRecords({
      actor: admin,
      datasetName: name,
      source: chunks(toJsonl([makeRecord(`l0_${tag}`), makeRecord(`l1_${tag}`)])),
      skipInvalid: false,
      origin: "api",
    });
    const both = await prisma().record.findMany({ where: { dataset: { name } }, select: { id: true } });
    for (const record of both)
      await setGoldAnswer({ actor: admin, recordId: record.id, answer: { valid: true, categories: [], note: null } });
    // Every record is gold: the sample is empty and the queue hands out the gold items.
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset: name,
        name: uniqueName("goldlease"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
        goldShare: 0.1,
      },
    });
    expect(campaign.itemCount).toBe(0);
    const eve = await makeUser("ANNOTATOR", ["python"]);
    const first = (await claimNextItem({ actor: eve, campaignId: campaign.id }))!;
    expect(await claimNextItem({ actor: eve, campaignId: campaign.id })).toMatchObject({
      itemId: first.itemId,
      isNew: false,
    });
    await expect(renewLease({ actor: eve, itemId: first.itemId })).resolves.toBeInstanceOf(Date);
    await skipItem({ actor: eve, itemId: first.itemId, reason: "unsure" });
    const second = (await claimNextItem({ actor: eve, campaignId: campaign.id }))!;
    expect(second.itemId).not.toBe(first.itemId);
    await prisma().assignment.updateMany({
      where: { itemId: second.itemId, userId: eve.id },
      data: { leaseExpiresAt: new Date(Date.now() - 1000) },
    });
    expect(await claimNextItem({ actor: eve, campaignId: campaign.id })).toBeNull();
    await expect(
      submitAnnotation({
        actor: eve,
        itemId: second.itemId,
        input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 100 },
      }),
    ).resolves.toMatchObject({ created: true });
    await expect(
      submitAnnotation({
        actor: eve,
        itemId: first.itemId,
        input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 100 },
      }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await getCampaignProgress({ actor: eve, campaignId: campaign.id })).mine).toEqual({
      submitted: 1,
      skipped: 1,
      active: 0,
      available: 0,
    });
  });
});

describe("gold over REST", () => {
  it("imports CSV all or nothing (422 names the line), lists answers for reviewers, 403 for annotators, and the claim answer looks the same for gold", async () => {
    const { GET, POST } = await import("@/app/api/v1/datasets/[name]/gold/route");
    const { POST: claim } = await import("@/app/api/v1/campaigns/[id]/claim/route");
    const { createApiToken } = await import("./tokens");
    const token = async (actor: Actor) =>
      (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: actor.id, name: "gold" })).token;
    const name = uniqueName("goldrest");
    const tag = name.replaceAll("-", "_");
    await importRecords({
      actor: admin,
      datasetName: name,
      source: chunks(toJsonl([makeRecord(`r0_${tag}`), makeRecord(`r1_${tag}`), makeRecord(`r2_${tag}`)])),
      skipInvalid: false,
      origin: "api",
    });
    const [first, second] = await prisma().record.findMany({
      where: { dataset: { name } },
      orderBy: { id: "asc" },
      select: { id: true, key: true },
    });
    const call = async (handler: typeof GET, method: string, actor: Actor, body?: string) =>
      handler(
        new Request(`http://localhost/api/v1/datasets/${name}/gold`, {
          method,
          headers: { authorization: `Bearer ${await token(actor)}`, "content-type": "text/csv" },
          body,
        }),
        { params: Promise.resolve({ name }) },
      );

    const refused = await call(POST, "POST", admin, `key,id,verdict\n${first.key},,invalid\n,${second.id},unsure\n`);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { fieldErrors: { file: string[] } } }).error.fieldErrors.file).toEqual([
      expect.stringMatching(/^line 3: /),
    ]);
    expect(await prisma().goldLabel.count({ where: { record: { dataset: { name } } } })).toBe(0);

    const created = await call(
      POST,
      "POST",
      admin,
      `key,id,verdict,categories\n${first.key},,invalid,name-mismatch\n,${second.id},valid,\n`,
    );
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ dataset: name, imported: 2 });
    expect((await call(POST, "POST", reviewer, `id,verdict\n${first.id},valid\n`)).status).toBe(403);
    const listed = await call(GET, "GET", reviewer);
    expect(listed.status).toBe(200);
    expect(
      ((await listed.json()) as { recordId: number; valid: boolean }[]).map((row) => [row.recordId, row.valid]),
    ).toEqual([
      [first.id, false],
      [second.id, true],
    ]);
    expect((await call(GET, "GET", ann)).status).toBe(403);

    // One sample item and two gold items at share 0.5: the three claim answers have the same shape.
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset: name,
        name: uniqueName("goldrest"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
        goldShare: 0.5,
      },
    });
    const dan = await makeUser("ANNOTATOR", ["python"]);
    const danToken = await token(dan);
    const shapes = new Set<string>();
    const shape = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(shape)
        : value && typeof value === "object"
          ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shape(inner)]))
          : typeof value;
    for (let index = 0; index < 3; index += 1) {
      const response = await claim(
        new Request(`http://localhost/api/v1/campaigns/${campaign.id}/claim`, {
          method: "POST",
          headers: { authorization: `Bearer ${danToken}` },
        }),
        { params: Promise.resolve({ id: campaign.id }) },
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as { item: { id: string } };
      shapes.add(
        JSON.stringify(shape({ ...body, record: { ...(body as unknown as { record: object }).record, extra: {} } })),
      );
      await submitAnnotation({
        actor: dan,
        itemId: body.item.id,
        input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 500 },
      });
    }
    expect(shapes.size).toBe(1);
    expect(await prisma().campaignItem.count({ where: { campaignId: campaign.id, gold: true } })).toBe(2);
  });
});
