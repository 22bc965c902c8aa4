// Integration tests of the blind-reveal analysis, human vs execution agreement, the kept agreement
// counts and the count's statements (held to the single statement they replaced) against PostgreSQL.
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
import { WEAK_TESTS_THRESHOLD } from "@/lib/evidence/suspicion";
import { FAST_DECISION_MS } from "@/lib/metrics/campaign-agreement";

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
    // Once the count is stored the log rows it saw are deleted (after the answer).
    await expect.poll(() => changesOf(campaignId), { timeout: 10_000, interval: 100 }).toBe(0);

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

  it("count again after a count under way whose snapshot missed the change a page view found", async () => {
    const campaignId = await campaignOver({ count: 3, blind: false });
    const ann = await makeUser("ANNOTATOR", ["python"]);
    await readCampaignAgreement({ actor: admin, campaignId });
    const submitOne = async () => {
      const claim = await claimNextItem({ actor: ann, campaignId });
      await submitAnnotation({ actor: ann, itemId: claim!.itemId, input: { ...label, valid: true } });
    };
    await submitOne();
    // As if the kept count had taken 300 ms: the page answers from it and leaves the counting to others.
    await keptAsSlow(campaignId, 300, 0);
    // The kept count's row is locked, so the exact reader's count, once counted, waits to be stored.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = prisma().$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM "AgreementCounts" WHERE "campaignId" = ${campaignId} FOR UPDATE`;
      locked();
      await gate;
    });
    await isLocked;
    const exact = getCampaignAgreement({ actor: admin, campaignId });
    const storing = async () =>
      (
        await prisma().$queryRaw<{ waiting: number }[]>`
          SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO "AgreementCounts"%'`
      )[0].waiting;
    await expect.poll(storing, { timeout: 10_000, interval: 50 }).toBe(1);
    // A change the count under way did not see, and a page view that finds the kept count behind.
    await submitOne();
    expect((await readCampaignAgreement({ actor: admin, campaignId })).changedSince).toBe(true);
    release();
    await holder;
    expect((await exact).humanVsCritic.items).toBe(1);
    // No further view: the count after the one under way empties the log.
    await expect.poll(() => changesOf(campaignId), { timeout: 15_000, interval: 250 }).toBe(0);
    expect((await readCampaignAgreement({ actor: admin, campaignId })).humanVsCritic.items).toBe(2);
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

/**
 * The count as one statement did it before issue 41 (queryAgreementCounts and countSignalTrust at
 * c19b312): the reference the faster statements are held to, row for row.
 */
const REFERENCE_COUNTS_SQL = `WITH f AS MATERIALIZED (
       SELECT item_id, language, n, n_valid, final_valid, critic_pass, exec_valid, critic_failed_rules, final_categories
       FROM verity_kept_final_labels(ARRAY[$1]::text[]) WHERE n > 0
     ),
     labels AS MATERIALIZED (
       SELECT f.item_id, f.language, f.final_valid, a."userId" AS user_id, a.valid, a."activeMs" AS active_ms, a."updatedAt" AS updated_at
       FROM f JOIN "Annotation" a ON a."itemId" = f.item_id
     ),
     judged AS MATERIALIZED (
       SELECT critic_failed_rules, final_categories FROM f
       WHERE final_valid IS NOT NULL AND critic_pass IS NOT NULL
         AND (cardinality(critic_failed_rules) > 0 OR cardinality(final_categories) > 0)
     ),
     mapping AS (SELECT * FROM unnest($2::text[], $3::text[]) AS m(key, rule)),
     pairs AS (
       SELECT x.language, x.user_id AS first, y.user_id AS second,
              (count(*) FILTER (WHERE x.valid AND y.valid))::int AS "bothTrue",
              (count(*) FILTER (WHERE NOT x.valid AND NOT y.valid))::int AS "bothFalse",
              (count(*) FILTER (WHERE x.valid AND NOT y.valid))::int AS "firstTrueSecondFalse",
              (count(*) FILTER (WHERE NOT x.valid AND y.valid))::int AS "firstFalseSecondTrue",
              count(*)::int AS n
       FROM labels x JOIN labels y ON y.item_id = x.item_id AND x.user_id < y.user_id
       GROUP BY 1, 2, 3
     )
     SELECT
       (SELECT json_agg(s) FROM (
          SELECT language, n_valid AS "nValid", n - n_valid AS "nInvalid", count(*)::int AS items FROM f WHERE n >= 2 GROUP BY 1, 2, 3
        ) s) AS splits,
       (SELECT json_agg(c) FROM (
          SELECT language,
                 (count(*) FILTER (WHERE final_valid AND critic_pass))::int AS "bothTrue",
                 (count(*) FILTER (WHERE NOT final_valid AND NOT critic_pass))::int AS "bothFalse",
                 (count(*) FILTER (WHERE final_valid AND NOT critic_pass))::int AS "firstTrueSecondFalse",
                 (count(*) FILTER (WHERE NOT final_valid AND critic_pass))::int AS "firstFalseSecondTrue",
                 (count(*) FILTER (WHERE final_valid IS NOT NULL AND critic_pass IS NOT NULL))::int AS n
          FROM f GROUP BY 1
        ) c) AS critic,
       (SELECT json_agg(e) FROM (
          SELECT language,
                 (count(*) FILTER (WHERE final_valid AND exec_valid))::int AS "bothTrue",
                 (count(*) FILTER (WHERE NOT final_valid AND NOT exec_valid))::int AS "bothFalse",
                 (count(*) FILTER (WHERE final_valid AND NOT exec_valid))::int AS "firstTrueSecondFalse",
                 (count(*) FILTER (WHERE NOT final_valid AND exec_valid))::int AS "firstFalseSecondTrue",
                 (count(*) FILTER (WHERE final_valid IS NOT NULL AND exec_valid IS NOT NULL))::int AS n,
                 (count(*) FILTER (WHERE final_valid IS NOT NULL AND exec_valid IS NULL))::int AS "notRun"
          FROM f GROUP BY 1
        ) e) AS execution,
       (SELECT json_agg(r) FROM (
          SELECT m.key,
                 (count(*) FILTER (WHERE t.flagged AND t.tagged))::int AS "truePositives",
                 (count(*) FILTER (WHERE t.flagged AND NOT t.tagged))::int AS "falsePositives",
                 (count(*) FILTER (WHERE t.tagged AND NOT t.flagged))::int AS "falseNegatives"
          FROM mapping m
          LEFT JOIN LATERAL (
            SELECT EXISTS (SELECT 1 FROM unnest(j.critic_failed_rules) AS failed WHERE lower(failed) = lower(m.rule)) AS flagged,
                   m.key = ANY(j.final_categories) AS tagged
            FROM judged j
          ) t ON true
          GROUP BY m.key
        ) r) AS rules,
       (SELECT json_agg(u) FROM (
          SELECT user_id AS "userId", count(*)::int AS items,
                 percentile_cont(0.5) WITHIN GROUP (ORDER BY active_ms) AS "medianActiveMs",
                 sum(active_ms)::float8 AS "totalActiveMs",
                 (count(*) FILTER (WHERE active_ms < $4))::int AS "fastDecisions",
                 count(DISTINCT updated_at::date)::int AS days,
                 count(final_valid)::int AS resolved,
                 (count(*) FILTER (WHERE valid = final_valid))::int AS "agreeingWithFinal"
          FROM labels GROUP BY user_id
        ) u) AS annotators,
       (SELECT json_agg(p) FROM pairs p) AS pairs`;

const REFERENCE_SIGNALS_SQL = `WITH f AS MATERIALIZED (
       SELECT record_id, language, final_valid, critic_pass, critic_failed_rules, exec_valid
       FROM verity_kept_final_labels(ARRAY[$1]::text[]) WHERE final_valid IS NOT NULL
     ),
     latest_mutation AS (
       SELECT DISTINCT ON (m."recordId") m."recordId", m.score FROM "MutationAnalysis" m
       WHERE m."recordId" IN (SELECT record_id FROM f)
       ORDER BY m."recordId", m."createdAt" DESC, m.id DESC
     ),
     solved AS (
       SELECT s."recordId", NOT bool_or(s.passed) AS unsolved FROM "Solution" s
       WHERE s.passed IS NOT NULL AND s."recordId" IN (SELECT record_id FROM f)
       GROUP BY 1
     ),
     e AS (
       SELECT f.*, r.flaky, lm.score AS mutation_score, so.unsolved
       FROM f JOIN "Record" r ON r.id = f.record_id
       LEFT JOIN latest_mutation lm ON lm."recordId" = f.record_id
       LEFT JOIN solved so ON so."recordId" = f.record_id
     ),
     rules AS (SELECT DISTINCT lower(rule) AS rule FROM f CROSS JOIN unnest(f.critic_failed_rules) AS rule),
     signals AS (
       SELECT e.language, e.final_valid, v.signal, v.flagged
       FROM e CROSS JOIN LATERAL (VALUES
         ('critic', NOT e.critic_pass),
         ('execution', NOT e.exec_valid),
         ('flaky', e.flaky),
         ('weak-tests', e.mutation_score < $2),
         ('unsolved', e.unsolved)
       ) AS v(signal, flagged)
       UNION ALL
       SELECT e.language, e.final_valid, 'rule:' || rules.rule,
              EXISTS (SELECT 1 FROM unnest(e.critic_failed_rules) AS failed WHERE lower(failed) = rules.rule)
       FROM e CROSS JOIN rules WHERE e.critic_pass IS NOT NULL
     )
     SELECT signal, language,
            (count(*) FILTER (WHERE flagged AND NOT final_valid))::int AS "truePositives",
            (count(*) FILTER (WHERE flagged AND final_valid))::int AS "falsePositives",
            (count(*) FILTER (WHERE NOT flagged AND NOT final_valid))::int AS "falseNegatives",
            (count(*) FILTER (WHERE NOT flagged AND final_valid))::int AS "trueNegatives"
     FROM signals WHERE flagged IS NOT NULL
     GROUP BY signal, language`;

/** A small deterministic generator (mulberry32): the random campaign is the same on every run. */
function randomFrom(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(options: readonly T[]): T => options[Math.floor(next() * options.length)];
  const some = <T>(options: readonly T[], chance: number): T[] => options.filter(() => next() < chance);
  return { next, pick, some };
}

/** Rows in one order, whatever order json_agg gave them in and whatever order their keys are in. */
function sortedRows<T extends object>(rows: readonly T[] | null | undefined): T[] {
  const text = (row: T) => JSON.stringify(row, Object.keys(row).sort());
  return [...(rows ?? [])].sort((a, b) => text(a).localeCompare(text(b)));
}

describe("the count's statements", () => {
  it("count exactly what the single statement counted, on a random campaign", async () => {
    const random = randomFrom(41);
    const dataset = uniqueName("exact");
    const rules = ["Other Issues", "other issues", "Naming/Signature Inconsistency", "Wrong Output"];
    const records = Array.from({ length: 60 }, (_, index) =>
      makeRecord(`e${index}_${dataset.replaceAll("-", "_")}`, {
        language: random.pick(["python", "ruby", "go"]),
        // Some records have no critic verdict at all.
        ...(random.next() < 0.85
          ? {
              critic_result: {
                summary: { overall_pass: random.next() < 0.4, failed_rules: random.some(rules, 0.3), key_points: [] },
              },
            }
          : {}),
      }),
    );
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl(records)),
      skipInvalid: false,
      origin: "api",
    });
    const recordIds = (
      await prisma().record.findMany({ where: { dataset: { name: dataset } }, select: { id: true } })
    ).map((row) => row.id);
    for (const recordId of recordIds) {
      await prisma().record.update({
        where: { id: recordId },
        data: { executableValid: random.pick([true, false, null]), flaky: random.pick([true, false, null]) },
      });
      for (let run = 0; run < random.pick([0, 0, 1, 2]); run++)
        await prisma().mutationAnalysis.create({
          data: {
            recordId,
            requested: 8,
            generated: 8,
            viable: 8,
            killed: 0,
            demoKilled: 0,
            fullKilled: 0,
            stillborn: 0,
            score: random.next(),
            createdAt: new Date(Date.UTC(2026, 11, 1 + run)),
          },
        });
      for (let model = 0; model < random.pick([0, 1, 2]); model++)
        await prisma().solution.create({
          data: {
            recordId,
            model: `m${model}`,
            code: "x",
            passed: random.pick([true, false, null]),
            ranAt: new Date(),
          },
        });
    }
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("c"),
        overlap: 3,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    // The campaign's categories as created: several mapped to critic rules, the rest not.
    const categories = await prisma().errorCategory.findMany({
      where: { campaignId: campaign.id },
      orderBy: { position: "asc" },
    });
    const keys = categories.map((row) => row.key);
    const mapping = categories.flatMap(({ key, criticRule }) => (criticRule ? [{ key, criticRule }] : []));
    const annotators = await Promise.all(
      Array.from({ length: 6 }, () => makeUser("ANNOTATOR", ["python", "ruby", "go"])),
    );
    const items = await prisma().campaignItem.findMany({ where: { campaignId: campaign.id }, select: { id: true } });
    // Up to four labels an item, some items none: pairs, splits of every size, unlabelled items.
    const labels = items.flatMap((item) =>
      random.some(annotators, random.pick([0, 0.3, 0.6])).map((annotator) => {
        const valid = random.next() < 0.6;
        return {
          itemId: item.id,
          userId: annotator.id,
          valid,
          categories: valid ? [] : random.some(keys, 0.2),
          activeMs: Math.floor(random.next() * 20_000),
          updatedAt: new Date(Date.UTC(2026, 11, 1 + Math.floor(random.next() * 3), 12)),
        };
      }),
    );
    await prisma().annotation.createMany({ data: labels });

    await getCampaignAgreement({ actor: admin, campaignId: campaign.id });
    const kept = (await prisma().agreementCounts.findUniqueOrThrow({ where: { campaignId: campaign.id } })).counts as {
      counts: Record<string, object[]>;
      signals: object[];
    };
    const [reference] = await prisma().$queryRawUnsafe<Record<string, object[] | null>[]>(
      REFERENCE_COUNTS_SQL,
      campaign.id,
      mapping.map((entry) => entry.key),
      mapping.map((entry) => entry.criticRule),
      FAST_DECISION_MS,
    );
    const referenceSignals = await prisma().$queryRawUnsafe<object[]>(
      REFERENCE_SIGNALS_SQL,
      campaign.id,
      WEAK_TESTS_THRESHOLD,
    );
    // The campaign exercises every part: pairs, several days, rules, each signal.
    expect(reference.pairs!.length).toBeGreaterThan(5);
    expect(new Set(labels.map((label) => label.updatedAt.getTime())).size).toBe(3);
    expect(mapping.length).toBeGreaterThan(1);
    expect(reference.rules!.length).toBe(mapping.length);
    expect(referenceSignals.length).toBeGreaterThan(10);
    for (const part of ["splits", "critic", "execution", "rules", "annotators", "pairs"])
      expect(sortedRows(kept.counts[part]), part).toEqual(sortedRows(reference[part]));
    expect(sortedRows(kept.signals)).toEqual(sortedRows(referenceSignals));
  });
});
