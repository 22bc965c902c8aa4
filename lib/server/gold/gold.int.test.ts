// Gold items against PostgreSQL: importing gold answers (all or nothing), who may read them, how a
// campaign mixes them into each annotator's queue without a visible difference, that they never
// count in reports, agreement, exports, review queues or progress, and gold accuracy per annotator.
import { beforeAll, describe, expect, it } from "vitest";

import { createHash } from "node:crypto";

import { isGoldTurn } from "@/lib/annotation/gold-draw";
import { queueDrawKey } from "@/lib/server/auth/secrets";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { readResponse } from "@/lib/testing/api-response";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { getCampaignAgreement } from "@/lib/server/review/agreement";
import { listAnnotatorProgress } from "@/lib/server/campaigns/annotator-progress";
import { updateCampaignSettings } from "@/lib/server/campaigns/lifecycle";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { getCampaign } from "@/lib/server/campaigns/get-campaign";
import { getCampaignProgress } from "@/lib/server/campaigns/get-campaign-progress";
import { listCampaignProgress } from "@/lib/server/campaigns/list-campaign-progress";
import { prisma } from "@/lib/server/db/client";
import { exportCampaign } from "@/lib/server/reports/exports";
import {
  clearGoldAnswer,
  getGoldAnswer,
  importGoldAnswers,
  listGoldAnswers,
  setGoldAnswer,
} from "@/lib/server/gold/gold";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { getWorkItem } from "@/lib/server/labelling/get-work-item";
import { renewLease } from "@/lib/server/labelling/renew-lease";
import { skipItem } from "@/lib/server/labelling/skip-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { getRecord } from "@/lib/server/records/records";
import { getCampaignReport, getDatasetReport } from "@/lib/server/reports/reports";
import { adjudicateItem, listReviewQueue } from "@/lib/server/review/review";

const SAMPLE = 20;
const GOLD = 6;
// Gold answers: the first 4 gold records are valid, the last 2 invalid.
const goldValid = (index: number) => index < 4;

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
    expect(answers.filter((answer) => answer.valid)).toHaveLength(4);
    expect(answers.find((answer) => answer.key === goldKeys[5])).toMatchObject({
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

  it("leaves gold records out of the sample and hides the share and the seed from annotators", async () => {
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("gold"),
        seed: SEED,
        // Two annotators label every sample item, so Ann's and Bea's gold labels could collide.
        overlap: 2,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
        goldShare: SHARE,
      },
    });
    campaignId = campaign.id;
    expect(campaign.itemCount).toBe(SAMPLE);
    expect(await getCampaign({ actor: admin, campaignId })).toMatchObject({ goldShare: SHARE, seed: SEED });
    const seen = await getCampaign({ actor: ann, campaignId });
    expect(seen).not.toHaveProperty("goldShare");
    expect(seen).not.toHaveProperty("seed");
  });

  /** What an annotator reads of their counts: every figure of the progress answer they are given. */
  const counts = async (actor: Actor) => {
    const progress = await getCampaignProgress({ actor, campaignId });
    return {
      items: progress.items,
      wanted: progress.annotationsWanted,
      done: progress.annotationsDone,
      complete: progress.itemsComplete,
      leases: progress.activeLeases,
      python: progress.byLanguage.python,
      ...progress.mine,
    };
  };
  const change = (before: Awaited<ReturnType<typeof counts>>, after: typeof before) => ({
    items: after.items - before.items,
    wanted: after.wanted - before.wanted,
    done: after.done - before.done,
    complete: after.complete,
    leases: after.leases - before.leases,
    pythonItems: after.python.items - before.python.items,
    pythonWanted: after.python.annotationsWanted - before.python.annotationsWanted,
    pythonDone: after.python.annotationsDone - before.python.annotationsDone,
    submitted: after.submitted - before.submitted,
    active: after.active - before.active,
    available: after.available - before.available,
  });

  /** Claims and labels until the queue is empty, checking each claim against the secret draw and every count's change. */
  async function labelEverything(actor: Actor, verdict: (kind: "gold" | "sample") => boolean) {
    const key = queueDrawKey("gold-turn", campaignId, actor.id);
    let sampleLeft = SAMPLE;
    let goldLeft = GOLD;
    let before = await counts(actor);
    for (let claimIndex = 0; ; claimIndex += 1) {
      const claim = await claimNextItem({ actor, campaignId });
      if (!claim) {
        expect(sampleLeft).toBe(0);
        expect(before.available).toBe(0);
        break;
      }
      const kind = await itemKind(claim.itemId);
      expect(kind, `claim ${claimIndex}`).toBe(
        isGoldTurn({ key, claimIndex, share: SHARE }) && goldLeft > 0 ? "gold" : "sample",
      );
      (kinds[actor.id] ??= []).push(kind);
      if (kind === "gold") goldLeft -= 1;
      else sampleLeft -= 1;
      const claimed = await counts(actor);
      // The same change whichever kind it was: one fewer to come, one in progress, totals unchanged.
      expect(change(before, claimed), `claim ${claimIndex}`).toEqual({
        items: 0,
        wanted: 0,
        done: 0,
        complete: null,
        leases: 1,
        pythonItems: 0,
        pythonWanted: 0,
        pythonDone: 0,
        submitted: 0,
        active: 1,
        available: -1,
      });
      await submitAnnotation({
        actor,
        itemId: claim.itemId,
        input: { valid: verdict(kind), categories: [], note: null, needsReview: false, activeMs: 1000 },
      });
      const labelled = await counts(actor);
      expect(change(claimed, labelled), `label ${claimIndex}`).toEqual({
        items: 0,
        wanted: 0,
        done: 1,
        complete: null,
        leases: -1,
        pythonItems: 0,
        pythonWanted: 0,
        pythonDone: 1,
        submitted: 1,
        active: -1,
        available: 0,
      });
      // Their own labels never exceed what the campaign shows as done, nor their items its items.
      expect(labelled.submitted).toBeLessThanOrEqual(labelled.done);
      expect(labelled.submitted + labelled.available).toBeLessThanOrEqual(labelled.items);
      before = labelled;
    }
  }

  it("mixes gold in at a secret draw while sample items remain; each claim and label moves an annotator's counts the same way, gold or not", async () => {
    await labelEverything(ann, () => true);
    const whileSampleLeft = kinds[ann.id];
    expect(whileSampleLeft.at(-1)).toBe("sample");
    expect(whileSampleLeft.filter((kind) => kind === "sample")).toHaveLength(SAMPLE);
    expect(whileSampleLeft.filter((kind) => kind === "gold").length).toBeGreaterThan(0);
  });

  it("is not predicted by the old formula from what an annotator can read (seed, own user id, record keys)", async () => {
    // The old rule: a gold turn when sha256(seed:gold:userId:claimIndex) fell below the share, and
    // the sample served in md5(seed:order:key) order.
    const oldTurns = kinds[ann.id].map(
      (_, claimIndex) =>
        createHash("sha256").update(`${SEED}:gold:${ann.id}:${claimIndex}`).digest().readUInt32BE(0) / 2 ** 32 < SHARE,
    );
    const served = kinds[ann.id].map((kind) => kind === "gold");
    expect(oldTurns).not.toEqual(served);
    const items = await prisma().campaignItem.findMany({
      where: { campaignId, gold: false },
      orderBy: { position: "asc" },
      select: { record: { select: { key: true } } },
    });
    const oldOrder = [...items].sort((a, b) =>
      createHash("md5")
        .update(`${SEED}:order:${a.record.key}`)
        .digest("hex")
        .localeCompare(createHash("md5").update(`${SEED}:order:${b.record.key}`).digest("hex")),
    );
    expect(items.map((item) => item.record.key)).not.toEqual(oldOrder.map((item) => item.record.key));
  });

  it("lets every annotator get gold items (overlap does not apply), the same way", async () => {
    await labelEverything(bea, (kind) => kind === "sample");
    expect(kinds[bea.id].filter((kind) => kind === "sample")).toHaveLength(SAMPLE);
    const both = await prisma().campaignItem.count({
      where: {
        campaignId,
        gold: true,
        annotations: { some: { userId: ann.id } },
        AND: { annotations: { some: { userId: bea.id } } },
      },
    });
    expect(both).toBeGreaterThan(0);
  });

  it("gives a newcomer to a finished campaign nothing, not a run of gold items", async () => {
    const carl = await makeUser("ANNOTATOR", ["python"]);
    expect((await getCampaignProgress({ actor: carl, campaignId })).mine.available).toBe(0);
    expect(await claimNextItem({ actor: carl, campaignId })).toBeNull();
  });

  it("never counts gold labels in progress, reports, agreement, review queues or exports", async () => {
    const progress = await getCampaignProgress({ actor: admin, campaignId });
    expect(progress).toMatchObject({
      items: SAMPLE,
      annotationsWanted: 2 * SAMPLE,
      annotationsDone: 2 * SAMPLE,
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
    expect(agreement.annotators.map((entry) => [entry.userId, entry.items]).sort()).toEqual(
      [
        [ann.id, SAMPLE],
        [bea.id, SAMPLE],
      ].sort(),
    );
    for (const [what, rows] of [
      ["labels", SAMPLE],
      ["annotations", 2 * SAMPLE],
    ] as const) {
      let text = "";
      for await (const chunk of exportCampaign({ actor: admin, campaignId, what, format: "jsonl" })) text += chunk;
      expect(text.trim().split("\n"), what).toHaveLength(rows);
    }
    const counters = await prisma().campaignItem.aggregate({
      where: { campaignId, gold: false },
      _max: { slotsTaken: true },
      _count: { _all: true },
    });
    expect(counters).toEqual({ _max: { slotsTaken: 2 }, _count: { _all: SAMPLE } });
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

  it("shows gold accuracy per annotator and language to reviewers: a verdict that matches counts as correct", async () => {
    const goldOf = async (userId: string) => {
      const labels = await prisma().annotation.findMany({
        where: { userId, item: { campaignId, gold: true } },
        select: { valid: true, item: { select: { record: { select: { gold: { select: { valid: true } } } } } } },
      });
      return { n: labels.length, correct: labels.filter((a) => a.valid === a.item.record.gold?.valid).length };
    };
    const rows = await listAnnotatorProgress({ actor: reviewer, campaignId });
    const byUser = Object.fromEntries(rows.map((row) => [row.userId, row]));
    for (const user of [ann, bea]) {
      const { n, correct } = await goldOf(user.id);
      expect(n).toBe(kinds[user.id].filter((kind) => kind === "gold").length);
      expect(byUser[user.id]).toMatchObject({
        labelled: SAMPLE,
        gold: { n, correct, byLanguage: [{ language: "python", n, correct }] },
      });
      const agreement = await getCampaignAgreement({ actor: reviewer, campaignId });
      expect(agreement.annotators.find((entry) => entry.userId === user.id)?.gold).toEqual({
        n,
        correct,
        byLanguage: [{ language: "python", n, correct }],
      });
    }
  });

  it("hides a gold record's critic exactly as a sample item's: in a blind campaign's languages until labelled, and nowhere else", async () => {
    const blindDataset = uniqueName("goldblind");
    const tag = blindDataset.replaceAll("-", "_");
    const critic = { critic_result: { summary: { overall_pass: true, failed_rules: [], key_points: [] } } };
    const rows = [
      ...Array.from({ length: 6 }, (_, n) => makeRecord(`bp${n}_${tag}`, critic)),
      ...Array.from({ length: 3 }, (_, n) => makeRecord(`bc${n}_${tag}`, { ...critic, language: "cpp" })),
    ];
    await importRecords({
      actor: admin,
      datasetName: blindDataset,
      source: chunks(toJsonl(rows)),
      skipInvalid: false,
      origin: "api",
    });
    const records = await prisma().record.findMany({
      where: { dataset: { name: blindDataset } },
      orderBy: { id: "asc" },
      select: { id: true, language: true },
    });
    const python = records.filter((record) => record.language === "python");
    const cpp = records.filter((record) => record.language === "cpp");
    // Two Python gold records and every C++ one.
    for (const record of [python[0], python[1], ...cpp])
      await setGoldAnswer({ actor: admin, recordId: record.id, answer: { valid: true, categories: [], note: null } });
    const carl = await makeUser("ANNOTATOR", ["python", "cpp"]);
    const base = { overlap: 1, agreementFraction: 0, finalRule: "consensus" as const, leaseMinutes: 30 };
    const blind = await createCampaign({
      actor: admin,
      input: { ...base, dataset: blindDataset, name: uniqueName("goldblind"), blind: true, languages: ["python"] },
    });
    const isHidden = async (id: number) => (await getRecord({ actor: carl, id })).isCriticHidden;
    // Python: the sample and the gold records alike are hidden, whatever the gold share (changing it shows nothing).
    for (const record of python) expect(await isHidden(record.id)).toBe(true);
    // C++ is not in the blind campaign: its gold records follow the rule of any other record.
    for (const record of cpp) expect(await isHidden(record.id)).toBe(false);
    await updateCampaignSettings({ actor: admin, campaignId: blind.id, input: { goldShare: 0.5 } });
    for (const record of python) expect(await isHidden(record.id)).toBe(true);
    for (const record of cpp) expect(await isHidden(record.id)).toBe(false);
    // The dataset browser's critic filter leaves out exactly the hidden ones.
    const { listRecords } = await import("@/lib/server/records/records");
    const passing = await listRecords({
      actor: carl,
      datasetName: blindDataset,
      filters: { critic: "pass" },
      limit: 50,
    });
    expect(passing.records.map((record) => record.id).sort()).toEqual(cpp.map((record) => record.id).sort());
    let served = 0;
    for (;;) {
      const claim = await claimNextItem({ actor: carl, campaignId: blind.id });
      if (!claim) break;
      served += 1;
      expect((await getWorkItem({ actor: carl, itemId: claim.itemId })).isCriticVisible).toBe(false);
      await submitAnnotation({
        actor: carl,
        itemId: claim.itemId,
        input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
      });
      const work = await getWorkItem({ actor: carl, itemId: claim.itemId });
      expect(work.isCriticVisible).toBe(true);
    }
    expect(served).toBeGreaterThanOrEqual(4);
    expect((await getRecord({ actor: admin, id: python[0].id })).critic).not.toBeNull();

    // An open campaign shows the critic of its gold items as of its sample items.
    const openDataset = uniqueName("goldopen");
    const openTag = openDataset.replaceAll("-", "_");
    await importRecords({
      actor: admin,
      datasetName: openDataset,
      source: chunks(toJsonl(Array.from({ length: 12 }, (_, n) => makeRecord(`o${n}_${openTag}`, critic)))),
      skipInvalid: false,
      origin: "api",
    });
    const openRecords = await prisma().record.findMany({
      where: { dataset: { name: openDataset } },
      orderBy: { id: "asc" },
      select: { id: true },
    });
    for (const record of openRecords.slice(0, 4))
      await setGoldAnswer({ actor: admin, recordId: record.id, answer: { valid: true, categories: [], note: null } });
    const open = await createCampaign({
      actor: admin,
      input: { ...base, dataset: openDataset, name: uniqueName("goldopen"), blind: false, goldShare: 0.5 },
    });
    const seenKinds = new Set<string>();
    for (;;) {
      const claim = await claimNextItem({ actor: carl, campaignId: open.id });
      if (!claim) break;
      seenKinds.add(await itemKind(claim.itemId));
      expect((await getWorkItem({ actor: carl, itemId: claim.itemId })).isCriticVisible).toBe(true);
      await submitAnnotation({
        actor: carl,
        itemId: claim.itemId,
        input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
      });
    }
    expect(seenKinds).toContain("sample");
  });
});

describe("gold item leases and skips", () => {
  it("renews, skips and accepts a late submit like any other item", async () => {
    const name = uniqueName("goldlease");
    const tag = name.replaceAll("-", "_");
    await importRecords({
      actor: admin,
      datasetName: name,
      source: chunks(
        toJsonl([
          ...Array.from({ length: 2 }, (_, n) => makeRecord(`lg${n}_${tag}`, { kind: "gold" })),
          ...Array.from({ length: 24 }, (_, n) => makeRecord(`ls${n}_${tag}`)),
        ]),
      ),
      skipInvalid: false,
      origin: "api",
    });
    const gold = await prisma().record.findMany({
      where: { dataset: { name }, extra: { path: ["kind"], equals: "gold" } },
      select: { id: true },
    });
    for (const record of gold)
      await setGoldAnswer({ actor: admin, recordId: record.id, answer: { valid: true, categories: [], note: null } });
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
        goldShare: 0.5,
      },
    });
    const eve = await makeUser("ANNOTATOR", ["python"]);
    const label = { valid: true, categories: [], note: null, needsReview: false, activeMs: 100 };
    /** Labels sample items until the queue hands out a gold one (at share 0.5 this comes within a few claims). */
    const nextGold = async () => {
      for (;;) {
        const claim = (await claimNextItem({ actor: eve, campaignId: campaign.id }))!;
        const { gold: isGold } = await prisma().campaignItem.findUniqueOrThrow({
          where: { id: claim.itemId },
          select: { gold: true },
        });
        if (isGold) return claim;
        await submitAnnotation({ actor: eve, itemId: claim.itemId, input: label });
      }
    };
    const first = await nextGold();
    expect(await claimNextItem({ actor: eve, campaignId: campaign.id })).toMatchObject({
      itemId: first.itemId,
      isNew: false,
    });
    await expect(renewLease({ actor: eve, itemId: first.itemId })).resolves.toBeInstanceOf(Date);
    await skipItem({ actor: eve, itemId: first.itemId, reason: "unsure" });
    const second = await nextGold();
    expect(second.itemId).not.toBe(first.itemId);
    await prisma().assignment.updateMany({
      where: { itemId: second.itemId, userId: eve.id },
      data: { leaseExpiresAt: new Date(Date.now() - 1000) },
    });
    const after = await claimNextItem({ actor: eve, campaignId: campaign.id });
    expect(after?.itemId).not.toBe(second.itemId);
    await expect(submitAnnotation({ actor: eve, itemId: second.itemId, input: label })).resolves.toMatchObject({
      created: true,
    });
    await expect(submitAnnotation({ actor: eve, itemId: first.itemId, input: label })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect((await getCampaignProgress({ actor: eve, campaignId: campaign.id })).mine).toMatchObject({
      skipped: 1,
      active: after ? 1 : 0,
    });
  });
});

describe("gold over REST", () => {
  it("imports CSV all or nothing (422 names the line), lists answers for reviewers, 403 for annotators", async () => {
    const { GET, POST } = await import("@/app/api/v1/datasets/[name]/gold/route");
    const { createApiToken } = await import("@/lib/server/users/tokens");
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
    expect(await readResponse(created, "POST", "/datasets/{name}/gold")).toEqual({ dataset: name, imported: 2 });
    expect((await call(POST, "POST", reviewer, `id,verdict\n${first.id},valid\n`)).status).toBe(403);
    const listed = await call(GET, "GET", reviewer);
    expect(listed.status).toBe(200);
    expect(
      ((await readResponse(listed, "GET", "/datasets/{name}/gold")) as { recordId: number; valid: boolean }[]).map(
        (row) => [row.recordId, row.valid],
      ),
    ).toEqual([
      [first.id, false],
      [second.id, true],
    ]);
    expect((await call(GET, "GET", ann)).status).toBe(403);
  });
});

describe("what an annotator can read", () => {
  it("cannot separate gold from sample items: the same answers, fields, critic state and counts over REST and the pages' data", async () => {
    const { POST: claimRoute } = await import("@/app/api/v1/campaigns/[id]/claim/route");
    const { GET: progressRoute } = await import("@/app/api/v1/campaigns/[id]/progress/route");
    const { GET: recordsRoute } = await import("@/app/api/v1/datasets/[name]/records/route");
    const { POST: labelRoute } = await import("@/app/api/v1/items/[id]/annotations/route");
    const { GET: campaignsRoute } = await import("@/app/api/v1/campaigns/route");
    const { listMyAnnotations } = await import("@/lib/server/labelling/list-my-annotations");
    const { createApiToken } = await import("@/lib/server/users/tokens");
    const name = uniqueName("looksame");
    const tag = name.replaceAll("-", "_");
    const critic = { critic_result: { summary: { overall_pass: false, failed_rules: ["x"], key_points: [] } } };
    await importRecords({
      actor: admin,
      datasetName: name,
      source: chunks(
        toJsonl([
          ...Array.from({ length: 4 }, (_, n) => makeRecord(`vg${n}_${tag}`, { ...critic, kind: "gold" })),
          ...Array.from({ length: 10 }, (_, n) => makeRecord(`vs${n}_${tag}`, critic)),
        ]),
      ),
      skipInvalid: false,
      origin: "api",
    });
    for (const record of await prisma().record.findMany({
      where: { dataset: { name }, extra: { path: ["kind"], equals: "gold" } },
      select: { id: true },
    }))
      await setGoldAnswer({ actor: admin, recordId: record.id, answer: { valid: false, categories: [], note: null } });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset: name,
        name: uniqueName("looksame"),
        overlap: 1,
        agreementFraction: 0,
        blind: true,
        finalRule: "consensus",
        leaseMinutes: 30,
        goldShare: 0.5,
      },
    });
    const dan = await makeUser("ANNOTATOR", ["python"]);
    const { token } = await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: dan.id, name: "see" });
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const params = <T>(value: T) => ({ params: Promise.resolve(value) });
    const base = "http://localhost/api/v1";
    // Every answer parsed with the catalog's strict schema: a field that told gold apart would fail there too.
    const json = async (response: Response, method: "GET" | "POST", path: string) => ({
      status: response.status,
      body: (await readResponse(response, method, path)) as never,
    });
    const shape = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(shape)
        : value && typeof value === "object"
          ? Object.fromEntries(
              Object.entries(value)
                .sort(([a], [b]) => a.localeCompare(b))
                .map(([key, inner]) => [key, shape(inner)]),
            )
          : typeof value;
    const progress = async () =>
      (
        await json(
          await progressRoute(
            new Request(`${base}/campaigns/${campaign.id}/progress`, { headers }),
            params({ id: campaign.id }),
          ),
          "GET",
          "/campaigns/{id}/progress",
        )
      ).body as {
        items: number;
        annotationsWanted: number;
        annotationsDone: number;
        itemsComplete: null;
        activeLeases: number;
        mine: Record<string, number>;
      };
    const criticHiddenOf = async (recordId: number) => {
      const page = (
        await json(
          await recordsRoute(new Request(`${base}/datasets/${name}/records?limit=100`, { headers }), params({ name })),
          "GET",
          "/datasets/{name}/records",
        )
      ).body as { records: { id: number; isCriticHidden: boolean }[] };
      return page.records.find((record) => record.id === recordId)!.isCriticHidden;
    };
    // The campaign list (/campaigns) reads its bars from listCampaignProgress: it must move as the
    // campaign's own page does.
    const campaignListRow = async () => {
      const row = (await listCampaignProgress({ actor: dan, campaignIds: [campaign.id] })).get(campaign.id)!;
      return [row.items, row.annotationsWanted, row.annotationsDone, row.itemsComplete];
    };
    const numbers = async () => {
      const p = await progress();
      return [
        p.items,
        p.annotationsWanted,
        p.annotationsDone,
        p.activeLeases,
        p.mine.submitted,
        p.mine.active,
        p.mine.available,
        ...(await campaignListRow()),
      ];
    };
    const delta = (a: (number | null)[], b: (number | null)[]) =>
      b.map((value, index) => (value === null || a[index] === null ? value : value - a[index]));

    // Everything Dan can read about the campaign says nothing of gold: no share, no seed.
    const listed = (
      await json(await campaignsRoute(new Request(`${base}/campaigns`, { headers }), params({})), "GET", "/campaigns")
    ).body as { id: string }[];
    const seen = listed.find((entry) => entry.id === campaign.id);
    expect(seen).toBeDefined();
    expect(JSON.stringify(seen)).not.toMatch(/gold|seed/i);

    const observations = new Map<"gold" | "sample", Set<string>>([
      ["gold", new Set()],
      ["sample", new Set()],
    ]);
    for (;;) {
      const before = await numbers();
      const claimed = await json(
        await claimRoute(
          new Request(`${base}/campaigns/${campaign.id}/claim`, { method: "POST", headers }),
          params({ id: campaign.id }),
        ),
        "POST",
        "/campaigns/{id}/claim",
      );
      if (claimed.status === 204) break;
      expect(claimed.status).toBe(200);
      const body = claimed.body as { item: { id: string }; record: { id: number; extra: object } };
      const { gold: isGold } = await prisma().campaignItem.findUniqueOrThrow({
        where: { id: body.item.id },
        select: { gold: true },
      });
      const afterClaim = await numbers();
      const work = await getWorkItem({ actor: dan, itemId: body.item.id });
      const hiddenBefore = await criticHiddenOf(body.record.id);
      const labelled = await json(
        await labelRoute(
          new Request(`${base}/items/${body.item.id}/annotations`, {
            method: "POST",
            headers,
            body: JSON.stringify({ valid: true, categories: [] }),
          }),
          params({ id: body.item.id }),
        ),
        "POST",
        "/items/{id}/annotations",
      );
      const afterLabel = await numbers();
      const workAfter = await getWorkItem({ actor: dan, itemId: body.item.id });
      const history = (await listMyAnnotations({ actor: dan, campaignId: campaign.id })).find(
        (entry) => entry.itemId === body.item.id,
      );
      observations.get(isGold ? "gold" : "sample")!.add(
        JSON.stringify({
          claim: shape({ ...body, record: { ...body.record, extra: {} } }),
          itemId: /^itm_[0-9a-f]{32}$/.test(body.item.id),
          work: shape({ ...work, record: { ...work.record, extra: {} } }),
          isCriticVisible: [work.isCriticVisible, workAfter.isCriticVisible],
          hiddenBefore,
          hiddenAfter: await criticHiddenOf(body.record.id),
          label: [labelled.status, shape(labelled.body)],
          history: shape(history),
          claimMoves: delta(before, afterClaim),
          labelMoves: delta(afterClaim, afterLabel),
        }),
      );
    }
    // Some of each were served, and every gold item looked exactly like every sample item.
    expect(observations.get("gold")!.size).toBe(1);
    expect(observations.get("sample")!.size).toBe(1);
    expect([...observations.get("gold")!]).toEqual([...observations.get("sample")!]);
  });
});
