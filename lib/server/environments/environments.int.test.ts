// Environments per dataset through their data functions, the real build (pip and npm reach PyPI and
// the npm registry) and the REST routes: a bad spec is refused naming its entry, a build that works
// becomes the version the dataset's runs mount, a build that fails keeps its registry's words and
// leaves the previous version in use, one build at a time per dataset, and every declaration is
// audited. Environment folders go to a temporary data dir, removed at the end.
import { mkdtempSync } from "node:fs";
import { stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { GET as getLog } from "@/app/api/v1/datasets/[name]/environments/[version]/log/route";
import { GET as listRoute, POST as postRoute } from "@/app/api/v1/datasets/[name]/environments/route";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { AppError } from "@/lib/server/errors";
import { removeEnvironmentFolder } from "@/lib/server/sandbox/environment-build";
import { createApiToken } from "@/lib/server/users/tokens";
import { readResponse } from "@/lib/testing/api-response";
import { setEnv } from "@/lib/testing/env";
import { makeUser, uniqueName } from "@/lib/testing/factories";

import { buildEnvironmentVersion } from "./build-version";
import {
  declareEnvironment,
  environmentFolder,
  environmentLog,
  finishEnvironmentBuild,
  listEnvironments,
  runEnvironmentOf,
} from "./environments";

const dataDir = mkdtempSync(join(tmpdir(), "verity-environments-"));
let admin: Actor;
let token: string;

beforeAll(async () => {
  setEnv({ VERITY_DATA_DIR: dataDir });
  admin = await makeUser("ADMIN");
  token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "environments" })).token;
});

afterAll(async () => {
  await removeEnvironmentFolder(dataDir);
  setEnv({ VERITY_DATA_DIR: undefined });
});

async function makeDataset(prefix: string): Promise<{ id: string; name: string }> {
  return prisma().dataset.create({ data: { name: uniqueName(prefix) }, select: { id: true, name: true } });
}

async function inUse(datasetId: string): Promise<number | null> {
  return (await prisma().dataset.findUniqueOrThrow({ where: { id: datasetId }, select: { environmentVersion: true } }))
    .environmentVersion;
}

/** What a rejected call threw, for its code and field errors. */
async function failureOf(call: Promise<unknown>): Promise<AppError> {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("environments per dataset (data functions and the build)", () => {
  it("refuses an entry that is not pinned, naming it under its kind, and writes nothing", async () => {
    const dataset = await makeDataset("env-bad");
    const error = await failureOf(
      declareEnvironment({ actor: admin, datasetName: dataset.name, spec: { python: ["tabulate==0.9.0", "numpy"] } }),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.fieldErrors?.python?.join(" ")).toMatch(/"numpy" is not name==version/);
    expect(error.fieldErrors?.npm).toBeUndefined();
    expect(await prisma().datasetEnvironment.count({ where: { datasetId: dataset.id } })).toBe(0);
  });

  it("is for admins only, and an unknown dataset is NOT_FOUND", async () => {
    const dataset = await makeDataset("env-roles");
    const reviewer = await makeUser("REVIEWER", ["python"]);
    const spec = { python: ["tabulate==0.9.0"] };
    expect((await failureOf(declareEnvironment({ actor: reviewer, datasetName: dataset.name, spec }))).code).toBe(
      "FORBIDDEN",
    );
    expect((await failureOf(listEnvironments({ actor: reviewer, datasetName: dataset.name }))).code).toBe("FORBIDDEN");
    expect((await failureOf(declareEnvironment({ actor: admin, datasetName: uniqueName("none"), spec }))).code).toBe(
      "NOT_FOUND",
    );
    expect((await failureOf(environmentLog({ actor: admin, datasetName: dataset.name, version: 1 }))).code).toBe(
      "NOT_FOUND",
    );
  });

  it("builds a PyPI wheel into the version in use; a package npm does not have fails with npm's 404 and leaves it in use", async () => {
    const dataset = await makeDataset("env-build");
    const declared = await declareEnvironment({
      actor: admin,
      datasetName: dataset.name,
      spec: { python: ["tabulate==0.9.0"] },
    });
    expect(declared.version).toBe(1);
    expect((await listEnvironments({ actor: admin, datasetName: dataset.name })).versions[0]).toMatchObject({
      version: 1,
      status: "BUILDING",
      isInUse: false,
      createdBy: (await prisma().user.findUniqueOrThrow({ where: { id: admin.id } })).email,
    });

    const lines: string[] = [];
    const ready = await buildEnvironmentVersion(declared.id, (line) => lines.push(line));
    expect(ready, ready.error ?? "").toMatchObject({ version: 1, status: "READY", error: null, isInUse: true });
    expect(ready.lock?.python).toContain("tabulate==0.9.0");
    expect(ready.sizeBytes).toBeGreaterThan(10_000);
    expect(lines.some((line) => line.includes("pip install"))).toBe(true);
    expect(await inUse(dataset.id)).toBe(1);
    const mounted = await runEnvironmentOf(dataset.id);
    expect(mounted).toMatchObject({ version: 1, kinds: ["python"], hostDir: environmentFolder(dataset.id, 1) });
    // Read-only: nobody may change a version a run named.
    expect((await stat(join(mounted!.hostDir, "python", "tabulate", "__init__.py"))).mode & 0o222).toBe(0);
    const log = await environmentLog({ actor: admin, datasetName: dataset.name, version: 1 });
    expect(log).toMatchObject({ status: "READY", error: null });
    expect(log.log).toContain("tabulate");

    const failing = await declareEnvironment({
      actor: admin,
      datasetName: dataset.name,
      spec: { npm: ["verity-no-such-package-for-tests@1.0.0"] },
    });
    expect(failing.version).toBe(2);
    const failed = await buildEnvironmentVersion(failing.id);
    expect(failed).toMatchObject({ version: 2, status: "FAILED", isInUse: false, lock: null, sizeBytes: null });
    expect(failed.error).toMatch(/npm install failed/);
    expect(failed.error).toMatch(/404/);
    expect(await inUse(dataset.id)).toBe(1);
    expect((await runEnvironmentOf(dataset.id))?.version).toBe(1);
    expect(await environmentLog({ actor: admin, datasetName: dataset.name, version: 2 })).toMatchObject({
      status: "FAILED",
      error: failed.error,
    });

    const page = await listEnvironments({ actor: admin, datasetName: dataset.name });
    expect(page).toMatchObject({ inUse: 1, nextBefore: null });
    expect(page.versions.map((version) => [version.version, version.status, version.isInUse])).toEqual([
      [2, "FAILED", false],
      [1, "READY", true],
    ]);
  }, 300_000);

  it("refuses a second declaration while a build of the dataset runs, and audits each declaration", async () => {
    const dataset = await makeDataset("env-conflict");
    const first = await declareEnvironment({
      actor: admin,
      datasetName: dataset.name,
      spec: { npm: ["js-md5@0.8.3"] },
    });
    const conflict = await failureOf(
      declareEnvironment({ actor: admin, datasetName: dataset.name, spec: { npm: ["js-md5@0.8.3"] } }),
    );
    expect(conflict.code).toBe("CONFLICT");
    expect(conflict.message).toMatch(/Version 1 .* still building/);
    expect(await prisma().datasetEnvironment.count({ where: { datasetId: dataset.id } })).toBe(1);

    const audit = await prisma().auditEvent.findMany({
      where: { action: "dataset.environment", targetId: dataset.id },
      select: { actorId: true, targetType: true, before: true, after: true },
    });
    expect(audit).toEqual([
      {
        actorId: admin.id,
        targetType: "Dataset",
        before: { version: null },
        after: { version: 1, spec: { python: [], npm: ["js-md5@0.8.3"], go: [], maven: [], debian: [], rust: [] } },
      },
    ]);

    // Once it ended (here: failed without building), the next one may start.
    await finishEnvironmentBuild(first.id, { error: "stopped by the test", log: "" });
    expect(
      (await declareEnvironment({ actor: admin, datasetName: dataset.name, spec: { npm: ["js-md5@0.8.3"] } })).version,
    ).toBe(2);
    await finishEnvironmentBuild(
      (await prisma().datasetEnvironment.findFirstOrThrow({ where: { datasetId: dataset.id, version: 2 } })).id,
      { error: "stopped by the test", log: "" },
    );
  });

  it("reads a build that stopped writing its log (a restart) as cut off, and lets the next one start", async () => {
    const dataset = await makeDataset("env-cut-off");
    const first = await declareEnvironment({
      actor: admin,
      datasetName: dataset.name,
      spec: { npm: ["js-md5@0.8.3"] },
    });
    // The server that built it stopped three minutes ago: nothing has written its row since.
    await prisma()
      .$executeRaw`UPDATE "DatasetEnvironment" SET "updatedAt" = now() - interval '3 minutes' WHERE id = ${first.id}`;
    const listed = await listEnvironments({ actor: admin, datasetName: dataset.name });
    expect(listed.versions[0]).toMatchObject({ version: 1, status: "FAILED", error: expect.stringMatching(/cut off/) });
    expect(await environmentLog({ actor: admin, datasetName: dataset.name, version: 1 })).toMatchObject({
      status: "FAILED",
      error: expect.stringMatching(/cut off/),
    });
    const second = await declareEnvironment({
      actor: admin,
      datasetName: dataset.name,
      spec: { npm: ["js-md5@0.8.3"] },
    });
    expect(second.version).toBe(2);
    expect(
      await prisma().datasetEnvironment.findFirstOrThrow({ where: { id: first.id }, select: { status: true } }),
    ).toEqual({ status: "FAILED" });
    await finishEnvironmentBuild(second.id, { error: "stopped by the test", log: "" });
  });

  it("pages versions newest first, 20 at a time", async () => {
    const dataset = await makeDataset("env-pages");
    await prisma().datasetEnvironment.createMany({
      data: Array.from({ length: 25 }, (_, n) => ({
        datasetId: dataset.id,
        version: n + 1,
        spec: { python: [`tabulate==0.${n}.0`] },
        status: "FAILED" as const,
        error: "test",
      })),
    });
    const first = await listEnvironments({ actor: admin, datasetName: dataset.name });
    expect(first.versions.map((version) => version.version)).toEqual(Array.from({ length: 20 }, (_, n) => 25 - n));
    expect(first.nextBefore).toBe(6);
    const second = await listEnvironments({ actor: admin, datasetName: dataset.name, before: first.nextBefore! });
    expect(second.versions.map((version) => version.version)).toEqual([5, 4, 3, 2, 1]);
    expect(second.nextBefore).toBeNull();
  });
});

function call<P extends Record<string, string>>(
  handler: (request: Request, context: { params: Promise<P> }) => Promise<Response>,
  { method = "GET", path, params, body }: { method?: string; path: string; params: P; body?: unknown },
): Promise<Response> {
  const request = new Request(`http://localhost/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return handler(request, { params: Promise.resolve(params) });
}

async function errorOf(response: Response): Promise<{ code: string; fieldErrors?: Record<string, string[]> }> {
  return ((await response.json()) as { error: { code: string; fieldErrors?: Record<string, string[]> } }).error;
}

describe("the environment routes", () => {
  it("declare with 202 and build in the background, 409 meanwhile, then list the version in use and its log", async () => {
    const dataset = await makeDataset("env-rest");
    const path = `/datasets/${dataset.name}/environments`;
    const params = { name: dataset.name };

    const unpinned = await call(postRoute, { method: "POST", path, params, body: { spec: { python: ["numpy"] } } });
    expect(unpinned.status).toBe(422);
    expect((await errorOf(unpinned)).fieldErrors?.python?.[0]).toMatch(/"numpy" is not name==version/);
    const noSpec = await call(postRoute, { method: "POST", path, params, body: { python: ["tabulate==0.9.0"] } });
    expect(noSpec.status).toBe(422);
    const unknown = await call(postRoute, {
      method: "POST",
      path: `/datasets/${uniqueName("none")}/environments`,
      params: { name: uniqueName("none") },
      body: { spec: { python: ["tabulate==0.9.0"] } },
    });
    expect(unknown.status).toBe(404);

    const started = await call(postRoute, {
      method: "POST",
      path,
      params,
      body: { spec: { python: ["tabulate==0.9.0"] } },
    });
    expect(started.status).toBe(202);
    expect(await readResponse(started, "POST", "/datasets/{name}/environments")).toEqual({
      dataset: dataset.name,
      version: 1,
      status: "BUILDING",
    });
    const again = await call(postRoute, {
      method: "POST",
      path,
      params,
      body: { spec: { python: ["tabulate==0.9.0"] } },
    });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).code).toBe("CONFLICT");

    const logPath = `${path}/1/log`;
    let log = { status: "BUILDING", log: "", error: null as string | null };
    for (let waited = 0; log.status === "BUILDING" && waited < 240; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const response = await call(getLog, { path: logPath, params: { ...params, version: "1" } });
      log = (await readResponse(response, "GET", "/datasets/{name}/environments/{version}/log")) as typeof log;
    }
    expect(log.status, log.error ?? "").toBe("READY");
    expect(log.log).toContain("tabulate");

    const listed = await call(listRoute, { path, params });
    expect(await readResponse(listed, "GET", "/datasets/{name}/environments")).toMatchObject({
      dataset: dataset.name,
      inUse: 1,
      nextBefore: null,
      versions: [{ version: 1, status: "READY", isInUse: true, lock: { python: ["tabulate==0.9.0"] } }],
    });

    for (const version of ["2", "0", "x", "1.5"])
      expect((await call(getLog, { path: `${path}/${version}/log`, params: { ...params, version } })).status).toBe(404);
    expect((await call(listRoute, { path: `${path}?before=x`, params })).status).toBe(422);
  }, 300_000);
});
