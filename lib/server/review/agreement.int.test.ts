// Integration tests of the blind-reveal analysis, human vs execution agreement and the kept agreement counts against PostgreSQL.
// Integration: serial — the kept counts compare pg_snapshot values, whose transaction ids are the
// server's: another worker's open transaction in its own database shows in them (a count then reads
// as changed since, which the tests here rule out).
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { getCampaignAgreement, readCampaignAgreement, recountGapMs } from "@/lib/server/review/agreement";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";

let admin: Actor;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
});

const failingCritic = {
  critic_result: { summary: { overall_pass: false, failed_rules: ["Other Issues"], key_points: [] } },
};

/** A campaign (overlap 1) over `count` Python records the critic fails; returns its id. */
async function campaignOver({
  count,
  blind,
  visibility,
}: {
  count: number;
  blind: boolean;
  visibility?: "nothing" | "execution";
}) {
  const dataset = uniqueName("agree");
  const records = Array.from({ length: count }, (_, index) =>
    makeRecord(`r${index}_${dataset.replaceAll("-", "_")}`, failingCritic),
  );
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl(records)),
    skipInvalid: false,
    origin: "api",
  });
  const campaign = await createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("c"),
      overlap: 1,
      agreementFraction: 0,
      blind,
      visibility,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  return campaign.id;
}

const label = { categories: [], note: null, needsReview: false, activeMs: 4000 };

describe("blind-mode analysis", () => {
  it("reports per annotator and language how often the reveal flipped a verdict, and agreement with the critic before and after", async () => {
    const campaignId = await campaignOver({ count: 2, blind: true });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    // First item: Valid before the reveal, then revised to Invalid after reading the critic (which fails it).
    const first = await claimNextItem({ actor: ann, campaignId });
    const saved = await submitAnnotation({ actor: ann, itemId: first!.itemId, input: { ...label, valid: true } });
    await submitAnnotation({
      actor: ann,
      itemId: first!.itemId,
      input: {
        ...label,
        valid: false,
        categories: ["other"],
        note: "The critic is right.",
        baseRevision: saved.revision,
      },
    });
    // Second item: Invalid before, kept after.
    const second = await claimNextItem({ actor: ann, campaignId });
    await submitAnnotation({
      actor: ann,
      itemId: second!.itemId,
      input: { ...label, valid: false, categories: ["other"], note: "Tests are wrong." },
    });

    const { blindReveal } = await getCampaignAgreement({ actor: admin, campaignId });
    const expected = {
      labels: 2,
      flipped: 1,
      flipRate: 0.5,
      flippedTowardSignal: 1,
      withSignal: 2,
      agreementBefore: 0.5,
      agreementAfter: 1,
    };
    expect(blindReveal?.overall).toMatchObject(expected);
    // Before: pairs (valid, fail), (invalid, fail): p_o = 1/2 = p_e, so κ = 0. After, everyone says
    // invalid: expected agreement is 1 and κ is undefined.
    expect(blindReveal?.overall).toMatchObject({ kappaBefore: 0, kappaAfter: null });
    expect(blindReveal?.byLanguage.python).toMatchObject(expected);
    expect(blindReveal?.byAnnotator).toEqual([
      expect.objectContaining({ userId: ann.id, email: ann.email, language: "python", ...expected }),
    ]);
  });

  it("is null for a campaign that is not blind", async () => {
    const campaignId = await campaignOver({ count: 1, blind: false });
    const agreement = await getCampaignAgreement({ actor: admin, campaignId });
    expect([agreement.blindReveal, agreement.executionReveal]).toEqual([null, null]);
  });

  it("also measures the reveal against the execution where the campaign hid it ('nothing'), and only there", async () => {
    const campaignId = await campaignOver({ count: 2, blind: true, visibility: "nothing" });
    const items = await prisma().campaignItem.findMany({ where: { campaignId }, orderBy: { position: "asc" } });
    // Both records pass their own tests: execution says valid, the critic says invalid.
    await prisma().record.updateMany({
      where: { id: { in: items.map((item) => item.recordId) } },
      data: { executableValid: true, verificationOutcome: "PASSED" },
    });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    // Invalid before anything was shown, Valid once the (passing) execution was: a flip toward execution.
    const first = await claimNextItem({ actor: ann, campaignId });
    const saved = await submitAnnotation({
      actor: ann,
      itemId: first!.itemId,
      input: { ...label, valid: false, categories: ["other"], note: "Looks wrong." },
    });
    await submitAnnotation({
      actor: ann,
      itemId: first!.itemId,
      input: { ...label, valid: true, baseRevision: saved.revision },
    });
    const second = await claimNextItem({ actor: ann, campaignId });
    await submitAnnotation({ actor: ann, itemId: second!.itemId, input: { ...label, valid: true } });

    const { blindReveal, executionReveal } = await getCampaignAgreement({ actor: admin, campaignId });
    expect(executionReveal?.overall).toMatchObject({
      labels: 2,
      flipped: 1,
      flippedTowardSignal: 1,
      withSignal: 2,
      agreementBefore: 0.5,
      agreementAfter: 1,
    });
    // The same flip moved away from the critic, which fails both records.
    expect(blindReveal?.overall).toMatchObject({
      flipped: 1,
      flippedTowardSignal: 0,
      agreementBefore: 0.5,
      agreementAfter: 0,
    });

    const executionShown = await campaignOver({ count: 1, blind: true, visibility: "execution" });
    const shown = await getCampaignAgreement({ actor: admin, campaignId: executionShown });
    expect(shown.blindReveal).not.toBeNull();
    expect(shown.executionReveal).toBeNull();
  });
});

describe("human vs execution", () => {
  it("cross-tabulates final labels against execution, leaving out records that did not run", async () => {
    const campaignId = await campaignOver({ count: 3, blind: false });
    const items = await prisma().campaignItem.findMany({
      where: { campaignId },
      orderBy: { position: "asc" },
      select: { recordId: true },
    });
    // Passes its tests, fails them, never ran (or its language cannot run).
    for (const [index, executableValid] of [true, false, null].entries())
      await prisma().record.update({ where: { id: items[index].recordId }, data: { executableValid } });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    for (let n = 0; n < 3; n += 1) {
      const claim = await claimNextItem({ actor: ann, campaignId });
      await submitAnnotation({ actor: ann, itemId: claim!.itemId, input: { ...label, valid: true } });
    }

    const figures = await getCampaignAgreement({ actor: admin, campaignId });
    expect(figures.humanVsExecution).toEqual({
      items: 2,
      notRun: 1,
      kappa: 0,
      confusion: { bothValid: 1, bothInvalid: 0, humanValidExecutionInvalid: 1, humanInvalidExecutionValid: 0 },
    });
    expect(figures.humanVsExecutionByLanguage.python).toEqual(figures.humanVsExecution);
  });
});

describe("kept agreement counts", () => {
  /** The rows of the campaign's change log: the changes since its kept count. */
  const changesOf = async (campaignId: string) => prisma().campaignChange.count({ where: { campaignId } });

  /** Makes the kept count look like a slow one, counted `ageMs` ago: the page then answers from it. */
  const keptAsSlow = async (campaignId: string, countMs: number, ageMs: number) => {
    await prisma().$executeRaw`
      UPDATE "AgreementCounts"
      SET counts = counts || jsonb_build_object('countMs', ${countMs}::int, 'countedAt', ${new Date(Date.now() - ageMs).toISOString()}::text)
      WHERE "campaignId" = ${campaignId}`;
  };

  it("count a quick campaign before the page answers, so its figures are exact at once", async () => {
    const campaignId = await campaignOver({ count: 2, blind: false });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    // Never counted: the page waits for the first count, which is then kept.
    expect((await readCampaignAgreement({ actor: admin, campaignId })).humanVsCritic.items).toBe(0);
    // Storing the count deleted the log rows it saw.
    expect(await changesOf(campaignId)).toBe(0);

    const claim = await claimNextItem({ actor: ann, campaignId });
    await submitAnnotation({ actor: ann, itemId: claim!.itemId, input: { ...label, valid: true } });
    expect(await changesOf(campaignId)).toBe(1);
    const after = await readCampaignAgreement({ actor: admin, campaignId });
    expect(after.changedSince).toBe(false);
    expect(after.humanVsCritic.items).toBe(1);
  });

  it("serve the page a slow campaign's kept count at once while it is behind, and count first for the exact reader", async () => {
    const campaignId = await campaignOver({ count: 3, blind: false });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const first = await claimNextItem({ actor: ann, campaignId });
    await submitAnnotation({ actor: ann, itemId: first!.itemId, input: { ...label, valid: true } });
    await readCampaignAgreement({ actor: admin, campaignId });
    // Counted just now, but as if it had taken 10 s: the next count may start 50 s later.
    await keptAsSlow(campaignId, 10_000, 0);

    const second = await claimNextItem({ actor: ann, campaignId });
    await submitAnnotation({ actor: ann, itemId: second!.itemId, input: { ...label, valid: true } });
    const kept = await prisma().agreementCounts.findUniqueOrThrow({ where: { campaignId } });
    const behind = await readCampaignAgreement({ actor: admin, campaignId });
    expect(behind.changedSince).toBe(true);
    expect(behind.humanVsCritic.items).toBe(1);
    expect(await prisma().agreementCounts.findUniqueOrThrow({ where: { campaignId } })).toEqual(kept);

    // The exact reader counts first, and keeps what it counted for the page.
    const exact = await getCampaignAgreement({ actor: admin, campaignId });
    expect(exact.humanVsCritic.items).toBe(2);
    const caughtUp = await readCampaignAgreement({ actor: admin, campaignId });
    expect(caughtUp.changedSince).toBe(false);
    expect(caughtUp.humanVsCritic).toEqual(exact.humanVsCritic);
  });

  it("start a background count when the page finds a slow count behind and older than its gap", async () => {
    const campaignId = await campaignOver({ count: 2, blind: false });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    await readCampaignAgreement({ actor: admin, campaignId });
    await keptAsSlow(campaignId, 10_000, recountGapMs(10_000) + 1_000);
    const claim = await claimNextItem({ actor: ann, campaignId });
    await submitAnnotation({
      actor: ann,
      itemId: claim!.itemId,
      input: { ...label, valid: false, categories: ["other"], note: "Broken." },
    });
    expect((await readCampaignAgreement({ actor: admin, campaignId })).changedSince).toBe(true);
    await expect
      .poll(async () => (await readCampaignAgreement({ actor: admin, campaignId })).changedSince, { timeout: 10_000 })
      .toBe(false);
    expect((await readCampaignAgreement({ actor: admin, campaignId })).humanVsCritic.confusion.bothInvalid).toBe(1);
  });

  it("schedule a count when the page finds a slow count behind within its gap, so no view leaves the log uncounted", async () => {
    const campaignId = await campaignOver({ count: 2, blind: false });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    await readCampaignAgreement({ actor: admin, campaignId });
    // Counted just now as if it had taken 300 ms: slow enough to answer from, the next count 1.5 s later.
    await keptAsSlow(campaignId, 300, 0);
    const claim = await claimNextItem({ actor: ann, campaignId });
    await submitAnnotation({ actor: ann, itemId: claim!.itemId, input: { ...label, valid: true } });
    expect(await changesOf(campaignId)).toBe(1);
    expect((await readCampaignAgreement({ actor: admin, campaignId })).changedSince).toBe(true);
    // No further page view: the count the view scheduled runs once the gap is over and empties the log.
    await expect.poll(() => changesOf(campaignId), { timeout: 15_000, interval: 250 }).toBe(0);
    const counted = await readCampaignAgreement({ actor: admin, campaignId });
    expect(counted.changedSince).toBe(false);
    expect(counted.humanVsCritic.items).toBe(1);
  });

  it("log every write the figures count, so the kept count falls behind, and not a claim", async () => {
    const campaignId = await campaignOver({ count: 2, blind: false });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const item = await prisma().campaignItem.findFirstOrThrow({ where: { campaignId }, orderBy: { position: "asc" } });
    const moves = async (write: () => Promise<unknown>) => {
      const before = await changesOf(campaignId);
      await write();
      return (await changesOf(campaignId)) - before;
    };
    const claim = await claimNextItem({ actor: ann, campaignId });
    expect(await moves(async () => claimNextItem({ actor: ann, campaignId }))).toBe(0);
    // One submit is one transaction: one change however many rows it writes.
    expect(
      await moves(() => submitAnnotation({ actor: ann, itemId: claim!.itemId, input: { ...label, valid: true } })),
    ).toBe(1);
    expect(
      await moves(() => prisma().annotation.updateMany({ where: { itemId: claim!.itemId }, data: { activeMs: 9000 } })),
    ).toBe(1);
    expect(
      await moves(() =>
        prisma().criticVerdict.updateMany({
          where: { recordId: item.recordId },
          data: { failedRules: ["Wrong Output"] },
        }),
      ),
    ).toBe(1);
    expect(
      await moves(() => prisma().record.update({ where: { id: item.recordId }, data: { executableValid: true } })),
    ).toBe(1);
    expect(
      await moves(() =>
        prisma().errorCategory.updateMany({
          where: { campaignId, key: "other" },
          data: { criticRule: "Other Issues" },
        }),
      ),
    ).toBe(1);
    expect(await moves(() => prisma().record.update({ where: { id: item.recordId }, data: { flaky: true } }))).toBe(1);
    expect(
      await moves(() =>
        prisma().solution.create({
          data: { recordId: item.recordId, model: "m", code: "print(1)", passed: false },
        }),
      ),
    ).toBe(1);
    // Records outside the campaign leave it alone.
    expect(await moves(() => prisma().record.updateMany({ where: { id: -1 }, data: { executableValid: false } }))).toBe(
      0,
    );
  });

  it("keep a change that commits during a count in the log, so the next read counts it", async () => {
    const campaignId = await campaignOver({ count: 2, blind: false });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    const claim = await claimNextItem({ actor: ann, campaignId });
    await submitAnnotation({ actor: ann, itemId: claim!.itemId, input: { ...label, valid: true } });
    // A label's time changed in a transaction that is still open while the count takes its snapshot.
    let commit!: () => void;
    const gate = new Promise<void>((resolve) => (commit = resolve));
    let writing!: () => void;
    const written = new Promise<void>((resolve) => (writing = resolve));
    const writer = prisma().$transaction(async (tx) => {
      await tx.annotation.updateMany({ where: { itemId: claim!.itemId }, data: { activeMs: 9_000 } });
      writing();
      await gate;
    });
    await written;
    const counted = await getCampaignAgreement({ actor: admin, campaignId });
    expect(counted.annotators.map((row) => row.meanActiveMs)).toEqual([label.activeMs]);
    commit();
    await writer;
    expect(await changesOf(campaignId)).toBe(1);
    const page = await readCampaignAgreement({ actor: admin, campaignId });
    expect(page.changedSince).toBe(false);
    expect(page.annotators.map((row) => row.meanActiveMs)).toEqual([9_000]);
    expect(await changesOf(campaignId)).toBe(0);
  });

  it("let a count replace the kept one only when its snapshot sees every transaction the kept one saw", async () => {
    const covers = async (later: string, earlier: string) =>
      (
        await prisma().$queryRaw<{ covers: boolean }[]>`
          SELECT verity_snapshot_covers(${later}::pg_snapshot, ${earlier}::pg_snapshot) AS covers`
      )[0].covers;
    const snapshotNow = async () =>
      (await prisma().$queryRaw<{ snapshot: string }[]>`SELECT pg_current_snapshot()::text AS snapshot`)[0].snapshot;
    // A transaction with an id, open while the first snapshot is taken and committed before the second.
    let commit!: () => void;
    const gate = new Promise<void>((resolve) => (commit = resolve));
    let begun!: () => void;
    const started = new Promise<void>((resolve) => (begun = resolve));
    const open = prisma().$transaction(async (tx) => {
      await tx.$queryRaw`SELECT pg_current_xact_id()::text`;
      begun();
      await gate;
    });
    await started;
    const first = await snapshotNow();
    commit();
    await open;
    const second = await snapshotNow();
    expect(await covers(second, first)).toBe(true);
    expect(await covers(first, second)).toBe(false);
    expect(await covers(first, first)).toBe(true);
  });

  it("are removed with their campaign", async () => {
    const campaignId = await campaignOver({ count: 1, blind: false });
    await readCampaignAgreement({ actor: admin, campaignId });
    await prisma().campaign.delete({ where: { id: campaignId } });
    expect(await prisma().agreementCounts.count({ where: { campaignId } })).toBe(0);
    expect(await changesOf(campaignId)).toBe(0);
  });
});
