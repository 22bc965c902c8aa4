// A record's evidence as REST carries it (GET /api/v1/records/{id} and the dataset listing), checked
// against the catalog's response schema, and hidden from annotators by a campaign's visibility.
import { beforeAll, describe, expect, it } from "vitest";

import { GET as getRecordRoute } from "@/app/api/v1/records/[id]/route";
import { GET as listRecordsRoute } from "@/app/api/v1/datasets/[name]/records/route";
import type { PreLabelVisibilityName } from "@/lib/evidence/visibility";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { readResponse } from "@/lib/testing/api-response";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { claimNextItem } from "@/lib/server/labelling/claim-next-item";
import { getWorkItem } from "@/lib/server/labelling/get-work-item";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { browseRecords, listRecords } from "@/lib/server/records/records";
import { listLatestCanonicalRuns } from "@/lib/server/runs/latest-runs";
import { getRecordVerification } from "@/lib/server/runs/runs";
import { listRecordRevisions } from "@/lib/server/revisions/queries";
import { recordSolversPage } from "@/lib/server/solvers/record-solvers-page";
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

/** The record as batch verification leaves it: it passes, with a batch's demo and full runs (no person's). */
async function storeVerification(recordId: number) {
  const { datasetId } = await prisma().record.findUniqueOrThrow({
    where: { id: recordId },
    select: { datasetId: true },
  });
  const batch = await prisma().verificationBatch.create({
    data: { datasetId, total: 1, done: 1, executableValid: 1, status: "SUCCEEDED" },
    select: { id: true },
  });
  for (const kind of ["DEMO", "FULL"] as const)
    await prisma().runResult.create({
      data: {
        recordId,
        batchId: batch.id,
        kind,
        backend: "local",
        outcome: "PASSED",
        stdout: "",
        stderr: "",
        timeMs: 5,
        program: "",
      },
    });
  await prisma().record.update({
    where: { id: recordId },
    data: { executableValid: true, verificationOutcome: "PASSED" },
  });
  await prisma().solution.create({ data: { recordId, model: "m-1", code: "x", passed: true, ranAt: new Date() } });
}

function byToken(token: string, path: string) {
  return new Request(`http://localhost/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
}

async function restRecord(token: string, recordId: number) {
  const one = await getRecordRoute(byToken(token, `/records/${recordId}`), {
    params: Promise.resolve({ id: String(recordId) }),
  });
  expect(one.status).toBe(200);
  return (await readResponse(one, "GET", "/records/{id}")) as {
    executableValid: boolean | null;
    verificationOutcome: string | null;
    isExecutionHidden: boolean;
    isEvidenceHidden: boolean;
  };
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
    mutation: {
      score: number;
      survivors: { acceptedBy: string[] }[];
      byTest: unknown;
      switching: { switched: number; alone: { reason: string; mutants: number }[] } | null;
    } | null;
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
    // An interpreted language's mutants are each their own program: nothing to say about switching.
    expect(evidence.mutation!.switching).toBeNull();
  });

  it("says how many mutants ran in the switched program, and why the others were compiled on their own", async () => {
    const { name, recordId } = await makeDataset();
    await storeAnalysis(recordId);
    const { id } = await prisma().mutationAnalysis.findFirstOrThrow({ where: { recordId }, select: { id: true } });
    await prisma().mutant.updateMany({
      where: { analysisId: id, position: { in: [0, 1, 2] } },
      data: { isSwitched: true },
    });
    await prisma().mutant.updateMany({
      where: { analysisId: id, position: 3 },
      data: { aloneReason: "the compiler refused its switch, as it may refuse the mutant itself" },
    });
    const evidence = await restEvidence(adminToken, recordId, name);
    expect(evidence.mutation!.switching).toEqual({
      switched: 3,
      alone: [{ reason: "the compiler refused its switch, as it may refuse the mutant itself", mutants: 1 }],
    });
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
      expect((await restRecord(token, recordId)).isEvidenceHidden).toBe(isHidden);
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

describe("a campaign's visibility and the execution", () => {
  // Only "nothing" hides execution: every place an annotator reads a record before labelling it.
  for (const [visibility, isHidden] of [
    ["nothing", true],
    ["execution", false],
    ["all-but-critic", false],
    ["all", false],
  ] as const) {
    it(`${visibility}: execution is ${isHidden ? "hidden until the annotator's first label" : "shown"}`, async () => {
      const { name, recordId } = await makeDataset();
      await storeVerification(recordId);
      const campaign = await createCampaign({
        actor: admin,
        input: {
          dataset: name,
          name: uniqueName("exc"),
          overlap: 1,
          agreementFraction: 0,
          blind: false,
          visibility,
          finalRule: "consensus",
          leaseMinutes: 30,
        },
      });
      expect(campaign.visibility).toBe(visibility);
      const annotator = await makeUser("ANNOTATOR", ["python"]);
      const token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: annotator.id, name: "a" })).token;
      const claim = await claimNextItem({ actor: annotator, campaignId: campaign.id });
      // The annotator's own run is theirs to see whatever the level.
      await prisma().runResult.create({
        data: {
          recordId,
          userId: annotator.id,
          kind: "DEMO",
          backend: "local",
          outcome: "WRONG_ANSWER",
          stdout: "",
          stderr: "",
          timeMs: 5,
          program: "",
        },
      });

      const seen = async () => {
        const rest = await restRecord(token, recordId);
        const listed = (await listRecords({ actor: annotator, datasetName: name, filters: {}, limit: 10 })).records[0];
        const browsed = (await browseRecords({ actor: annotator, datasetName: name, filters: {}, limit: 10 })).items[0];
        const work = await getWorkItem({ actor: annotator, itemId: claim!.itemId });
        const passing = await browseRecords({
          actor: annotator,
          datasetName: name,
          filters: { executable: "valid" },
          limit: 10,
        });
        const byOutcome = await browseRecords({
          actor: annotator,
          datasetName: name,
          filters: { outcome: "passed" },
          limit: 10,
        });
        const latest = await listLatestCanonicalRuns({ actor: annotator, recordId });
        const verification = await getRecordVerification({ actor: annotator, recordId });
        const { revisions } = await listRecordRevisions({ actor: annotator, recordId });
        return {
          rest: [rest.executableValid, rest.verificationOutcome, rest.isExecutionHidden],
          listed: [listed.executableValid, listed.verificationOutcome, listed.isExecutionHidden],
          browsed: [browsed.executableValid, browsed.verificationOutcome, browsed.isExecutionHidden],
          work: [work.record.executableValid, work.record.verificationOutcome, work.isExecutionVisible],
          filters: [passing.total, byOutcome.total],
          latest: latest.map((run) => run.outcome).sort(),
          verification: verification.length,
          revisions: revisions.map((revision) => revision.evidence.executableValid),
        };
      };
      const shown = {
        rest: [true, "PASSED", false],
        listed: [true, "PASSED", false],
        browsed: [true, "PASSED", false],
        work: [true, "PASSED", true],
        filters: [1, 1],
        // The newest demo run is the annotator's own; the full one is the batch's.
        latest: ["PASSED", "WRONG_ANSWER"],
        verification: 2,
        revisions: [true],
      };
      expect(await seen()).toEqual(
        isHidden
          ? {
              rest: [null, null, true],
              listed: [null, null, true],
              browsed: [null, null, true],
              work: [null, null, false],
              filters: [0, 0],
              latest: ["WRONG_ANSWER"],
              verification: 0,
              revisions: [null],
            }
          : shown,
      );
      // Solver results are evidence: the solvers listing hides them with the rest of it.
      const solvers = await recordSolversPage({
        actor: annotator,
        datasetName: name,
        unsolvedOnly: false,
        cursor: null,
        limit: 10,
      });
      expect(solvers.rows.length).toBe(visibility === "nothing" || visibility === "execution" ? 0 : 1);

      await submitAnnotation({
        actor: annotator,
        itemId: claim!.itemId,
        input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
      });
      expect(await seen()).toEqual({ ...shown, work: [true, "PASSED", true] });
      // Reviewers and admins who hold no lease on it see it all along.
      expect((await restRecord(adminToken, recordId)).executableValid).toBe(true);
    });
  }
});
