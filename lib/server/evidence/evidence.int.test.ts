// A record's evidence as REST carries it (GET /api/v1/records/{id} and the dataset listing), checked
// against the catalog's response schema, and hidden from annotators by a campaign's visibility.
import { beforeAll, describe, expect, it } from "vitest";

import { GET as getRecordRoute } from "@/app/api/v1/records/[id]/route";
import { GET as listRecordsRoute } from "@/app/api/v1/datasets/[name]/records/route";
import type { PreLabelVisibilityName } from "@/lib/evidence/visibility";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { readResponse } from "@/lib/testing/api-response";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "@/lib/server/campaigns/campaigns";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem, submitAnnotation } from "@/lib/server/labelling/queue";
import { createApiToken } from "@/lib/server/users/tokens";

let admin: Actor;
let adminToken: string;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  adminToken = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "evidence" })).token;
});

async function makeDataset(): Promise<{ name: string; recordId: number }> {
  const name = uniqueName("ev");
  const summary = await importRecords({
    actor: admin,
    datasetName: name,
    source: chunks(toJsonl([makeRecord(`ev_${name.replaceAll("-", "_")}`)])),
    skipInvalid: false,
    origin: "api",
  });
  expect(summary.ok).toBe(true);
  const record = await prisma().record.findFirstOrThrow({ where: { dataset: { name } }, select: { id: true } });
  return { name, recordId: record.id };
}

/** A stored analysis of 4 mutants: 2 killed by both tests, one the full test accepts, one stillborn. */
async function storeAnalysis(recordId: number) {
  const mutant = (position: number, status: string, demoOutcome: string, fullOutcome: string | null) => ({
    position,
    operator: "relational",
    line: position + 1,
    column: 5,
    original: "<",
    replacement: "<=",
    before: `if a < b: # ${position}`,
    after: `if a <= b: # ${position}`,
    demoOutcome,
    fullOutcome,
    status,
  });
  await prisma().mutationAnalysis.create({
    data: {
      recordId,
      requested: 8,
      generated: 4,
      viable: 3,
      killed: 2,
      demoKilled: 1,
      fullKilled: 2,
      stillborn: 1,
      score: 2 / 3,
      mutants: {
        create: [
          mutant(0, "KILLED", "WRONG_ANSWER", "WRONG_ANSWER"),
          mutant(1, "KILLED", "PASSED", "WRONG_ANSWER"),
          mutant(2, "SURVIVED", "PASSED", "PASSED"),
          mutant(3, "STILLBORN", "COMPILATION_ERROR", null),
        ],
      },
    },
  });
  await prisma().record.update({ where: { id: recordId }, data: { flaky: true, mutationScore: 2 / 3 } });
}

function byToken(token: string, path: string) {
  return new Request(`http://localhost/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
}

async function restEvidence(token: string, recordId: number, dataset: string) {
  const one = await getRecordRoute(byToken(token, `/records/${recordId}`), {
    params: Promise.resolve({ id: String(recordId) }),
  });
  expect(one.status).toBe(200);
  const list = await listRecordsRoute(byToken(token, `/datasets/${dataset}/records`), {
    params: Promise.resolve({ name: dataset }),
  });
  expect(list.status).toBe(200);
  const record = (await readResponse(one, "GET", "/records/{id}")) as { evidence: unknown };
  const page = (await readResponse(list, "GET", "/datasets/{name}/records")) as {
    records: { id: number; evidence: unknown }[];
  };
  expect(page.records.find((row) => row.id === recordId)?.evidence).toEqual(record.evidence);
  return record.evidence as {
    mutation: { score: number; survivors: { acceptedBy: string[] }[]; byTest: unknown } | null;
    flaky: boolean | null;
    solvers: null;
  };
}

describe("record evidence over REST", () => {
  it("is all null before any evidence is collected", async () => {
    const { name, recordId } = await makeDataset();
    expect(await restEvidence(adminToken, recordId, name)).toEqual({ mutation: null, flaky: null, solvers: null });
  });

  it("carries the mutation score per test, the survivors strongest first, and the flaky flag", async () => {
    const { name, recordId } = await makeDataset();
    await storeAnalysis(recordId);
    const evidence = await restEvidence(adminToken, recordId, name);
    expect(evidence.flaky).toBe(true);
    expect(evidence.solvers).toBeNull();
    expect(evidence.mutation).toMatchObject({
      score: 2 / 3,
      viable: 3,
      killed: 2,
      stillborn: 1,
      generated: 4,
      byTest: { demo: { killed: 1, score: 1 / 3 }, full: { killed: 2, score: 2 / 3 } },
    });
    // The stillborn mutant and the ones both tests killed are not survivors; the full test's survivor comes first.
    expect(evidence.mutation!.survivors.map((mutant) => mutant.acceptedBy)).toEqual([["demo", "full"], ["demo"]]);
  });
});

describe("a campaign's visibility and the evidence", () => {
  async function campaignOver(dataset: string, visibility: PreLabelVisibilityName) {
    return createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("evc"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        visibility,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
  }

  for (const [visibility, isHidden] of [
    ["nothing", true],
    ["execution", true],
    ["all-but-critic", false],
    ["all", false],
  ] as const) {
    it(`${visibility}: evidence is ${isHidden ? "hidden until the annotator's first label" : "shown"}`, async () => {
      const { name, recordId } = await makeDataset();
      await storeAnalysis(recordId);
      const campaign = await campaignOver(name, visibility);
      const stored = await prisma().campaign.findUniqueOrThrow({
        where: { id: campaign.id },
        select: { blind: true },
      });
      // blind keeps meaning "the critic is hidden before the first label".
      expect(stored.blind).toBe(visibility !== "all");
      const annotator = await makeUser("ANNOTATOR", ["python"]);
      const token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: annotator.id, name: "a" })).token;
      const claim = await claimNextItem({ actor: annotator, campaignId: campaign.id });
      const before = await restEvidence(token, recordId, name);
      expect(before.flaky).toBe(isHidden ? null : true);
      expect(before.mutation === null).toBe(isHidden);
      await submitAnnotation({
        actor: annotator,
        itemId: claim!.itemId,
        input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
      });
      expect((await restEvidence(token, recordId, name)).flaky).toBe(true);
      // Reviewers and admins who hold no lease on it see it all along.
      expect((await restEvidence(adminToken, recordId, name)).flaky).toBe(true);
    });
  }
});
