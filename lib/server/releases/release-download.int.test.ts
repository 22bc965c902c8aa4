// A release archive is built in the temporary folder before it streams. A download the reader
// abandons (mid-body, or while the folder is still being built) must leave nothing there: a
// reviewer could otherwise fill the disk with one full copy per aborted download. Served over real
// HTTP the way Next.js serves a route's Response (its own pipeToNodeResponse, the request's signal
// aborted when the client goes away).
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { pipeToNodeResponse } from "next/dist/server/pipe-readable";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { GET as getReleaseArchive } from "@/app/api/v1/datasets/[name]/releases/[release]/archive/route";
import { type Actor } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { createApiToken } from "@/lib/server/users/tokens";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { chunks, holdItem, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { cutRelease } from "./cut-release";
import { sweepReleaseTempFolders } from "./build-release";

const RECORDS = 160;
const previousTmp = process.env.TMPDIR;
const temp = mkdtempSync(join(tmpdir(), "verity-download-test-"));
let server: Server;
let base: string;
let token: string;
let dataset: string;

/** The release folders in the temporary folder right now. */
const releaseFolders = () => readdirSync(temp).filter((name) => name.startsWith("verity-release-"));

async function untilNoReleaseFolders(): Promise<string[]> {
  for (let attempt = 0; attempt < 100 && releaseFolders().length > 0; attempt++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return releaseFolders();
}

beforeAll(async () => {
  process.env.TMPDIR = temp;
  const admin: Actor = await makeUser("ADMIN");
  const annotator: Actor = await makeUser("ANNOTATOR", ["python"]);
  token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "download" })).token;
  dataset = uniqueName("download");
  // 40 KiB of noise a record, so the archive is megabytes that gzip cannot shrink away.
  const records = Array.from({ length: RECORDS }, (_, index) =>
    makeRecord(`dl${index}_${dataset.replaceAll("-", "_")}`, {
      question: `Write add. ${randomBytes(30 * 1024).toString("base64")}`,
    }),
  );
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl(records)),
    skipInvalid: false,
    origin: "api",
  });
  const campaign = await createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("download"),
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  const items = await prisma().campaignItem.findMany({ where: { campaignId: campaign.id }, select: { id: true } });
  for (const item of items) {
    await holdItem({ userId: annotator.id, itemId: item.id });
    await submitAnnotation({
      actor: annotator,
      itemId: item.id,
      input: { valid: true, categories: [], note: null, needsReview: false, activeMs: 1000 },
    });
  }
  await cutRelease({ actor: admin, datasetName: dataset, name: "v1" });

  server = createServer(async (incoming, outgoing) => {
    // As Next.js does: the request's signal is aborted when the client goes away.
    const controller = new AbortController();
    outgoing.once("close", () => {
      if (!outgoing.writableFinished) controller.abort();
    });
    const response = await getReleaseArchive(
      new Request(`http://verity.test${incoming.url}`, {
        headers: incoming.headers as Record<string, string>,
        signal: controller.signal,
      }),
      { params: Promise.resolve({ name: dataset, release: "v1" }) },
    );
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) await pipeToNodeResponse(response.body, outgoing);
    else outgoing.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  await new Promise<void>((resolve) => {
    server?.closeAllConnections();
    server?.close(() => resolve());
  });
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
  rmSync(temp, { recursive: true, force: true });
});

/** Starts a download; resolves with the request once `bytes` of the body arrived (0: at once). */
function download({ readBytes }: { readBytes: number }) {
  return new Promise<{ destroy: () => void; received: () => number }>((resolve, reject) => {
    const request = httpRequest(`${base}/api/v1/datasets/${dataset}/releases/v1/archive`, {
      headers: { authorization: `Bearer ${token}` },
    });
    let received = 0;
    const handle = { destroy: () => request.destroy(), received: () => received };
    request.on("error", () => {});
    request.on("response", (response) => {
      expect(response.statusCode).toBe(200);
      response.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received >= readBytes) {
          // Stop reading: the server is left mid-body, held by backpressure.
          response.pause();
          resolve(handle);
        }
      });
      response.on("error", () => {});
    });
    request.end();
    if (readBytes === 0) resolve(handle);
    setTimeout(() => reject(new Error("no body in time")), 60_000).unref();
  });
}

describe("an aborted release download", () => {
  it("leaves no copy in the temporary folder when the reader stops mid-body", async () => {
    const started = await download({ readBytes: 64 * 1024 });
    expect(releaseFolders().length + started.received()).toBeGreaterThan(0);
    started.destroy();
    expect(await untilNoReleaseFolders()).toEqual([]);
  });

  it("leaves no copy when the reader goes away while the archive is still being built", async () => {
    const started = await download({ readBytes: 0 });
    // Gone as soon as the build has begun.
    for (let attempt = 0; attempt < 200 && releaseFolders().length === 0; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    started.destroy();
    // Long enough for the build to finish and the answer to find nobody to read it.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await untilNoReleaseFolders()).toEqual([]);
  });

  it("leaves nothing of a download that completes", async () => {
    const done = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${base}/api/v1/datasets/${dataset}/releases/v1/archive`, {
        headers: { authorization: `Bearer ${token}` },
      });
      request.on("response", (response) => {
        let size = 0;
        response.on("data", (chunk: Buffer) => (size += chunk.length));
        response.on("end", () => resolve(size));
      });
      request.on("error", reject);
      request.end();
    });
    expect(done).toBeGreaterThan(RECORDS * 30 * 1024);
    expect(await untilNoReleaseFolders()).toEqual([]);
  });
});

describe("the start-up sweep", () => {
  it("removes release folders left by a process that died, and keeps one being built now", async () => {
    const old = join(temp, "verity-release-left-by-a-crash");
    mkdirSync(join(old, "inner"), { recursive: true });
    const hourAgo = new Date(Date.now() - 2 * 60 * 60_000);
    utimesSync(old, hourAgo, hourAgo);
    const fresh = join(temp, "verity-release-being-built");
    mkdirSync(fresh);
    const unrelated = join(temp, "someone-else");
    mkdirSync(unrelated);
    expect(await sweepReleaseTempFolders()).toBe(1);
    expect(readdirSync(temp).sort()).toEqual(["someone-else", "verity-release-being-built"]);
    rmSync(fresh, { recursive: true });
    rmSync(unrelated, { recursive: true });
  });
});
