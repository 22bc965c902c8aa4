// A release card's row speaks of one revision of each record. Record A's full test was wrong: batch
// verification failed it, the imported critic passed it, and an annotator labelled it invalid; then
// a repair fixed the test, its recomputed execution passes, and a second person accepted it. The
// Python row of the validity table counts A by its label, given on revision 1, so its execution and
// its critic verdict in that row are revision 1's too (A failed): it used to take revision 2's
// passing run beside revision 1's label (executable-valid 2/2). The release entry of A, at revision
// 2, carries no critic verdict: the imported one judged revision 1.
import { readFileSync, rmSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Actor } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { getCampaignReport, getDatasetReport } from "@/lib/server/reports/reports";
import { checkRevision, proposeRevision } from "@/lib/server/revisions/queries";
import { chunks, holdItem, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { cutRelease } from "./cut-release";
import { writeReleaseFolder } from "./build-release";

const folder = mkdtempSync(join(tmpdir(), "verity-release-revisions-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const passingCritic = {
  rule_results: [{ rule: "Other Issues", result: "pass", reason: "Fine." }],
  summary: { overall_pass: true, failed_rules: [], key_points: [] },
};

let admin: Actor;
let dataset: string;
let repaired: number;
let campaignId: string;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  const annotator = await makeUser("ANNOTATOR", ["python"]);
  const checker = await makeUser("ANNOTATOR", ["python"]);
  dataset = uniqueName("release-revisions");
  const seed = dataset.replaceAll("-", "_");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(
      toJsonl([
        makeRecord(`${seed}_a`, { full_test_func: `assert add_${seed}_a(2, 2) == 5\n`, critic: passingCritic }),
        makeRecord(`${seed}_b`, { critic: passingCritic }),
      ]),
    ),
    skipInvalid: false,
    origin: "api",
  });
  const [a, b] = await prisma().record.findMany({
    where: { dataset: { name: dataset } },
    orderBy: { line: "asc" },
    select: { id: true },
  });
  repaired = a.id;
  // Batch verification's verdicts on the imported content, stored as its worker stores them.
  await prisma().record.update({
    where: { id: a.id },
    data: { executableValid: false, verificationOutcome: "WRONG_ANSWER" },
  });
  await prisma().record.update({ where: { id: b.id }, data: { executableValid: true, verificationOutcome: "PASSED" } });
  ({ id: campaignId } = await createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("release-revisions"),
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "majority",
      leaseMinutes: 30,
    },
  }));
  for (const item of await prisma().campaignItem.findMany({
    where: { campaignId },
    select: { id: true, recordId: true },
  })) {
    await holdItem({ userId: annotator.id, itemId: item.id });
    const valid = item.recordId !== a.id;
    await submitAnnotation({
      actor: annotator,
      itemId: item.id,
      input: {
        valid,
        categories: valid ? [] : ["wrong-expected-output"],
        note: null,
        needsReview: false,
        activeMs: 1000,
      },
    });
  }
  // The repair, its execution recomputed (as recomputeRevisionEvidence stores it), accepted blind.
  const proposal = await proposeRevision({
    actor: annotator,
    recordId: a.id,
    input: {
      full_test_func: `assert add_${seed}_a(2, 2) == 4\n`,
      reason: "2 + 2 is 4",
      categories: ["wrong-expected-output"],
    },
  });
  await prisma().recordRevision.update({
    where: { id: proposal.id },
    data: { demoOutcome: "PASSED", fullOutcome: "PASSED", executableValid: true, evidenceAt: new Date() },
  });
  await checkRevision({ actor: checker, revisionId: proposal.id, input: { valid: true, categories: [] } });
});

describe("a release of a record repaired after its label", () => {
  it("counts the record's execution and critic in the validity row at the revision its label was given on", async () => {
    const report = await getDatasetReport({ actor: admin, datasetName: dataset });
    const python = report.byLanguage.python;
    expect({ valid: python.valid, resolved: python.resolved }).toEqual({ valid: 1, resolved: 2 });
    // Revision 1 of A failed its tests; B passed: 1 of 2, not revision 2's pass beside revision 1's label.
    expect({ executableValid: python.executableValid, executableN: python.executableN }).toEqual({
      executableValid: 0.5,
      executableN: 2,
    });
    // The critic judged revision 1, which the label judged too: both count.
    expect(python.criticN).toBe(2);
  });

  it("counts the campaign's own report at the same revision: its repaired record's items apart from the rest", async () => {
    const python = (await getCampaignReport({ actor: admin, campaignId })).byLanguage.python;
    expect({ valid: python.valid, resolved: python.resolved, sampled: python.sampled }).toEqual({
      valid: 1,
      resolved: 2,
      sampled: 2,
    });
    expect({ executableValid: python.executableValid, executableN: python.executableN }).toEqual({
      executableValid: 0.5,
      executableN: 2,
    });
    expect({ criticN: python.criticN, criticPass: python.criticPass }).toEqual({ criticN: 2, criticPass: 1 });
  });

  it("writes the card's Python row from one revision per record, and leaves revision 1's critic off revision 2's entry", async () => {
    await cutRelease({ actor: admin, datasetName: dataset, name: "v1" });
    const out = join(folder, "v1");
    await writeReleaseFolder({ actor: admin, datasetName: dataset, name: "v1", outDir: out });
    const card = readFileSync(join(out, "README.md"), "utf8");
    const row = card.split("\n").find((line) => line.startsWith("| Python | 50.0%"));
    expect(row, card).toBeDefined();
    // Critic pass 2/2, executable-valid 1/2 (the rates of two items carry their n).
    expect(row).toMatch(/\| 100\.0% \(n = 2\) \| 50\.0% \(n = 2\) \|/);
    const entry = await prisma().releaseEntry.findFirstOrThrow({
      where: { recordId: repaired, release: { name: "v1", dataset: { name: dataset } } },
      select: { revision: true, included: true, reason: true },
    });
    expect(entry).toMatchObject({
      revision: 2,
      included: true,
      reason: { rule: "accepted-repair", evidence: { executable_valid: true, critic_pass: null } },
    });
  });
});
