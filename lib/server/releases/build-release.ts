import "server-only";

import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { type FileHandle, mkdir, mkdtemp, open, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { createGzip } from "node:zlib";

import { releaseCard } from "@/lib/releases/card";
import { diffReleases, type ReleaseDiff } from "@/lib/releases/diff";
import { dataLine, excludedLine } from "@/lib/releases/lines";
import { type ManifestFile, releaseManifest } from "@/lib/releases/manifest";
import { tarStream } from "@/lib/releases/tar";
import type { ReleaseSummary } from "@/lib/releases/types";
import { parseLanguage } from "@/lib/records/languages";
import { type Actor, SYSTEM_ACTOR, type SystemActor } from "@/lib/server/auth/permissions";
import { getDatasetReport } from "@/lib/server/reports/reports";
import { getSandboxRouter } from "@/lib/server/sandbox";
import { describeBackends } from "@/lib/server/sandbox/config";
import { REFERENCE_VERSIONS } from "@/lib/server/sandbox/reference-versions";

import {
  findDatasetForRelease,
  findRelease,
  findReleaseToBuild,
  releaseDiffEntries,
  releaseMethodFacts,
  releaseRecordPages,
  storeReleaseEntries,
} from "./queries";

// Releases as a feature: building one that was cut (the figures and the method gathered, then the
// snapshot stored by queries.ts; cut-release.ts reserves it and queues this) and building its folder
// or archive from what was stored, byte for byte the same every time.

type AnyActor = Actor | SystemActor;

/** The files of a release folder, in the order the archive holds them. */
const RELEASE_FILES = ["README.md", "data.jsonl", "excluded.jsonl", "manifest.json"] as const;

/** What a build found: it stored the entries, or the release was built (a retry) or gone. */
export type ReleaseBuildOutcome =
  { outcome: "built"; records: number; excluded: number; revised: number } | { outcome: "not building" | "no release" };

/**
 * Builds a BUILDING release (the job half of cutting one, cut-release.ts): gathers the validity table
 * (the dataset report's) and the method disclosure as they are now, and stores them with every
 * record's entry, making it READY (storeReleaseEntries: once, however often it runs). Acts as the
 * system: the cut checked releases:write before it reserved the name.
 */
export async function buildRelease({ releaseId }: { releaseId: string }): Promise<ReleaseBuildOutcome> {
  const release = await findReleaseToBuild({ releaseId });
  if (!release) return { outcome: "no release" };
  if (release.status !== "BUILDING") return { outcome: "not building" };
  const actor = SYSTEM_ACTOR.worker;
  const datasetName = release.datasetName;
  const dataset = await findDatasetForRelease({ actor, datasetName });
  const campaignIds = dataset.campaigns.map((campaign) => campaign.id);
  const [report, facts] = await Promise.all([
    getDatasetReport({ actor, datasetName }),
    releaseMethodFacts({ actor, datasetId: dataset.id, campaignIds }),
  ]);
  return storeReleaseEntries({
    releaseId,
    campaignIds,
    validity: {
      byLanguage: report.byLanguage,
      pooled: report.pooled,
      macro: report.macro,
      campaigns: report.campaigns.map((campaign) => campaign.name),
      crossCampaignRule: report.rule,
      leftOut: {
        campaigns: report.leftOut.campaigns.map((campaign) => campaign.name),
        labelledItems: report.leftOut.labelledItems,
      },
    },
    disclosure: {
      annotatorsPerItem: facts.annotatorsPerItem,
      campaigns: dataset.campaigns.map(({ name, blind, goldShare, finalRule, overlap }) => ({
        name,
        blind,
        goldShare,
        finalRule,
        overlap,
      })),
      sandbox: {
        backends: describeBackends(getSandboxRouter().config),
        toolchains: facts.toolchains,
        inconclusive: facts.inconclusive,
        environments: facts.environments,
        harness: facts.harness,
        reference: facts.languages.flatMap((language) => {
          try {
            return [{ language, label: REFERENCE_VERSIONS[parseLanguage(language)].label }];
          } catch {
            return [];
          }
        }),
      },
      revisions: facts.revisions,
      labels: facts.labels,
    },
  });
}

/** Writes `lines` to `path`, hashing as it goes; flat memory however many lines there are. */
async function writeHashed(path: string, lines: AsyncIterable<string>): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  const out = createWriteStream(path);
  let bytes = 0;
  for await (const text of lines) {
    const chunk = Buffer.from(text);
    hash.update(chunk);
    bytes += chunk.length;
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  out.end();
  await finished(out);
  return { bytes, sha256: hash.digest("hex") };
}

async function writeSmall(path: string, text: string): Promise<{ bytes: number; sha256: string }> {
  const bytes = Buffer.from(text);
  await writeFile(path, bytes);
  return { bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/**
 * Writes a stored release as a folder: data.jsonl, excluded.jsonl, README.md (the dataset card) and
 * manifest.json (the sha256 of the other three). The same release gives the same bytes every time.
 * Scope: releases:read.
 */
export async function writeReleaseFolder({
  actor,
  datasetName,
  name,
  outDir,
}: {
  actor: AnyActor;
  datasetName: string;
  name: string;
  outDir: string;
}): Promise<{ summary: ReleaseSummary; files: ManifestFile[] }> {
  const { id, summary } = await findRelease({ actor, datasetName, name });
  await mkdir(outDir, { recursive: true });
  async function* lines(included: boolean) {
    for await (const page of releaseRecordPages({ actor, releaseId: id, included }))
      yield page.map((row) => (included ? dataLine(name, row) : excludedLine(row))).join("");
  }
  const files: ManifestFile[] = [
    { path: "data.jsonl", ...(await writeHashed(join(outDir, "data.jsonl"), lines(true))) },
    { path: "excluded.jsonl", ...(await writeHashed(join(outDir, "excluded.jsonl"), lines(false))) },
    { path: "README.md", ...(await writeSmall(join(outDir, "README.md"), releaseCard(summary))) },
  ];
  const manifest = releaseManifest({ dataset: summary.dataset, name, createdAt: summary.createdAt, files });
  files.push({ path: "manifest.json", ...(await writeSmall(join(outDir, "manifest.json"), manifest)) });
  return { summary, files };
}

/** The archive's top folder and file name: dataset and release, with anything but letters, digits, `.`, `_` and `-` as `-`. */
function releaseArchiveName(datasetName: string, name: string): string {
  return `${datasetName}-${name}`.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "release";
}

/** The prefix of the temporary folders release archives are built in (the start-up sweep looks for it). */
const RELEASE_TEMP_PREFIX = "verity-release-";

/**
 * A stored release as a .tar.gz stream: its folder built in a temporary directory, archived under
 * one top folder with the release's creation time on every entry, so two downloads are the same
 * bytes. The folder is removed as soon as its files are open, before the first byte is sent: a
 * download abandoned at any point (mid-body, or before it began) leaves nothing behind by name, and
 * the open files go when the stream ends, fails or `signal` (the request's) aborts. Scope: releases:read.
 */
export async function releaseArchive({
  actor,
  datasetName,
  name,
  signal,
}: {
  actor: AnyActor;
  datasetName: string;
  name: string;
  signal?: AbortSignal;
}): Promise<{ fileName: string; stream: Readable }> {
  const folder = await mkdtemp(join(tmpdir(), RELEASE_TEMP_PREFIX));
  const handles: FileHandle[] = [];
  const closeAll = () => Promise.all(handles.map((handle) => handle.close().catch(() => {})));
  try {
    const { summary } = await writeReleaseFolder({ actor, datasetName, name, outDir: folder });
    signal?.throwIfAborted();
    for (const file of RELEASE_FILES) handles.push(await open(join(folder, file)));
    const top = releaseArchiveName(datasetName, name);
    const mtime = Math.floor(Date.parse(summary.createdAt) / 1000);
    const entries = [
      { name: `${top}/`, size: 0, mtime },
      ...(await Promise.all(
        RELEASE_FILES.map(async (file, index) => ({
          name: `${top}/${file}`,
          size: (await handles[index].stat()).size,
          mtime,
          body: () => handles[index].createReadStream({ autoClose: false }),
        })),
      )),
    ];
    const source = Readable.from(tarStream(entries));
    const stream = source.pipe(createGzip({ level: 9 }));
    let isDone = false;
    const finish = () => {
      if (isDone) return;
      isDone = true;
      signal?.removeEventListener("abort", onAbort);
      source.destroy();
      stream.destroy();
      void closeAll();
    };
    const onAbort = () => finish();
    stream.once("close", finish);
    stream.once("error", finish);
    signal?.addEventListener("abort", onAbort, { once: true });
    return { fileName: `${top}.tar.gz`, stream };
  } catch (error) {
    await closeAll();
    throw error;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Temporary release folders older than this at start-up were left by a process that died. */
const STALE_RELEASE_FOLDER_MS = 60 * 60_000;

/**
 * Removes the temporary release folders a process left when it died mid-build (a live one lasts
 * only while its archive is built). Run at start-up; returns how many were removed. No scope: the
 * server's own housekeeping.
 */
export async function sweepReleaseTempFolders(): Promise<number> {
  const temp = tmpdir();
  let removed = 0;
  for (const entry of await readdir(temp, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith(RELEASE_TEMP_PREFIX)) continue;
    const path = join(temp, entry.name);
    const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: Date.now() }));
    if (Date.now() - mtimeMs < STALE_RELEASE_FOLDER_MS) continue;
    await rm(path, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** Records added, removed and revised from release `a` to release `b` of a dataset. Scope: releases:read. */
export async function diffNamedReleases({
  actor,
  datasetName,
  a,
  b,
}: {
  actor: AnyActor;
  datasetName: string;
  a: string;
  b: string;
}): Promise<ReleaseDiff & { a: string; b: string }> {
  const [first, second] = await Promise.all([
    findRelease({ actor, datasetName, name: a }),
    findRelease({ actor, datasetName, name: b }),
  ]);
  const [entriesA, entriesB] = await Promise.all([
    releaseDiffEntries({ actor, releaseId: first.id }),
    releaseDiffEntries({ actor, releaseId: second.id }),
  ]);
  return { a, b, ...diffReleases(entriesA, entriesB) };
}
