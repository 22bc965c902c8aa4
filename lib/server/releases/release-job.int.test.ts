// Cutting a release of a large dataset (issue 36): above RECORDS_RELEASED_IN_REQUEST records the
// request reserves the name with a BUILDING release and answers at once; a job on the queue stores
// the entries, the validity table and the disclosure and makes it READY, once however often it runs.
// Until then nothing of it is read, downloaded or diffed, and a build that fails says why.
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { GET as getRelease } from "@/app/api/v1/datasets/[name]/releases/[release]/route";
import { GET as getReleases, POST as postRelease } from "@/app/api/v1/datasets/[name]/releases/route";
import { RECORDS_RELEASED_IN_REQUEST } from "@/lib/releases/release-build";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { listJobs } from "@/lib/server/jobs/list-jobs";
import { createApiToken } from "@/lib/server/users/tokens";
import { startVerificationWorkers, stopVerificationWorkers } from "@/lib/server/verification/jobs";
import { RELEASE_QUEUE } from "@/lib/server/workers/queue-names";
import { readResponse } from "@/lib/testing/api-response";
import { makeUser, uniqueName } from "@/lib/testing/factories";

import { buildRelease, releaseArchive } from "./build-release";
import { cutRelease } from "./cut-release";
import { findRelease, listReleases } from "./queries";
import { runReleaseBuild } from "./release-queue";

// Just over the limit: the smallest dataset whose release a job builds.
const RECORDS = RECORDS_RELEASED_IN_REQUEST + 100;
let admin: Actor;
let dataset: string;

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  dataset = uniqueName("release-job");
  // Written in SQL: importing 2,100 records one by one would be most of this file's time.
  await prisma().$executeRaw`
    WITH created AS (INSERT INTO "Dataset" (id, name) VALUES ('ds_' || md5(${dataset}), ${dataset}) RETURNING id)
    INSERT INTO "Record" ("datasetId", key, line, language, difficulty, question, "canonicalSolution", "demoTestFunc", "fullTestFunc")
    SELECT created.id, md5(${dataset} || i), i, (ARRAY['python', 'cpp'])[1 + i % 2], 'easy', 'Question ' || i,
           'def f(): return ' || i, 'assert True', 'assert True'
    FROM created, generate_series(1, ${RECORDS}::int) AS i`;
});

afterAll(async () => {
  // Stops the job queue this file's cuts started, and the workers of its last test.
  await stopVerificationWorkers();
});

async function stateOf(name: string) {
  const release = await prisma().release.findFirstOrThrow({
    where: { name, dataset: { name: dataset } },
    select: { id: true, status: true, failureReason: true, records: true, excluded: true, validity: true },
  });
  const entries = await prisma().releaseEntry.count({ where: { releaseId: release.id } });
  return { ...release, entries };
}

/** The superuser, on the app's database: to add a trigger the app's role may not. */
async function connectSuperuser(): Promise<pg.Client> {
  const url = new URL(inject("adminDatabaseUrl"));
  url.pathname = new URL(process.env.DATABASE_URL!).pathname;
  const superuser = new pg.Client({ connectionString: url.toString() });
  await superuser.connect();
  return superuser;
}

async function queuedBuilds(releaseId: string): Promise<number> {
  const [row] = await prisma().$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM pgboss.job WHERE name = ${RELEASE_QUEUE} AND data->>'releaseId' = ${releaseId}`;
  return Number(row.n);
}

describe("cutting a release of a large dataset", () => {
  it("answers BUILDING before any entry is stored, with its build queued; nothing of it is read until built", async () => {
    const name = uniqueName("v");
    const cut = await cutRelease({ actor: admin, datasetName: dataset, name });
    expect(cut).toEqual({ id: expect.any(String), name, status: "BUILDING" });
    expect(await stateOf(name)).toMatchObject({ status: "BUILDING", entries: 0, validity: null });
    expect(await queuedBuilds(cut.id)).toBe(1);

    // Listed as being cut, never as ready; not readable nor downloadable.
    const listed = (await listReleases({ actor: admin, datasetName: dataset })).releases.find((r) => r.name === name);
    expect(listed).toMatchObject({ status: "BUILDING", records: 0, excluded: 0, failureReason: null });
    await expect(findRelease({ actor: admin, datasetName: dataset, name })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/still being cut/),
    });
    await expect(releaseArchive({ actor: admin, datasetName: dataset, name })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    // The name is taken already.
    await expect(cutRelease({ actor: admin, datasetName: dataset, name })).rejects.toMatchObject({ code: "CONFLICT" });

    expect(await buildRelease({ releaseId: cut.id })).toEqual({
      outcome: "built",
      records: 0,
      excluded: RECORDS,
      revised: 0,
    });
    expect(await stateOf(name)).toMatchObject({ status: "READY", entries: RECORDS, excluded: RECORDS });
    const { summary } = await findRelease({ actor: admin, datasetName: dataset, name });
    expect(summary).toMatchObject({ name, records: 0, excluded: RECORDS });
  });

  it("stores nothing twice when its job runs again, one after the other or at once", async () => {
    const name = uniqueName("v");
    const { id } = await cutRelease({ actor: admin, datasetName: dataset, name });
    const [first, second] = await Promise.all([buildRelease({ releaseId: id }), buildRelease({ releaseId: id })]);
    expect([first.outcome, second.outcome].sort()).toEqual(["built", "not building"]);
    expect(await buildRelease({ releaseId: id })).toEqual({ outcome: "not building" });
    expect(await stateOf(name)).toMatchObject({ status: "READY", entries: RECORDS });
    expect(
      await prisma().auditEvent.count({
        where: { action: "release.create", after: { path: ["release"], equals: name } },
      }),
    ).toBe(1);
  });

  it("leaves nothing of a build stopped half-way, and builds it whole when its job is retried", async () => {
    const name = uniqueName("v");
    const { id } = await cutRelease({ actor: admin, datasetName: dataset, name });
    // The build dies after inserting every entry, at the write that would make the release READY (a
    // trigger the superuser adds for this release only), as a worker killed there would leave it.
    const superuser = await connectSuperuser();
    const trigger = `stop_release_${createHash("md5").update(id).digest("hex").slice(0, 12)}`;
    try {
      await superuser.query(`CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the worker died'; END $$`);
      await superuser.query(
        `CREATE TRIGGER ${trigger} BEFORE UPDATE ON "Release" FOR EACH ROW WHEN (OLD.id = '${id}') EXECUTE FUNCTION ${trigger}()`,
      );
      await expect(buildRelease({ releaseId: id })).rejects.toThrow(/the worker died/);
    } finally {
      await superuser.query(`DROP TRIGGER IF EXISTS ${trigger} ON "Release"`);
      await superuser.query(`DROP FUNCTION IF EXISTS ${trigger}()`);
      await superuser.end();
    }
    expect(await stateOf(name)).toMatchObject({ status: "BUILDING", entries: 0 });
    expect(
      (await listReleases({ actor: admin, datasetName: dataset })).releases.find((release) => release.name === name),
    ).toMatchObject({ status: "BUILDING" });

    // The retried job builds it whole.
    expect(await buildRelease({ releaseId: id })).toMatchObject({ outcome: "built", excluded: RECORDS });
    expect(await stateOf(name)).toMatchObject({ status: "READY", entries: RECORDS });
  });

  it("records a build that fails as FAILED with the reason, which the list and a read say", async () => {
    const name = uniqueName("v");
    const { id } = await cutRelease({ actor: admin, datasetName: dataset, name });
    // A rule the build cannot read: an error a retry would repeat.
    await prisma().release.update({ where: { id }, data: { rule: { name: "no-such-rule" } } });
    await runReleaseBuild({ releaseId: id });
    expect(await stateOf(name)).toMatchObject({
      status: "FAILED",
      entries: 0,
      failureReason: expect.stringMatching(/unexpected error/),
    });
    expect(
      (await listReleases({ actor: admin, datasetName: dataset })).releases.find((r) => r.name === name),
    ).toMatchObject({ status: "FAILED", failureReason: expect.stringMatching(/unexpected error/) });
    await expect(findRelease({ actor: admin, datasetName: dataset, name })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/could not be cut: building it stopped on an unexpected error/),
    });
    // A later job finds nothing to build.
    expect(await buildRelease({ releaseId: id })).toEqual({ outcome: "not building" });
  });

  it("is listed on the Jobs list while being cut and once cut", async () => {
    const name = uniqueName("v");
    const { id } = await cutRelease({ actor: admin, datasetName: dataset, name });
    const jobOf = async () =>
      (await listJobs({ actor: admin, query: { kind: "release", limit: 100 } })).jobs.find((job) => job.id === id);
    expect(await jobOf()).toMatchObject({
      kind: "release",
      status: "RUNNING",
      dataset,
      scope: name,
      result: "being cut…",
      startedBy: { email: admin.email },
    });
    await buildRelease({ releaseId: id });
    expect(await jobOf()).toMatchObject({
      status: "SUCCEEDED",
      done: RECORDS,
      total: RECORDS,
      result: `0 in · ${RECORDS.toLocaleString("en-US")} out`,
    });
    expect(
      (await listJobs({ actor: SYSTEM_ACTOR.cli, query: { kind: "release", status: "SUCCEEDED", limit: 5 } })).jobs
        .length,
    ).toBeGreaterThan(0);
  });
});

describe("POST /api/v1/datasets/{name}/releases over a large dataset", () => {
  it("answers 202 with status BUILDING; reading the release answers 409 until it is built", async () => {
    const { token } = await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "release-job" });
    const request = (method: string, body?: unknown) =>
      new Request(`http://localhost/api/v1/datasets/${dataset}/releases`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const name = uniqueName("rest");
    const started = performance.now();
    const response = await postRelease(request("POST", { name }), { params: Promise.resolve({ name: dataset }) });
    const answerMs = performance.now() - started;
    expect(response.status).toBe(202);
    expect(await readResponse(response, "POST", "/datasets/{name}/releases")).toEqual({ name, status: "BUILDING" });
    // The request answered before the work: no entry stored yet.
    expect(await stateOf(name)).toMatchObject({ status: "BUILDING", entries: 0 });
    expect(answerMs).toBeLessThan(5_000);

    const read = await getRelease(request("GET"), { params: Promise.resolve({ name: dataset, release: name }) });
    expect(read.status).toBe(409);
    const listed = (await readResponse(
      await getReleases(request("GET"), { params: Promise.resolve({ name: dataset }) }),
      "GET",
      "/datasets/{name}/releases",
    )) as { releases: { name: string; status: string }[] };
    expect(listed.releases.find((release) => release.name === name)?.status).toBe("BUILDING");
  });
});

describe("the workers", () => {
  it("build a queued release on their own", async () => {
    const name = uniqueName("v");
    await cutRelease({ actor: admin, datasetName: dataset, name });
    await startVerificationWorkers(1);
    const started = performance.now();
    let status = "BUILDING";
    while (status === "BUILDING" && performance.now() - started < 60_000) {
      await sleep(200);
      status = (await stateOf(name)).status;
    }
    expect(await stateOf(name)).toMatchObject({ status: "READY", entries: RECORDS });
  });
});
