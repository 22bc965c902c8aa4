import "server-only";

import { join } from "node:path";

import {
  type EnvironmentLock,
  type EnvironmentSpec,
  environmentSpecSchema,
  ENVIRONMENT_KINDS,
  kindsOf,
} from "@/lib/records/environment-spec";
import { writeAudit } from "@/lib/server/audit/audit";
import { assertCan } from "@/lib/server/auth/guard";
import { type Actor, personIdOf, type SystemActor } from "@/lib/server/auth/permissions";
import { config } from "@/lib/server/config";
import { prisma } from "@/lib/server/db/client";
import { AppError } from "@/lib/server/errors";
import type { RunEnvironment } from "@/lib/server/sandbox/environment";

/**
 * Environments per dataset as a feature: an admin declares pinned dependencies, Verity builds them
 * into a new read-only version (build.ts), and the dataset's runs mount the newest version that
 * built. A failed build leaves the previous version in use; old runs keep naming theirs.
 */

/** Where versions are kept: <data dir>/environments/<dataset id>/v<version>. */
export function environmentFolder(datasetId: string, version: number): string {
  return join(config().dataDir, "environments", datasetId, `v${version}`);
}

/**
 * A BUILDING version whose row has not been written for this long was cut off (a restart, a kill);
 * a running build writes its log every few seconds (build-version.ts).
 */
const QUIET_BUILD_MS = 2 * 60_000;
const CUT_OFF_MESSAGE = "The build was cut off (the server stopped); build again.";

function isQuiet(updatedAt: Date): boolean {
  return updatedAt.getTime() < Date.now() - QUIET_BUILD_MS;
}
/** The log keeps its last this many characters. */
const LOG_KEEP_CHARS = 200_000;

export type EnvironmentSummary = {
  version: number;
  status: "BUILDING" | "READY" | "FAILED";
  spec: EnvironmentSpec | null;
  lock: EnvironmentLock | null;
  error: string | null;
  sizeBytes: number | null;
  createdBy: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  isInUse: boolean;
};

function parseSpec(stored: unknown): EnvironmentSpec | null {
  const parsed = environmentSpecSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

function parseLock(stored: unknown): EnvironmentLock | null {
  if (!stored || typeof stored !== "object") return null;
  const lock: EnvironmentLock = {};
  for (const kind of ENVIRONMENT_KINDS) {
    const entries = (stored as Record<string, unknown>)[kind];
    if (Array.isArray(entries)) lock[kind] = entries.filter((entry): entry is string => typeof entry === "string");
  }
  return lock;
}

async function datasetByName(name: string) {
  const dataset = await prisma().dataset.findUnique({
    where: { name },
    select: { id: true, name: true, environmentVersion: true },
  });
  if (!dataset) throw new AppError("NOT_FOUND", `No dataset named "${name}".`);
  return dataset;
}

/**
 * Declares a new environment version for a dataset and returns it BUILDING; the caller builds it
 * (`buildEnvironmentVersion`). Refused while another build of the dataset is running. Audited.
 * Scope: datasets:verify.
 */
export async function declareEnvironment({
  actor,
  datasetName,
  spec: input,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  spec: unknown;
}): Promise<{ datasetId: string; version: number; id: string }> {
  assertCan(actor, "datasets:verify");
  const parsed = environmentSpecSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "spec");
      fieldErrors[key] = [...(fieldErrors[key] ?? []), issue.message];
    }
    throw new AppError(
      "INVALID_INPUT",
      `The environment is not valid: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`,
      fieldErrors,
    );
  }
  const dataset = await datasetByName(datasetName);
  return prisma().$transaction(async (tx) => {
    // One build per dataset at a time: the row lock serialises two admins pressing "Build" together.
    await tx.$queryRaw`SELECT id FROM "Dataset" WHERE id = ${dataset.id} FOR UPDATE`;
    const running = await tx.datasetEnvironment.findFirst({
      where: { datasetId: dataset.id, status: "BUILDING", updatedAt: { gt: new Date(Date.now() - QUIET_BUILD_MS) } },
      select: { version: true },
    });
    if (running)
      throw new AppError(
        "CONFLICT",
        `Version ${running.version} of "${datasetName}"'s environment is still building; wait for it to finish.`,
      );
    // A build that went quiet was cut off: say so, so its version is not left "building" for ever.
    await tx.datasetEnvironment.updateMany({
      where: { datasetId: dataset.id, status: "BUILDING" },
      data: {
        status: "FAILED",
        error: CUT_OFF_MESSAGE,
        finishedAt: new Date(),
      },
    });
    const last = await tx.datasetEnvironment.aggregate({ where: { datasetId: dataset.id }, _max: { version: true } });
    const version = (last._max.version ?? 0) + 1;
    const row = await tx.datasetEnvironment.create({
      data: { datasetId: dataset.id, version, spec: parsed.data, createdById: personIdOf(actor) },
      select: { id: true },
    });
    await writeAudit(tx, {
      actorId: personIdOf(actor),
      action: "dataset.environment",
      targetType: "Dataset",
      targetId: dataset.id,
      before: { version: dataset.environmentVersion },
      after: { version, spec: parsed.data },
    });
    return { datasetId: dataset.id, version, id: row.id };
  });
}

/** What a declared version is built from. No permission check: `declareEnvironment` checked it. */
export async function findEnvironmentToBuild(id: string): Promise<{ spec: EnvironmentSpec; dir: string }> {
  const row = await prisma().datasetEnvironment.findUniqueOrThrow({
    where: { id },
    select: { datasetId: true, version: true, spec: true },
  });
  return { spec: environmentSpecSchema.parse(row.spec), dir: environmentFolder(row.datasetId, row.version) };
}

/** Writes a building version's log so far (its last LOG_KEEP_CHARS), which also shows the build is alive. */
export async function writeEnvironmentLog(id: string, log: string): Promise<void> {
  await prisma().datasetEnvironment.update({
    where: { id },
    data: { log: log.slice(-LOG_KEEP_CHARS) },
    select: { id: true },
  });
}

/**
 * Ends a build: a version that built becomes the dataset's environment (unless a newer one built
 * already); one that failed keeps its error and leaves the dataset on its previous version.
 */
export async function finishEnvironmentBuild(
  id: string,
  outcome: { lock: EnvironmentLock; sizeBytes: number; log: string } | { error: string; log: string },
): Promise<EnvironmentSummary> {
  const log = outcome.log.slice(-LOG_KEEP_CHARS);
  if ("error" in outcome) {
    await prisma().datasetEnvironment.update({
      where: { id },
      data: { status: "FAILED", error: outcome.error, log, finishedAt: new Date() },
      select: { id: true },
    });
    return summaryOf(id);
  }
  await prisma().$transaction(async (tx) => {
    const row = await tx.datasetEnvironment.update({
      where: { id },
      data: { status: "READY", lock: outcome.lock, sizeBytes: outcome.sizeBytes, log, finishedAt: new Date() },
      select: { datasetId: true, version: true },
    });
    await tx.dataset.updateMany({
      where: { id: row.datasetId, OR: [{ environmentVersion: null }, { environmentVersion: { lt: row.version } }] },
      data: { environmentVersion: row.version },
    });
  });
  return summaryOf(id);
}

async function summaryOf(id: string): Promise<EnvironmentSummary> {
  const row = await prisma().datasetEnvironment.findUniqueOrThrow({
    where: { id },
    include: { createdBy: { select: { email: true } }, dataset: { select: { environmentVersion: true } } },
  });
  return toSummary(row, row.dataset.environmentVersion);
}

function toSummary(
  row: {
    version: number;
    status: EnvironmentSummary["status"];
    spec: unknown;
    lock: unknown;
    error: string | null;
    sizeBytes: bigint | null;
    createdBy: { email: string } | null;
    createdAt: Date;
    updatedAt: Date;
    finishedAt: Date | null;
  },
  inUse: number | null,
): EnvironmentSummary {
  // A build that went quiet was cut off: the page says so now, as the next declaration will record.
  const isCutOff = row.status === "BUILDING" && isQuiet(row.updatedAt);
  return {
    version: row.version,
    status: isCutOff ? "FAILED" : row.status,
    error: isCutOff ? CUT_OFF_MESSAGE : row.error,
    spec: parseSpec(row.spec),
    lock: parseLock(row.lock),
    sizeBytes: row.sizeBytes === null ? null : Number(row.sizeBytes),
    createdBy: row.createdBy?.email ?? null,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
    isInUse: row.version === inUse,
  };
}

const PAGE_SIZE = 20;

/**
 * A dataset's environment versions, newest first, a page at a time (`before`: the last version of
 * the previous page). Scope: datasets:verify.
 */
export async function listEnvironments({
  actor,
  datasetName,
  before,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  before?: number;
}): Promise<{ dataset: string; inUse: number | null; versions: EnvironmentSummary[]; nextBefore: number | null }> {
  assertCan(actor, "datasets:verify");
  const dataset = await datasetByName(datasetName);
  const rows = await prisma().datasetEnvironment.findMany({
    where: { datasetId: dataset.id, ...(before ? { version: { lt: before } } : {}) },
    orderBy: { version: "desc" },
    take: PAGE_SIZE + 1,
    include: { createdBy: { select: { email: true } } },
  });
  const page = rows.slice(0, PAGE_SIZE);
  return {
    dataset: dataset.name,
    inUse: dataset.environmentVersion,
    versions: page.map((row) => toSummary(row, dataset.environmentVersion)),
    nextBefore: rows.length > PAGE_SIZE ? (page.at(-1)?.version ?? null) : null,
  };
}

/** One version's build log (what the page polls while it builds). Scope: datasets:verify. */
export async function environmentLog({
  actor,
  datasetName,
  version,
}: {
  actor: Actor | SystemActor;
  datasetName: string;
  version: number;
}): Promise<{ status: EnvironmentSummary["status"]; log: string; error: string | null }> {
  assertCan(actor, "datasets:verify");
  const dataset = await datasetByName(datasetName);
  const row = await prisma().datasetEnvironment.findUnique({
    where: { datasetId_version: { datasetId: dataset.id, version } },
    select: { status: true, log: true, error: true, updatedAt: true },
  });
  if (!row) throw new AppError("NOT_FOUND", `"${datasetName}" has no environment version ${version}.`);
  if (row.status === "BUILDING" && isQuiet(row.updatedAt))
    return { status: "FAILED", log: row.log, error: CUT_OFF_MESSAGE };
  return { status: row.status, log: row.log, error: row.error };
}

/**
 * The environment a run of this dataset mounts: the version in use, or null. No permission check:
 * callers run records they were allowed to run.
 */
export async function runEnvironmentOf(datasetId: string): Promise<RunEnvironment | null> {
  const dataset = await prisma().dataset.findUnique({
    where: { id: datasetId },
    select: { environmentVersion: true },
  });
  if (!dataset?.environmentVersion) return null;
  const row = await prisma().datasetEnvironment.findUnique({
    where: { datasetId_version: { datasetId, version: dataset.environmentVersion } },
    select: { spec: true, lock: true },
  });
  const spec = row ? parseSpec(row.spec) : null;
  if (!spec) return null;
  return {
    version: dataset.environmentVersion,
    hostDir: environmentFolder(datasetId, dataset.environmentVersion),
    kinds: kindsOf(spec),
    javaJars: parseLock(row?.lock)?.maven ?? [],
  };
}
