// Whether a label was given with the critic in view is what the person was shown, not what the
// campaign is called: an open campaign over records a blind campaign also holds hides their critic
// (the blind campaign's rule), so its labels are given before the critic too. The workspace says why
// the critic is hidden there, the label keeps its pre-reveal copy, and "Which critic to trust"
// counts it as blind, not open.
import { beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { criticAnswer } from "@/lib/testing/fake-openai";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { getWorkItem } from "@/lib/server/labelling/get-work-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";

import { releaseCard } from "@/lib/releases/card";
import { cutRelease } from "@/lib/server/releases/cut-release";
import { findRelease } from "@/lib/server/releases/queries";
import { submitAnnotationAndClaimNext } from "@/lib/server/labelling/next-item";

import { getDatasetCriticCalibration } from "./calibration";

const RECORDS = 4;

let admin: Actor;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
});

async function datasetWithCritic(): Promise<string> {
  const name = uniqueName("provenance");
  const tag = name.replaceAll("-", "_");
  await importRecords({
    actor: admin,
    datasetName: name,
    source: chunks(
      toJsonl(
        Array.from({ length: RECORDS }, (_, n) =>
          makeRecord(`${tag}_${n}`, { critic: criticAnswer({ pass: n % 2 === 0 }) }),
        ),
      ),
    ),
    skipInvalid: false,
    origin: "api",
  });
  return name;
}

const campaignInput = (dataset: string, blind: boolean) => ({
  dataset,
  name: uniqueName(blind ? "prov-blind" : "prov-open"),
  overlap: 1,
  agreementFraction: 0,
  blind,
  finalRule: "consensus" as const,
  leaseMinutes: 30,
});

/** Claims and labels every item of a campaign as the annotator, returning the workspace before and after each label. */
async function labelAll(annotator: Actor, campaignId: string) {
  const seen: { before: Awaited<ReturnType<typeof getWorkItem>>; after: Awaited<ReturnType<typeof getWorkItem>> }[] =
    [];
  for (;;) {
    const claim = await claimNextItem({ actor: annotator, campaignId });
    if (!claim) return seen;
    const before = await getWorkItem({ actor: annotator, itemId: claim.itemId });
    await submitAnnotation({
      actor: annotator,
      itemId: claim.itemId,
      input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
    });
    seen.push({ before, after: await getWorkItem({ actor: annotator, itemId: claim.itemId }) });
  }
}

describe("provenance of a label: what its author was shown", () => {
  it("an open campaign's labels on records a blind campaign hides are pre-reveal, say why in the workspace, and count as blind", async () => {
    const dataset = await datasetWithCritic();
    await createCampaign({ actor: admin, input: campaignInput(dataset, true) });
    const open = await createCampaign({ actor: admin, input: campaignInput(dataset, false) });
    const annotator = await makeUser("ANNOTATOR", ["python"]);

    const seen = await labelAll(annotator, open.id);
    expect(seen).toHaveLength(RECORDS);
    for (const { before, after } of seen) {
      // Hidden before and after the label here: the blind campaign's item is still unlabelled.
      expect([before.isCriticVisible, after.isCriticVisible]).toEqual([false, false]);
      expect(before.criticHiddenBy).toBe("another-campaign");
      expect(after.criticHiddenBy).toBe("another-campaign");
    }
    const labels = await prisma().annotation.findMany({
      where: { item: { campaignId: open.id } },
      select: { preRevealValid: true },
    });
    expect(labels.map((label) => label.preRevealValid)).toEqual(Array(RECORDS).fill(true));

    const calibration = await getDatasetCriticCalibration({ actor: admin, datasetName: dataset });
    expect(calibration.provenance).toEqual({ blind: RECORDS, open: 0 });
    const imported = calibration.versions.find((version) => version.kind === "IMPORTED")!;
    expect(imported.invalid.provenance).toEqual({ blind: RECORDS, open: 0 });
    expect(imported.blindOnly.n).toBe(RECORDS);

    // The release card says what the labels' authors were shown: the critic hidden for all of them,
    // though one of the two campaigns is open.
    const name = uniqueName("v");
    await cutRelease({ actor: admin, datasetName: dataset, name });
    const { summary } = await findRelease({ actor: admin, datasetName: dataset, name });
    expect(summary.disclosure.labels).toEqual({ criticHidden: RECORDS, criticShown: 0 });
    const card = releaseCard(summary);
    expect(card).toMatch(/\*\*Saw the critic before labelling\*\*: no\b/);
    expect(card).not.toMatch(/in 1 of 2 campaigns/);
  });

  it("a first label in a blind campaign whose record another blind campaign also hides does not wait for a critic that stays hidden", async () => {
    const dataset = await datasetWithCritic();
    await createCampaign({ actor: admin, input: campaignInput(dataset, true) });
    const second = await createCampaign({ actor: admin, input: campaignInput(dataset, true) });
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    const claim = (await claimNextItem({ actor: annotator, campaignId: second.id }))!;
    expect((await getWorkItem({ actor: annotator, itemId: claim.itemId })).criticHiddenBy).toBe("another-campaign");
    const result = await submitAnnotationAndClaimNext({
      actor: annotator,
      itemId: claim.itemId,
      input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
    });
    expect(result.isCriticRevealed).toBe(false);
    expect(result.next).not.toBeNull();
  });

  it("a blind campaign's own item says the critic comes with the first label; an open campaign alone shows it and counts as open", async () => {
    const blindDataset = await datasetWithCritic();
    const blind = await createCampaign({ actor: admin, input: campaignInput(blindDataset, true) });
    const annotator = await makeUser("ANNOTATOR", ["python"]);
    for (const { before, after } of await labelAll(annotator, blind.id)) {
      expect([before.isCriticVisible, before.criticHiddenBy]).toEqual([false, "this-campaign"]);
      expect([after.isCriticVisible, after.criticHiddenBy]).toEqual([true, null]);
    }

    const openDataset = await datasetWithCritic();
    const open = await createCampaign({ actor: admin, input: campaignInput(openDataset, false) });
    for (const { before } of await labelAll(annotator, open.id))
      expect([before.isCriticVisible, before.criticHiddenBy]).toEqual([true, null]);
    const calibration = await getDatasetCriticCalibration({ actor: admin, datasetName: openDataset });
    expect(calibration.provenance).toEqual({ blind: 0, open: RECORDS });
  });
});
