// hiddenRecordIds answers in one call what criticHiddenRecordIds, executionHiddenRecordIds and
// evidenceHiddenRecordIds answer in three: the same records for every kind, for annotators (their
// languages, labelled, skipped and unclaimed items, gold records of hiding campaigns), reviewers
// holding an item, and admins, over campaigns at every pre-label level.
import { beforeAll, describe, expect, it } from "vitest";

import type { PreLabelVisibilityName } from "@/lib/evidence/visibility";
import type { Actor } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { skipItem } from "@/lib/server/labelling/skip-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import {
  criticHiddenRecordIds,
  evidenceHiddenRecordIds,
  executionHiddenRecordIds,
  hiddenRecordIds,
} from "./visibility";

const label = { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 };

let admin: Actor;
let recordIds: number[];
const people: Record<string, Actor> = {};

async function campaignAt(dataset: string, visibility: PreLabelVisibilityName, goldShare = 0) {
  return createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("hide"),
      overlap: 1,
      agreementFraction: 0,
      blind: visibility === "all-but-critic",
      visibility,
      goldShare,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
}

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  const dataset = uniqueName("hide");
  const seed = dataset.replaceAll("-", "_");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(
      toJsonl([
        ...Array.from({ length: 10 }, (_, n) => makeRecord(`py_${seed}_${n}`, { language: "python" })),
        ...Array.from({ length: 2 }, (_, n) => makeRecord(`js_${seed}_${n}`, { language: "javascript" })),
      ]),
    ),
    skipInvalid: false,
    origin: "api",
  });
  recordIds = (
    await prisma().record.findMany({
      where: { dataset: { name: dataset } },
      select: { id: true },
      orderBy: { id: "asc" },
    })
  ).map((row) => row.id);
  // Two gold records, known before the campaigns sample: they reach annotators only as gold items.
  await prisma().goldLabel.createMany({
    data: recordIds.slice(8, 10).map((recordId) => ({ recordId, valid: true, categories: [] })),
  });

  people.annotator = await makeUser("ANNOTATOR", ["python"]);
  people.otherLanguage = await makeUser("ANNOTATOR", ["javascript"]);
  people.reviewer = await makeUser("REVIEWER", ["python"]);
  people.admin = admin;
  const blind = await campaignAt(dataset, "all-but-critic", 0.5);
  const nothing = await campaignAt(dataset, "nothing");
  const execution = await campaignAt(dataset, "execution");
  await campaignAt(dataset, "all");

  // The annotator labels two items where nothing is shown and skips one of the blind campaign's;
  // the reviewer holds one item where only execution is shown.
  for (let n = 0; n < 2; n++) {
    const claim = (await claimNextItem({ actor: people.annotator, campaignId: nothing.id }))!;
    await submitAnnotation({ actor: people.annotator, itemId: claim.itemId, input: label });
  }
  const skipped = (await claimNextItem({ actor: people.annotator, campaignId: blind.id }))!;
  await skipItem({ actor: people.annotator, itemId: skipped.itemId, reason: "unclear" });
  expect(await claimNextItem({ actor: people.reviewer, campaignId: execution.id })).not.toBeNull();
}, 120_000);

describe("hiddenRecordIds", () => {
  for (const who of ["annotator", "otherLanguage", "reviewer", "admin"]) {
    it(`hides from the ${who} exactly what the three rules hide one by one`, async () => {
      const actor = people[who];
      const [critic, execution, evidence, together] = await Promise.all([
        criticHiddenRecordIds({ actor, recordIds }),
        executionHiddenRecordIds({ actor, recordIds }),
        evidenceHiddenRecordIds({ actor, recordIds }),
        hiddenRecordIds({ actor, recordIds }),
      ]);
      const sorted = (ids: Set<number>) => [...ids].sort((a, b) => a - b);
      expect({
        critic: sorted(together.critic),
        execution: sorted(together.execution),
        evidence: sorted(together.evidence),
      }).toEqual({ critic: sorted(critic), execution: sorted(execution), evidence: sorted(evidence) });
      if (who === "annotator") {
        // Not a comparison of empty sets: every kind hides something, gold records included.
        for (const kind of [together.critic, together.execution, together.evidence]) {
          expect(kind.size).toBeGreaterThan(0);
          expect(kind.size).toBeLessThan(recordIds.length);
          expect(kind.has(recordIds[8])).toBe(true);
        }
      }
      if (who === "reviewer") expect(together.execution.size + together.evidence.size).toBeGreaterThan(0);
      if (who === "admin") expect(together.critic.size + together.execution.size + together.evidence.size).toBe(0);
    });
  }

  it("hides nothing from the system actor and answers nothing for no records", async () => {
    const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
    const none = { critic: new Set(), execution: new Set(), evidence: new Set() };
    expect(await hiddenRecordIds({ actor: SYSTEM_ACTOR.cli, recordIds })).toEqual(none);
    expect(await hiddenRecordIds({ actor: people.annotator, recordIds: [] })).toEqual(none);
  });
});
