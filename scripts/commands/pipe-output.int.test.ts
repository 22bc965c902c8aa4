// Every command's output reaches a pipe whole: the real `verity` program, its stdout and stderr on
// pipes read by a reader slower than the writer (4 KiB every 5 ms), gives the same bytes as the
// same command writing to files. On Linux Node writes to a pipe asynchronously, so a command that
// exits the process right after writing loses whatever had not left the pipe's 64 KiB buffer.
// One dataset is seeded for every case: records in every language with the record file's critic,
// one annotator's labels, and a campaign with many error categories mapped to critic rules, which
// makes the calibration and the reports large.
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { LANGUAGES } from "@/lib/records/languages";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { chunks, holdItem, makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { criticAnswer } from "@/lib/testing/fake-openai";
import { isSystemPostgresRun, NOT_ABOUT_POSTGRES } from "@/lib/testing/test-postgres";

const MIB = 1024 * 1024;
const RULED_CATEGORIES = 320;
const PLAIN_CATEGORIES = 7_000;
const folder = mkdtempSync(join(tmpdir(), "verity-pipe-"));
let dataset: string;
let campaignName: string;
let badFile: string;

type Output = { status: number | null; stdout: Buffer; stderr: Buffer };

function verityArgs(args: string[]): string[] {
  return ["scripts/verity.mjs", ...args];
}

/** Runs the command with stdout and stderr on files. */
function runToFiles(args: string[]): Promise<Output> {
  const stdoutFile = join(folder, `${uniqueName("out")}.stdout`);
  const stderrFile = join(folder, `${uniqueName("out")}.stderr`);
  const stdout = openSync(stdoutFile, "w");
  const stderr = openSync(stderrFile, "w");
  const child = spawn(process.execPath, verityArgs(args), { stdio: ["ignore", stdout, stderr] });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (status) => {
      closeSync(stdout);
      closeSync(stderr);
      resolve({ status, stdout: readFileSync(stdoutFile), stderr: readFileSync(stderrFile) });
    });
  });
}

/** Reads a pipe 4 KiB every 5 ms, slower than any command writes. */
function readSlowly(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  // A listener keeps the stream paused: without one, Node resumes (and drops) an unread child's
  // output once the child exits.
  stream.on("readable", () => {});
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const available = stream.readableLength;
      const chunk: Buffer | null = stream.read(available > 0 ? Math.min(4096, available) : 0);
      if (chunk) parts.push(chunk);
    }, 5);
    stream.on("end", () => {
      clearInterval(timer);
      resolve(Buffer.concat(parts));
    });
    stream.on("error", (error) => {
      clearInterval(timer);
      reject(error);
    });
  });
}

/** Runs the command with stdout and stderr on pipes read slowly. */
async function runThroughPipes(args: string[]): Promise<Output> {
  const child = spawn(process.execPath, verityArgs(args), { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (status) => resolve(status));
  });
  const [stdout, stderr, status] = await Promise.all([readSlowly(child.stdout), readSlowly(child.stderr), exited]);
  return { status, stdout, stderr };
}

async function expectSameThroughPipe(args: string[], expected: { status: number; bytes: number }) {
  const [file, pipe] = await Promise.all([runToFiles(args), runThroughPipes(args)]);
  expect(file.status, file.stderr.toString().slice(0, 500)).toBe(expected.status);
  expect(file.stdout.length + file.stderr.length).toBeGreaterThan(expected.bytes);
  expect({ status: pipe.status, stdout: pipe.stdout.length, stderr: pipe.stderr.length }).toEqual({
    status: file.status,
    stdout: file.stdout.length,
    stderr: file.stderr.length,
  });
  expect(pipe.stdout.equals(file.stdout)).toBe(true);
  expect(pipe.stderr.equals(file.stderr)).toBe(true);
  console.info(`${args.slice(0, 2).join(" ")} … ${args.at(-1)}: ${file.stdout.length} + ${file.stderr.length} bytes`);
  return file;
}

describe.skipIf(isSystemPostgresRun)(`a command's output through a pipe read slowly${NOT_ABOUT_POSTGRES}`, () => {
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  beforeAll(async () => {
    const admin = await makeUser("ADMIN");
    const annotator = await makeUser("ANNOTATOR", [...LANGUAGES]);
    dataset = uniqueName("pipe");
    const seed = dataset.replaceAll("-", "_");
    await importRecords({
      actor: admin,
      datasetName: dataset,
      source: chunks(
        toJsonl(
          LANGUAGES.flatMap((language, l) =>
            [0, 1].map((n) =>
              makeRecord(`${seed}_${l}_${n}`, {
                language,
                question: `case ${language} ${n}: write add_${seed}_${l}_${n}.`,
                critic: criticAnswer(n === 0 ? { pass: true } : { pass: false }),
              }),
            ),
          ),
        ),
      ),
      skipInvalid: false,
      origin: "api",
    });
    campaignName = uniqueName("Pipe");
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: campaignName,
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    // More categories than a form allows (40), written directly: each one is a row of the reports,
    // and each one mapped to a critic rule is a section of the calibration in every language.
    await prisma().errorCategory.createMany({
      data: Array.from({ length: RULED_CATEGORIES + PLAIN_CATEGORIES }, (_, n) => ({
        campaignId: campaign.id,
        key: `pipe-${n}`,
        label: `Pipe category number ${n} with a long label`,
        description: "",
        invalidating: true,
        criticRule: n < RULED_CATEGORIES ? `Pipe rule ${n}` : null,
        position: 1_000 + n,
      })),
    });
    const items = await prisma().campaignItem.findMany({
      where: { campaignId: campaign.id },
      select: { id: true, position: true },
    });
    for (const item of items) {
      await holdItem({ userId: annotator.id, itemId: item.id });
      const isValid = item.position % 2 === 0;
      await submitAnnotation({
        actor: annotator,
        itemId: item.id,
        input: {
          valid: isValid,
          categories: isValid ? [] : [`pipe-${item.position % RULED_CATEGORIES}`],
          note: null,
          needsReview: false,
          activeMs: 1000,
        },
      });
    }
    // An import whose every line is bad: 1,000 listed errors (the most an import lists).
    badFile = join(folder, "bad.jsonl");
    writeFileSync(
      badFile,
      toJsonl(
        Array.from({ length: 1_200 }, (_, n) =>
          makeRecord(`bad_${n}`, { language: `no-such-language-${"x".repeat(60)}` }),
        ),
      ),
    );
  }, 180_000);

  it("gives the whole critic calibration in JSON, past 1 MiB", async () => {
    const file = await expectSameThroughPipe(["critic", "calibration", "--dataset", dataset, "--json"], {
      status: 0,
      bytes: MIB,
    });
    expect(JSON.parse(file.stdout.toString()).versions.length).toBeGreaterThan(0);
  }, 120_000);

  it("gives the whole dataset report in JSON, CSV and Markdown, and the campaign report in JSON", async () => {
    const json = await expectSameThroughPipe(["report", "--dataset", dataset, "--json"], { status: 0, bytes: MIB });
    expect(Object.keys(JSON.parse(json.stdout.toString()).byLanguage)).toHaveLength(LANGUAGES.length);
    // A table per language (and per category in Markdown): small whatever the data, yet checked too.
    await expectSameThroughPipe(["report", "--dataset", dataset, "--format", "csv"], { status: 0, bytes: 1024 });
    await expectSameThroughPipe(["report", "--dataset", dataset, "--format", "md"], { status: 0, bytes: 1024 });
    await expectSameThroughPipe(["report", "--campaign", campaignName, "--json"], { status: 0, bytes: MIB });
  }, 240_000);

  it("gives every bad line of an import, in JSON on stdout and as lines on stderr, with exit code 1", async () => {
    const json = await expectSameThroughPipe(["import", badFile, "--dataset", uniqueName("bad"), "--json"], {
      status: 1,
      bytes: 200 * 1024,
    });
    expect(JSON.parse(json.stdout.toString()).errors).toHaveLength(1_000);
    await expectSameThroughPipe(["import", badFile, "--dataset", uniqueName("bad")], {
      status: 1,
      bytes: 200 * 1024,
    });
  }, 120_000);

  it("gives a usage error whole with exit code 2", async () => {
    const file = await expectSameThroughPipe(["report", "--format", "xml", "--dataset", dataset], {
      status: 2,
      bytes: 10,
    });
    expect(file.stderr.toString()).toBe("error: --format must be md, csv or json\n");
  }, 60_000);
});
