// The flaky option of batch verification: a batch asked to repeat runs each record's tests K more
// times, each alone, in the real sandbox; a record whose outcomes differ is marked flaky — in the
// batch's counts, its REST progress, the records filter and the report's flaky count — while the
// report's validity figures stay those of people's labels.
// Integration: serial — repeated runs whose outcomes differ mark a record flaky, and a run that
// another file's load slowed past its time limit would differ.
import { beforeAll, describe, expect, it } from "vitest";

import { GET as getVerificationRoute } from "@/app/api/v1/verifications/[id]/route";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { browseRecords } from "@/lib/server/records/records";
import { getCampaignReport } from "@/lib/server/reports/reports";
import { createApiToken } from "@/lib/server/users/tokens";
import { getVerificationProgress } from "@/lib/server/verification/batches";
import { startVerification, verifyRecord } from "@/lib/server/verification/jobs";
import { readResponse } from "@/lib/testing/api-response";
import { chunks, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { findBubblewrap, skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

const hasBwrap = !skipWithoutSandbox(findBubblewrap() ? null : "bubblewrap is not installed");

const solution = "def half():\n    return 0.5\n";
// Fails on an odd random byte: a different outcome from run to run.
const coinTest = "import os\nassert half() == 0.5\nassert os.urandom(1)[0] % 2 == 0\n";
const steadyTest = "assert half() == 0.5\n";
const record = (title: string, full: string) => ({
  question: `# ${title}`,
  canonical_solution: solution,
  demo_test_func: steadyTest,
  full_test_func: full,
  language: "python",
});

let admin: Actor;
beforeAll(async () => {
  admin = await makeUser("ADMIN");
});

describe.skipIf(!hasBwrap)("batch verification with repeat K", () => {
  it("marks the record whose repeated runs differ flaky, counts it, filters it, and leaves validity alone", async () => {
    const dataset = uniqueName("verify-flaky");
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl([record("Coin", coinTest), record("Steady", steadyTest)])),
      skipInvalid: false,
      origin: "api",
    });
    const [coin, steady] = await prisma().record.findMany({
      where: { dataset: { name: dataset } },
      orderBy: { line: "asc" },
      select: { id: true },
    });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("verify-flaky"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    for (let index = 0; index < 2; index++) {
      const claim = await claimNextItem({ actor: annotator, campaignId: campaign.id });
      await submitAnnotation({
        actor: annotator,
        itemId: claim!.itemId,
        input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 10 },
      });
    }
    const before = await getCampaignReport({ actor: admin, campaignId: campaign.id });
    expect(before.flaky).toEqual({ records: 0, byLanguage: {} });

    // 16 repeats: a coin-flip test agrees with itself every time once in 30,000 checks.
    const { batchId } = await startVerification({ actor: admin, datasetName: dataset, force: false, repeat: 16 });
    await verifyRecord({ batchId, recordId: coin.id });
    await verifyRecord({ batchId, recordId: steady.id });

    const progress = await getVerificationProgress({ actor: admin, batchId });
    expect(progress).toMatchObject({ status: "SUCCEEDED", total: 2, done: 2, repeat: 16, flaky: 1 });
    // The flaky record still has its verification (its first run passed or failed).
    expect(progress.executableValid + progress.failed).toBe(2);
    const checks = await prisma().flakyCheck.findMany({
      where: { verificationBatchId: batchId },
      select: { recordId: true, repeats: true, flaky: true, outcomes: true },
    });
    expect(checks.map((check) => [check.recordId, check.repeats, check.flaky]).sort()).toEqual(
      [
        [coin.id, 16, true],
        [steady.id, 16, false],
      ].sort(),
    );
    expect(checks.find((check) => check.recordId === steady.id)!.outcomes).toEqual(
      Array.from({ length: 16 }, () => "PASSED/PASSED"),
    );

    // REST carries the option and the count.
    const token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "flaky" })).token;
    const answer = await getVerificationRoute(
      new Request(`http://localhost/api/v1/verifications/${batchId}`, {
        headers: { authorization: `Bearer ${token}` },
      }),
      { params: Promise.resolve({ id: batchId }) },
    );
    expect(answer.status).toBe(200);
    expect(await readResponse(answer, "GET", "/verifications/{id}")).toMatchObject({ repeat: 16, flaky: 1 });

    const flakyRows = await browseRecords({
      actor: admin,
      datasetName: dataset,
      filters: { executable: "flaky" },
      limit: 10,
    });
    expect(flakyRows.items.map((item) => item.id)).toEqual([coin.id]);

    const after = await getCampaignReport({ actor: admin, campaignId: campaign.id });
    expect(after.flaky).toEqual({ records: 1, byLanguage: { python: 1 } });
    // Validity is people's: the same before and after the flaky check.
    expect([after.pooled.resolved, after.pooled.valid, after.pooled.validity, after.pooled.ci]).toEqual([
      before.pooled.resolved,
      before.pooled.valid,
      before.pooled.validity,
      before.pooled.ci,
    ]);
    expect(after.byLanguage.python.validity).toBe(before.byLanguage.python.validity);
  }, 600_000);

  it("refuses a repeat that cannot tell a flaky test, over REST (422 with the field, not a 500)", async () => {
    const { POST } = await import("@/app/api/v1/datasets/[name]/verifications/route");
    const token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "flaky-bad" })).token;
    const answer = await POST(
      new Request("http://localhost/api/v1/datasets/anything/verifications", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ repeat: 1 }),
      }),
      { params: Promise.resolve({ name: "anything" }) },
    );
    expect(answer.status).toBe(422);
    expect(
      ((await answer.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors.repeat,
    ).toEqual(["A whole number of runs from 2 to 20."]);
  });
});
