// What a suspicion-ordered campaign's order may be computed from: only what the campaign shows its
// annotators before their first label. Two datasets hold the same records with the same evidence and
// opposite critic verdicts; a campaign that hides the critic must hand out their records in the same
// order, or the order itself would tell the annotator the hidden verdicts. Levels that show no
// evidence at all ("execution", "nothing") leave nothing to order by and are refused, with the reason.
import { beforeAll, describe, expect, it } from "vitest";

import type { SuspicionFacts } from "@/lib/evidence/suspicion";
import type { PreLabelVisibilityName } from "@/lib/evidence/visibility";
import type { Actor } from "@/lib/server/auth/permissions";
import { plantEvidence } from "@/lib/testing/evidence";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { createCampaignSchema } from "@/lib/validation/campaigns";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { extendCampaign } from "@/lib/server/campaigns/extend-campaign";
import { updateCampaignSettings } from "@/lib/server/campaigns/lifecycle";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";

const RECORDS = 12;

let admin: Actor;
/** The two datasets: the critic passes every record of one and fails every record of the other. */
let criticPasses: string;
let criticFails: string;

/**
 * Evidence a blind campaign shows: a distinct mutation score per record (so the visible score has no
 * ties and fixes the order by itself), and execution passing on every other record.
 */
function visibleFacts(index: number): Omit<SuspicionFacts, "criticPass"> {
  return {
    mutationScore: 0.55 + index * 0.03,
    flaky: false,
    solversTotal: 0,
    solversSolved: 0,
    executableValid: index % 2 === 0,
  };
}

async function importWithCritic(criticPass: boolean): Promise<string> {
  const name = uniqueName(criticPass ? "susp-pass" : "susp-fail");
  await importRecords({
    actor: admin,
    datasetName: name,
    source: chunks(toJsonl(Array.from({ length: RECORDS }, (_, index) => makeRecord(`susp_${index}`)))),
    skipInvalid: false,
    origin: "api",
  });
  const rows = await prisma().record.findMany({
    where: { dataset: { name } },
    orderBy: { line: "asc" },
    select: { id: true },
  });
  await plantEvidence(rows.map((row, index) => ({ id: row.id, facts: { ...visibleFacts(index), criticPass } })));
  return name;
}

const campaignInput = (dataset: string, visibility: PreLabelVisibilityName, perLanguage: number | null = null) => ({
  dataset,
  name: uniqueName("susp-order"),
  perLanguage,
  sampling: "suspicion" as const,
  visibility,
  blind: visibility !== "all",
  overlap: 1,
  agreementFraction: 0,
  finalRule: "consensus" as const,
  leaseMinutes: 30,
});

/** The source lines of a campaign's records in the order a new annotator is handed them, claim by claim. */
async function claimOrder(campaignId: string): Promise<number[]> {
  const annotator = await makeUser("ANNOTATOR", ["python"]);
  const lines: number[] = [];
  for (;;) {
    const claim = await claimNextItem({ actor: annotator, campaignId });
    if (!claim) return lines;
    const { line } = await prisma().record.findUniqueOrThrow({ where: { id: claim.recordId }, select: { line: true } });
    lines.push(line);
    await submitAnnotation({
      actor: annotator,
      itemId: claim.itemId,
      input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
    });
  }
}

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  criticPasses = await importWithCritic(true);
  criticFails = await importWithCritic(false);
}, 120_000);

describe("a suspicion order reads only what its campaign shows", () => {
  it("a blind campaign's claim order is the same whatever the hidden critic says (also after it grows)", async () => {
    const orders: number[][] = [];
    for (const dataset of [criticPasses, criticFails]) {
      const campaign = await createCampaign({ actor: admin, input: campaignInput(dataset, "all-but-critic", 6) });
      await extendCampaign({ actor: admin, campaignId: campaign.id, input: { perLanguage: null } });
      orders.push(await claimOrder(campaign.id));
    }
    expect(orders[0]).toHaveLength(RECORDS);
    expect(orders[1]).toEqual(orders[0]);
    // The order is the visible evidence's: weakest tests (lowest mutation score) first.
    expect(orders[0]).toEqual(Array.from({ length: RECORDS }, (_, index) => index + 1));
  }, 120_000);

  it("an open campaign does not order by a critic another (blind) campaign hides from its annotators", async () => {
    const orders: number[][] = [];
    for (const dataset of [criticPasses, criticFails]) {
      await createCampaign({
        actor: admin,
        input: { ...campaignInput(dataset, "all-but-critic"), sampling: "random" as const },
      });
      const open = await createCampaign({ actor: admin, input: campaignInput(dataset, "all") });
      orders.push(await claimOrder(open.id));
    }
    expect(orders[1]).toEqual(orders[0]);
  }, 120_000);

  it("an open campaign over records no blind campaign holds still orders by critic and execution disagreeing", async () => {
    const orders: number[][] = [];
    for (const passes of [true, false]) {
      const dataset = await importWithCritic(passes);
      const open = await createCampaign({ actor: admin, input: campaignInput(dataset, "all") });
      orders.push(await claimOrder(open.id));
    }
    // A passing critic disagrees with the records whose execution fails (odd lines), a failing one
    // with those whose execution passes (even lines): those come first.
    expect(orders[0].slice(0, RECORDS / 2).every((line) => line % 2 === 0)).toBe(true);
    expect(orders[1].slice(0, RECORDS / 2).every((line) => line % 2 === 1)).toBe(true);
  }, 120_000);

  it("refuses suspicion order where the campaign shows no evidence before the first label, saying why on the form's field", async () => {
    for (const visibility of ["nothing", "execution"] as const) {
      const parsed = createCampaignSchema.safeParse(campaignInput(criticPasses, visibility));
      expect(parsed.success).toBe(false);
      const issue = parsed.error!.issues.find((each) => each.path[0] === "sampling");
      expect(issue?.message).toMatch(/order/i);
      await expect(
        createCampaign({ actor: admin, input: campaignInput(criticPasses, visibility) }),
      ).rejects.toMatchObject({ code: "INVALID_INPUT", fieldErrors: { sampling: [expect.stringMatching(/order/i)] } });
    }
  });

  it("refuses to hide more from a suspicion campaign after its order was set, and allows showing more", async () => {
    const open = await createCampaign({ actor: admin, input: campaignInput(criticPasses, "all") });
    await expect(
      updateCampaignSettings({ actor: admin, campaignId: open.id, input: { visibility: "all-but-critic" } }),
    ).rejects.toMatchObject({ code: "CONFLICT", fieldErrors: { visibility: [expect.stringMatching(/order/i)] } });
    const blind = await createCampaign({ actor: admin, input: campaignInput(criticPasses, "all-but-critic") });
    const shown = await updateCampaignSettings({ actor: admin, campaignId: blind.id, input: { visibility: "all" } });
    expect(shown.visibility).toBe("all");
  });
});
