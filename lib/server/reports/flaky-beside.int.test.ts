// A flaky record (repeated runs gave different outcomes) is counted beside the report's figures, as
// the page says: not as valid or failing by its first run in "executable-valid".
import { describe, expect, it } from "vitest";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { getCampaignReport, getDatasetReport } from "@/lib/server/reports/reports";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";

describe("flaky records in the report", () => {
  it("leave executable-valid and are counted beside it", async () => {
    const admin = await makeUser("ADMIN");
    const dataset = uniqueName("flaky-beside");
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(toJsonl([0, 1, 2, 3].map((n) => makeRecord(`${dataset}-${n}`, { language: "python" })))),
      skipInvalid: false,
      origin: "api",
    });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("flaky"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const records = await prisma().record.findMany({ where: { dataset: { name: dataset } }, orderBy: { id: "asc" } });
    // Passing, failing, and two flaky ones whose first runs said passing and failing.
    const states = [
      { executableValid: true, flaky: false },
      { executableValid: false, flaky: false },
      { executableValid: true, flaky: true },
      { executableValid: false, flaky: true },
    ];
    for (const [index, record] of records.entries())
      await prisma().record.update({ where: { id: record.id }, data: states[index] });

    const report = await getCampaignReport({ actor: SYSTEM_ACTOR.cli, campaignId: campaign.id });
    expect(report.flaky.records).toBe(2);
    expect(report.byLanguage.python).toMatchObject({ sampled: 4, executableN: 2, executableValid: 0.5 });
    expect(report.pooled).toMatchObject({ executableN: 2, executableValid: 0.5 });
    // Across campaigns (a second one over the same records) the same holds.
    await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("flaky"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const overall = await getDatasetReport({ actor: admin, datasetName: dataset });
    expect(overall.flaky.records).toBe(2);
    expect(overall.pooled).toMatchObject({ sampled: 4, executableN: 2, executableValid: 0.5 });
  });
});
