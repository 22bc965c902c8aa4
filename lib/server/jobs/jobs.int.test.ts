// The Jobs read model and its routes over real rows of every kind, each made by the operation that
// makes it in the app: an import, a verification batch, an evidence batch, a solution import and a
// critic run. Who sees which jobs, keyset paging, filters, bad input, and pause/resume/cancel going
// through the kind's own operation (its scope, its conditional update, its audit row).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Role } from "@/lib/generated/prisma/enums";
import { isBefore } from "@/lib/jobs/cursor";
import type { JobKind } from "@/lib/jobs/types";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { openCriticRun } from "@/lib/server/critics/open-critic-run";
import { saveCritic } from "@/lib/server/critics/save-critic";
import { forgetCriticWorkers } from "@/lib/server/critics/jobs";
import { prisma } from "@/lib/server/db/client";
import {
  findRecordForEvidence,
  getEvidenceProgress,
  openEvidenceBatch,
  writeMutationAnalysis,
} from "@/lib/server/evidence/batches";
import { importRecords } from "@/lib/server/imports/imports";
import { importSolutions } from "@/lib/server/solvers/import-solutions";
import { createApiToken } from "@/lib/server/users/tokens";
import {
  findDatasetToVerify,
  findRecordToVerify,
  getVerificationProgress,
  openVerificationBatch,
} from "@/lib/server/verification/batches";
import { storeVerification } from "@/lib/server/verification/jobs";
import type { SandboxResult } from "@/lib/server/sandbox";
import { stopBoss } from "@/lib/server/workers/boss";
import { expectResponse } from "@/lib/testing/api-response";
import { setEnv } from "@/lib/testing/env";
import { chunks, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { saveCriticSchema } from "@/lib/validation/critics";
import type { z } from "zod";
import type { jobPageResponseSchema } from "@/lib/validation/jobs";

import { GET as listRoute } from "@/app/api/v1/jobs/route";
import { POST as statusRoute } from "@/app/api/v1/jobs/[kind]/[id]/status/route";

import { listJobs } from "./list-jobs";

type Page = z.infer<typeof jobPageResponseSchema>;
type Job = Page["jobs"][number];

const people = {} as Record<Role, Actor & { token: string }>;
const ids = {} as Record<JobKind, string>;
let seen = "";
let unseen = "";

beforeAll(async () => {
  setEnv({ NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? "jobs-test-secret" });
  for (const role of ["ADMIN", "REVIEWER", "ANNOTATOR"] as const) {
    const actor = await makeUser(role, ["python"]);
    const { token } = await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: actor.id, name: "jobs" });
    people[role] = { ...actor, token };
  }
  const admin = people.ADMIN;
  seen = uniqueName("jobs-seen");
  unseen = uniqueName("jobs-unseen");
  const rows = [makeRecord("jobs_a"), makeRecord("jobs_b"), makeRecord("jobs_c")];
  const imported = await importRecords({
    actor: admin,
    datasetName: seen,
    source: chunks(toJsonl(rows)),
    skipInvalid: false,
    origin: "api",
  });
  ids.import = imported.jobId;
  await importRecords({
    actor: admin,
    datasetName: unseen,
    source: chunks(toJsonl(rows)),
    skipInvalid: false,
    origin: "api",
  });
  // The annotator sees `seen` (a campaign in their language), never `unseen` (no campaign).
  await createCampaign({
    actor: admin,
    input: {
      dataset: seen,
      name: uniqueName("jobs-campaign"),
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  const datasetId = await findDatasetToVerify({ actor: admin, datasetName: seen });
  ids.verification = (await openVerificationBatch({ actor: admin, datasetId, force: true })).batchId;
  ids.evidence = (await openEvidenceBatch({ actor: admin, datasetName: unseen, mutants: 2, repeat: 0 })).batchId;
  ids.solutions = (
    await importSolutions({
      actor: admin,
      datasetName: seen,
      source: chunks(toJsonl([{ ...rows[0], output: "```python\ndef add_jobs_a(a, b):\n    return a + b\n```" }])),
      defaultModel: "jobs-model",
      origin: "api",
    })
  ).batchId;
  const criticName = uniqueName("jobs-critic");
  await saveCritic({
    actor: SYSTEM_ACTOR.cli,
    input: saveCriticSchema.parse({ name: criticName, baseUrl: "http://127.0.0.1:9/v1", model: "m" }),
  });
  ids.critic = (await openCriticRun({ actor: admin, criticName, datasetName: seen })).runId;
});

afterAll(async () => {
  await stopBoss(5_000);
  forgetCriticWorkers();
});

async function list(role: Role, query = ""): Promise<{ status: number; body: unknown }> {
  const response = await listRoute(
    new Request(`http://localhost/api/v1/jobs${query}`, { headers: { authorization: `Bearer ${people[role].token}` } }),
    { params: Promise.resolve({}) },
  );
  const body: unknown = await response.json();
  return { status: response.status, body: response.ok ? expectResponse("GET", "/jobs", body) : body };
}

async function control(role: Role, kind: string, id: string, body: unknown) {
  const response = await statusRoute(
    new Request(`http://localhost/api/v1/jobs/${kind}/${id}/status`, {
      method: "POST",
      headers: { authorization: `Bearer ${people[role].token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ kind, id }) },
  );
  const answer: unknown = await response.json();
  return {
    status: response.status,
    body: response.ok ? expectResponse("POST", "/jobs/{kind}/{id}/status", answer) : answer,
  };
}

/** Every job a role reads of one kind, page by page (other tests' jobs share the database). */
async function everyJob(role: Role, query: string, limit = 3): Promise<Job[]> {
  const jobs: Job[] = [];
  let cursor: string | null = null;
  do {
    const page = await list(role, `?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(page.status).toBe(200);
    const body = page.body as Page;
    expect(body.jobs.length).toBeLessThanOrEqual(limit);
    jobs.push(...body.jobs);
    cursor = body.nextCursor;
  } while (cursor);
  return jobs;
}

const mine = (jobs: Job[]) => jobs.filter((job) => Object.values(ids).includes(job.id));

describe("the jobs read model", () => {
  it("reads a row of each kind as one job: progress, unit, who started it, its scope, result and page", async () => {
    const jobs = mine(await everyJob("ADMIN", "", 50));
    const byKind = Object.fromEntries(jobs.map((job) => [job.kind, job]));
    expect(Object.keys(byKind).sort()).toEqual(["critic", "evidence", "import", "solutions", "verification"]);
    const startedBy = { name: people.ADMIN.name, email: people.ADMIN.email };
    expect(byKind.import).toMatchObject({
      id: ids.import,
      status: "SUCCEEDED",
      unit: "bytes",
      dataset: seen,
      result: "3 records imported",
      startedBy,
      href: `/datasets/${seen}`,
      actions: [],
      etaSeconds: null,
    });
    expect(byKind.import.done).toBe(byKind.import.total);
    expect(byKind.import.done).toBeGreaterThan(0);
    expect(byKind.verification).toMatchObject({
      id: ids.verification,
      status: "RUNNING",
      done: 0,
      total: 3,
      unit: "records",
      dataset: seen,
      startedBy,
      href: `/verifications/${ids.verification}`,
      actions: ["pause", "cancel"],
      perMinute: null,
    });
    expect(byKind.verification.scope).toContain("every record again");
    expect(byKind.evidence).toMatchObject({
      status: "RUNNING",
      done: 0,
      total: 3,
      unit: "record tasks",
      dataset: unseen,
    });
    expect(byKind.evidence.scope).toContain("2 mutants a record");
    expect(byKind.solutions).toMatchObject({
      status: "RUNNING",
      total: 1,
      unit: "solutions",
      href: `/datasets/${seen}/solvers`,
    });
    expect(byKind.solutions.scope).toContain("jobs-model");
    expect(byKind.critic).toMatchObject({
      status: "RUNNING",
      total: 3,
      href: `/critics/runs/${ids.critic}`,
      actions: ["pause", "cancel"],
    });
    expect(byKind.critic.startedAt).toBe(byKind.critic.createdAt);
  });

  it("pages newest first by keyset: every job once, in order, whatever the page size", async () => {
    const small = await everyJob("ADMIN", "", 2);
    const large = await everyJob("ADMIN", "", 200);
    const key = (job: Job) => ({ createdAt: new Date(job.createdAt), kind: job.kind, id: job.id });
    for (let index = 1; index < small.length; index++)
      expect(isBefore(key(small[index - 1]), key(small[index]))).toBe(true);
    expect(new Set(small.map((job) => `${job.kind}:${job.id}`)).size).toBe(small.length);
    // Jobs other tests start while this one pages are newer than its cursor, so they show only in the later read.
    const early = new Set(small.map((job) => job.id));
    expect(large.filter((job) => early.has(job.id)).map((job) => job.id)).toEqual(small.map((job) => job.id));
    expect(mine(small)).toHaveLength(5);
  });

  it("filters by kind and status, and a kind with no such status answers an empty page", async () => {
    const verifications = await everyJob("ADMIN", "&kind=verification&status=running");
    expect(verifications.every((job) => job.kind === "verification" && job.status === "RUNNING")).toBe(true);
    expect(verifications.map((job) => job.id)).toContain(ids.verification);
    expect((await list("ADMIN", "?kind=verification&status=paused")).body).toEqual({ jobs: [], nextCursor: null });
    const succeeded = await everyJob("ADMIN", "&status=SUCCEEDED", 50);
    expect(succeeded.map((job) => job.id)).toContain(ids.import);
    expect(succeeded.every((job) => job.status === "SUCCEEDED")).toBe(true);
  });

  it("pages a status filter by keyset too: evidence batches one a page, each once, and the last page ends", async () => {
    // Evidence's status filter is an OR, as is the cursor's condition within one kind: both must hold.
    const more = uniqueName("jobs-more-evidence");
    await importRecords({
      actor: people.ADMIN,
      datasetName: more,
      source: chunks(toJsonl([makeRecord("jobs_d")])),
      skipInvalid: false,
      origin: "api",
    });
    const second = (await openEvidenceBatch({ actor: people.ADMIN, datasetName: more, mutants: 2, repeat: 0 })).batchId;
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page = await list(
        "ADMIN",
        `?kind=evidence&status=running&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      const body = page.body as Page;
      pages.push(body.jobs.map((job) => job.id));
      cursor = body.nextCursor;
    } while (cursor && pages.length < 20);
    const listed = pages.flat();
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).toEqual(expect.arrayContaining([second, ids.evidence]));
    expect(listed.indexOf(second)).toBeLessThan(listed.indexOf(ids.evidence));
    expect(cursor).toBeNull();
  });

  it("shows each role the kinds the permission table gives it, annotators only their datasets' jobs", async () => {
    const annotator = mine(await everyJob("ANNOTATOR", "", 50));
    // No import (imports:write), no critic run (critics:read: critic output never reaches annotators),
    // no evidence batch of a dataset they do not see.
    expect(annotator.map((job) => job.kind).sort()).toEqual(["solutions", "verification"]);
    expect((await list("ANNOTATOR", "?kind=critic")).body).toEqual({ jobs: [], nextCursor: null });
    expect((await list("ANNOTATOR", "?kind=import")).body).toEqual({ jobs: [], nextCursor: null });
    const reviewer = mine(await everyJob("REVIEWER", "", 50));
    expect(reviewer.map((job) => job.kind).sort()).toEqual(["critic", "evidence", "solutions", "verification"]);
    // A reviewer reads critic runs but may not control them (critics:admin).
    expect(reviewer.find((job) => job.kind === "critic")?.actions).toEqual([]);
    // The CLI (Verity itself) reads every kind.
    const cli = await listJobs({ actor: SYSTEM_ACTOR.cli, query: { limit: 200 } });
    expect(new Set(cli.jobs.map((job) => job.kind)).size).toBeGreaterThanOrEqual(5);
  });

  it("refuses bad input with 422 naming the field", async () => {
    for (const [query, field] of [
      ["?kind=nope", "kind"],
      ["?status=done", "status"],
      ["?limit=0", "limit"],
      ["?limit=201", "limit"],
      ["?cursor=not-a-cursor", "cursor"],
    ] as const) {
      const answer = await list("ADMIN", query);
      expect(answer.status, query).toBe(422);
      expect(
        (answer.body as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors[field],
        query,
      ).toBeDefined();
    }
    const kind = await list("ADMIN", "?kind=nope");
    expect((kind.body as { error: { fieldErrors: { kind: string[] } } }).error.fieldErrors.kind[0]).toContain(
      "import, verification, evidence, solutions, critic",
    );
  });
});

describe("pause, resume and cancel through the kind's own operation", () => {
  it("refuses roles without the operation's scope (403), kinds without the action (422) and bad input (422)", async () => {
    expect((await control("REVIEWER", "critic", ids.critic, { action: "pause" })).status).toBe(403);
    expect((await control("ANNOTATOR", "critic", ids.critic, { action: "pause" })).status).toBe(403);
    const unsupported = await control("ADMIN", "solutions", ids.solutions, { action: "pause" });
    expect(unsupported.status).toBe(422);
    expect((unsupported.body as { error: { message: string } }).error.message).toBe(
      'A job of kind "solutions" cannot pause: only verifications, evidence batches, critic runs can.',
    );
    expect((await control("ADMIN", "nope", ids.critic, { action: "pause" })).status).toBe(422);
    expect((await control("ADMIN", "critic", ids.critic, { action: "stop" })).status).toBe(422);
    expect((await control("ADMIN", "critic", ids.critic, {})).status).toBe(422);
    expect((await control("ADMIN", "critic", "no-such-run", { action: "pause" })).status).toBe(404);
    const run = await prisma().criticRun.findUniqueOrThrow({ where: { id: ids.critic }, select: { status: true } });
    expect(run.status).toBe("RUNNING");
  });

  it("an admin pauses (audited), cannot pause twice (409), resumes and cancels; the list follows", async () => {
    expect(await control("ADMIN", "critic", ids.critic, { action: "pause" })).toEqual({
      status: 200,
      body: { kind: "critic", id: ids.critic, status: "PAUSED" },
    });
    const audit = await prisma().auditEvent.findMany({
      where: { targetId: ids.critic, action: "critic.run.pause" },
      select: { actorId: true },
    });
    expect(audit).toEqual([{ actorId: people.ADMIN.id }]);
    expect((await control("ADMIN", "critic", ids.critic, { action: "pause" })).status).toBe(409);
    const paused = await everyJob("ADMIN", "&kind=critic&status=paused");
    expect(paused.find((job) => job.id === ids.critic)).toMatchObject({
      status: "PAUSED",
      actions: ["resume", "cancel"],
      etaSeconds: null,
    });

    expect((await control("ADMIN", "critic", ids.critic, { action: "resume" })).body).toMatchObject({
      status: "RUNNING",
    });
    expect((await control("ADMIN", "critic", ids.critic, { action: "cancel" })).body).toMatchObject({
      status: "CANCELLED",
    });
    const cancelled = mine(await everyJob("ADMIN", "&kind=critic&status=cancelled"));
    expect(cancelled).toMatchObject([{ id: ids.critic, status: "CANCELLED", actions: [] }]);
    expect(cancelled[0].finishedAt).not.toBeNull();
  });

  it("an evidence batch: paused, the workers leave it; resumed, it runs; cancelled, a result in flight is not written", async () => {
    const [first, second] = await prisma().record.findMany({
      where: { dataset: { name: unseen } },
      orderBy: { line: "asc" },
      select: { id: true },
      take: 2,
    });
    const task = { actor: SYSTEM_ACTOR.worker, batchId: ids.evidence, task: "mutation" as const };
    expect(await findRecordForEvidence({ ...task, recordId: first.id })).not.toBeNull();
    expect((await control("REVIEWER", "evidence", ids.evidence, { action: "pause" })).status).toBe(403);

    expect((await control("ADMIN", "evidence", ids.evidence, { action: "pause" })).body).toMatchObject({
      status: "PAUSED",
    });
    expect((await control("ADMIN", "evidence", ids.evidence, { action: "pause" })).status).toBe(409);
    expect(await findRecordForEvidence({ ...task, recordId: first.id })).toBeNull();
    expect(await getEvidenceProgress({ actor: people.ADMIN, batchId: ids.evidence })).toMatchObject({
      status: "RUNNING",
      isPaused: true,
    });
    const paused = await everyJob("ADMIN", "&kind=evidence&status=paused");
    expect(paused.find((job) => job.id === ids.evidence)).toMatchObject({
      status: "PAUSED",
      actions: ["resume", "cancel"],
    });

    expect((await control("ADMIN", "evidence", ids.evidence, { action: "resume" })).body).toMatchObject({
      status: "RUNNING",
    });
    expect(await findRecordForEvidence({ ...task, recordId: first.id })).not.toBeNull();
    // A worker finishes the first record; the second is still being measured when the batch is cancelled.
    const result = {
      requested: 2,
      generated: 2,
      viable: 2,
      killed: 1,
      demoKilled: 1,
      fullKilled: 1,
      stillborn: 0,
      score: 0.5,
      notApplicable: null,
      mutants: [],
    };
    await writeMutationAnalysis({ ...task, recordId: first.id, result });
    expect((await control("ADMIN", "evidence", ids.evidence, { action: "cancel" })).body).toMatchObject({
      status: "CANCELLED",
    });
    await writeMutationAnalysis({ ...task, recordId: second.id, result });
    const written = await prisma().mutationAnalysis.findMany({
      where: { batchId: ids.evidence },
      select: { recordId: true },
    });
    expect(written).toEqual([{ recordId: first.id }]);
    expect(await getEvidenceProgress({ actor: people.ADMIN, batchId: ids.evidence })).toMatchObject({
      status: "FAILED",
      isCancelled: true,
      stopReason: `Cancelled by ${people.ADMIN.name ?? people.ADMIN.email}.`,
      done: 1,
    });
    const actions = await prisma().auditEvent.findMany({
      where: { action: { startsWith: "dataset.evidence." }, after: { path: ["batchId"], equals: ids.evidence } },
      orderBy: { createdAt: "asc" },
      select: { action: true },
    });
    expect(actions.map((row) => row.action)).toEqual([
      "dataset.evidence.pause",
      "dataset.evidence.resume",
      "dataset.evidence.cancel",
    ]);
  });

  it("a verification: paused, the workers leave it; started again or resumed, it runs; cancelled, a result in flight is not written", async () => {
    const [first, second] = await prisma().record.findMany({
      where: { dataset: { name: seen } },
      orderBy: { line: "asc" },
      select: { id: true },
      take: 2,
    });
    const worker = { actor: SYSTEM_ACTOR.worker, batchId: ids.verification };
    expect(await findRecordToVerify({ ...worker, recordId: first.id })).not.toBeNull();
    expect((await control("REVIEWER", "verification", ids.verification, { action: "pause" })).status).toBe(403);

    expect((await control("ADMIN", "verification", ids.verification, { action: "pause" })).body).toMatchObject({
      status: "PAUSED",
    });
    expect((await control("ADMIN", "verification", ids.verification, { action: "pause" })).status).toBe(409);
    expect(await findRecordToVerify({ ...worker, recordId: first.id })).toBeNull();
    expect(await getVerificationProgress({ actor: people.ADMIN, batchId: ids.verification })).toMatchObject({
      status: "RUNNING",
      isPaused: true,
      queuedAhead: 0,
    });
    const paused = await everyJob("ADMIN", "&kind=verification&status=paused");
    expect(paused.find((job) => job.id === ids.verification)).toMatchObject({
      status: "PAUSED",
      actions: ["resume", "cancel"],
    });
    // Verifying the dataset again with the same options resumes the paused batch.
    const datasetId = await findDatasetToVerify({ actor: people.ADMIN, datasetName: seen });
    const again = await openVerificationBatch({ actor: people.ADMIN, datasetId, force: true });
    expect(again).toMatchObject({ batchId: ids.verification, resumed: true });
    expect(await findRecordToVerify({ ...worker, recordId: first.id })).not.toBeNull();

    await control("ADMIN", "verification", ids.verification, { action: "pause" });
    expect((await control("ADMIN", "verification", ids.verification, { action: "resume" })).body).toMatchObject({
      status: "RUNNING",
    });
    expect(await findRecordToVerify({ ...worker, recordId: first.id })).not.toBeNull();
    // A worker finishes the first record; the second is still running when the batch is cancelled.
    const passed: SandboxResult = {
      outcome: "PASSED",
      exitCode: 0,
      signal: null,
      stdout: "",
      stderr: "",
      compileOutput: null,
      timeMs: 20,
      runMs: 20,
      memoryKb: null,
      limit: null,
      stdoutTruncated: false,
      stderrTruncated: false,
      program: "",
      backend: "local",
      language: "python",
    };
    const verdict = { kind: "ran" as const, demo: passed, full: passed };
    await storeVerification({ batchId: ids.verification, recordId: first.id, verdict });
    expect((await control("ADMIN", "verification", ids.verification, { action: "cancel" })).body).toMatchObject({
      status: "CANCELLED",
    });
    expect((await control("ADMIN", "verification", ids.verification, { action: "resume" })).status).toBe(409);
    await storeVerification({ batchId: ids.verification, recordId: second.id, verdict });
    const written = await prisma().runResult.findMany({
      where: { batchId: ids.verification },
      select: { recordId: true },
      distinct: ["recordId"],
    });
    expect(written).toEqual([{ recordId: first.id }]);
    expect(await getVerificationProgress({ actor: people.ADMIN, batchId: ids.verification })).toMatchObject({
      status: "FAILED",
      isCancelled: true,
      stopReason: `Cancelled by ${people.ADMIN.name ?? people.ADMIN.email}.`,
      done: 1,
    });
    const actions = await prisma().auditEvent.findMany({
      where: { action: { startsWith: "dataset.verify." }, after: { path: ["batchId"], equals: ids.verification } },
      orderBy: { createdAt: "asc" },
      select: { action: true },
    });
    expect(actions.map((row) => row.action)).toEqual([
      "dataset.verify.pause",
      "dataset.verify.resume",
      "dataset.verify.pause",
      "dataset.verify.resume",
      "dataset.verify.cancel",
    ]);
  });
});
