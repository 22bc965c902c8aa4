// Releases on a real PostgreSQL: what is in and out and why, a repaired record at its revision, the
// same bytes from two builds (folder and archive), a release untouched by later labels and repairs,
// the diff between two releases, the CLI's interface, and the card's validity table against a
// recomputation made here from the labels this test gives.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buffer } from "node:stream/consumers";
import { promisify } from "node:util";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { GET as getReleaseArchive } from "@/app/api/v1/datasets/[name]/releases/[release]/archive/route";
import { GET as getReleaseDiff } from "@/app/api/v1/datasets/[name]/releases/[release]/diff/route";
import { GET as getRelease } from "@/app/api/v1/datasets/[name]/releases/[release]/route";
import { GET as getReleases, POST as postRelease } from "@/app/api/v1/datasets/[name]/releases/route";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { checkRevision, proposeRevision } from "@/lib/server/revisions/queries";
import { createApiToken } from "@/lib/server/users/tokens";
import { readResponse } from "@/lib/testing/api-response";
import { chunks, holdItem, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { cutRelease } from "./cut-release";
import { diffNamedReleases, releaseArchive, writeReleaseFolder } from "./build-release";

const run = promisify(execFile);
const folder = mkdtempSync(join(tmpdir(), "verity-releases-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const WRONG_TEST = "def test():\n    assert fact(5) == 121\n\ntest()\n";
const FIXED_TEST = WRONG_TEST.replace("121", "120");

// Per record: its language and the two annotators' labels (consensus rule, overlap 2).
type Plan = { language: "python" | "cpp"; labels: boolean[] };
const PLAN: Plan[] = [
  { language: "python", labels: [true, true] }, // 0: in
  { language: "python", labels: [true, true] }, // 1: in
  { language: "python", labels: [false, false] }, // 2: invalid (fact(5) == 121), repaired to revision 2: in
  { language: "python", labels: [true, false] }, // 3: unresolved: out
  { language: "python", labels: [false, false] }, // 4: invalid: out
  { language: "python", labels: [] }, // 5: unlabelled: out
  { language: "cpp", labels: [true, true] }, // 6: in
  { language: "cpp", labels: [false, false] }, // 7: invalid: out
];

let admin: Actor;
let annotators: Actor[];
let dataset: string;
let recordIds: number[];
let itemIds: string[];

async function label(actor: Actor, itemId: string, valid: boolean) {
  const held = await prisma().assignment.findUnique({ where: { itemId_userId: { itemId, userId: actor.id } } });
  if (!held) await holdItem({ userId: actor.id, itemId });
  await submitAnnotation({
    actor,
    itemId,
    input: {
      valid,
      categories: valid ? [] : ["wrong-expected-output"],
      note: null,
      needsReview: false,
      activeMs: 1000,
    },
  });
}

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  annotators = [await makeUser("ANNOTATOR", ["python", "cpp"]), await makeUser("ANNOTATOR", ["python", "cpp"])];
  dataset = uniqueName("releases");
  const records = PLAN.map((plan, index) => ({
    question: `Record ${index} of ${dataset}: write fact(n).`,
    canonical_solution: "def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\n",
    demo_test_func: `# ${index}\n`,
    full_test_func: index === 2 ? WRONG_TEST : `assert fact(${index}) > 0\n`,
    language: plan.language,
    index,
  }));
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
      name: uniqueName("releases"),
      overlap: 2,
      agreementFraction: 0,
      blind: true,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  const items = await prisma().campaignItem.findMany({
    where: { campaignId: campaign.id },
    select: { id: true, recordId: true, record: { select: { extra: true } } },
  });
  const byIndex = new Map(items.map((item) => [(item.record.extra as { index: number }).index, item]));
  recordIds = PLAN.map((_, index) => byIndex.get(index)!.recordId);
  itemIds = PLAN.map((_, index) => byIndex.get(index)!.id);
  for (const [index, plan] of PLAN.entries())
    for (const [annotator, valid] of plan.labels.entries()) await label(annotators[annotator], itemIds[index], valid);
  // Record 2 is repaired and accepted blind by the other annotator; record 4's repair is rejected.
  const repair = await proposeRevision({
    actor: annotators[0],
    recordId: recordIds[2],
    input: { full_test_func: FIXED_TEST, reason: "fact(5) is 120", categories: ["wrong-expected-output"] },
  });
  await checkRevision({ actor: annotators[1], revisionId: repair.id, input: { valid: true, categories: [] } });
  const rejected = await proposeRevision({
    actor: annotators[0],
    recordId: recordIds[4],
    input: { question: "Something else.", reason: "reword", categories: ["statement-ambiguous"] },
  });
  await checkRevision({
    actor: annotators[1],
    revisionId: rejected.id,
    input: { valid: false, categories: ["other"] },
  });
});

const readLines = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown> & { verification?: Record<string, unknown> });

const folderBytes = (path: string) =>
  Object.fromEntries(readdirSync(path).map((file) => [file, readFileSync(join(path, file))]));

describe("releases", () => {
  it("hold the valid records, the repaired one at its revision, and list the others with why they are out", async () => {
    const cut = await cutRelease({ actor: admin, datasetName: dataset, name: "v1" });
    // Eight records: built inside the call (a dataset over RECORDS_RELEASED_IN_REQUEST is built by a job).
    expect(cut).toEqual({ id: expect.any(String), name: "v1", status: "READY", records: 4, excluded: 4, revised: 1 });
    const out = join(folder, "v1");
    const { files } = await writeReleaseFolder({ actor: admin, datasetName: dataset, name: "v1", outDir: out });
    expect(files.map((file) => file.path).sort()).toEqual([
      "README.md",
      "data.jsonl",
      "excluded.jsonl",
      "manifest.json",
    ]);

    const data = readLines(join(out, "data.jsonl"));
    expect(data.map((line) => line.index)).toEqual([0, 1, 2, 6]);
    const repaired = data.find((line) => line.index === 2)!;
    expect(repaired.full_test_func).toBe(FIXED_TEST);
    expect(repaired.verification).toMatchObject({ revision: 2, revised: true, rule: "accepted-repair" });
    expect(data.find((line) => line.index === 0)!.verification).toMatchObject({ revision: 1, revised: false });

    const excluded = readLines(join(out, "excluded.jsonl"));
    const keyOf = new Map(
      (await prisma().record.findMany({ where: { id: { in: recordIds } }, select: { id: true, key: true } })).map(
        (r) => [r.key, r.id],
      ),
    );
    const why = Object.fromEntries(
      excluded.map((line) => [recordIds.indexOf(keyOf.get(line.record_key as string)!), line]),
    );
    expect(Object.keys(why).map(Number).sort()).toEqual([3, 4, 5, 7]);
    expect(why[3]).toMatchObject({ label: "unresolved", rule: "unresolved" });
    expect(why[4]).toMatchObject({
      label: "invalid",
      rule: "final-label-invalid",
      categories: ["wrong-expected-output"],
    });
    expect(why[5]).toMatchObject({ label: "unlabelled", rule: "unlabelled" });
    // The rejected repair left record 4 at its import.
    expect(why[4].revision).toBe(1);

    // The manifest holds the sha256 of every other file.
    const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as {
      files: { path: string; bytes: number; sha256: string }[];
    };
    for (const file of manifest.files) {
      const bytes = readFileSync(join(out, file.path));
      expect(file).toEqual({
        path: file.path,
        bytes: bytes.length,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      });
    }
    expect(manifest.files.map((file) => file.path)).toEqual(["README.md", "data.jsonl", "excluded.jsonl"]);

    const card = readFileSync(join(out, "README.md"), "utf8");
    expect(card).toMatch(/^---\n[\s\S]*configs:[\s\S]*size_categories:\n {2}- n<1K\n[\s\S]*---\n/);
    expect(card).toContain("1 record is included at a revision after its import");
    expect(card).toContain(
      "Saw the critic before labelling**: no — each of the 14 labels was given before its author was shown",
    );
    expect(card).toContain("1 revision accepted, 1 rejected, 0 waiting");
  });

  it("refuse a name the dataset has", async () => {
    await expect(cutRelease({ actor: admin, datasetName: dataset, name: "v1" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });

  it("build the same bytes twice, folder and archive", async () => {
    const first = join(folder, "v1-a");
    const second = join(folder, "v1-b");
    await writeReleaseFolder({ actor: admin, datasetName: dataset, name: "v1", outDir: first });
    await writeReleaseFolder({ actor: admin, datasetName: dataset, name: "v1", outDir: second });
    expect(folderBytes(second)).toEqual(folderBytes(first));
    const archive = async () =>
      buffer((await releaseArchive({ actor: admin, datasetName: dataset, name: "v1" })).stream);
    const [a, b] = [await archive(), await archive()];
    expect(a.length).toBeGreaterThan(100);
    expect(a.equals(b)).toBe(true);
    // It is a real gzipped tar of the four files under one folder.
    const path = join(folder, "v1.tar.gz");
    await import("node:fs/promises").then((fs) => fs.writeFile(path, a));
    const { stdout } = await run("tar", ["-tzf", path]);
    expect(stdout.trim().split("\n").sort()).toEqual(
      [
        `${dataset}-v1/`,
        ...["README.md", "data.jsonl", "excluded.jsonl", "manifest.json"].map((f) => `${dataset}-v1/${f}`),
      ].sort(),
    );
  });

  it("keep a release as it was after later labels and repairs; the diff names what changed", async () => {
    const before = folderBytes(join(folder, "v1"));
    // Record 3 becomes valid (its second label is revised), record 6 is repaired.
    await label(annotators[1], itemIds[3], true);
    const repair = await proposeRevision({
      actor: annotators[1],
      recordId: recordIds[6],
      input: { demo_test_func: "# six\n", reason: "comment", categories: ["other"] },
    });
    await checkRevision({ actor: annotators[0], revisionId: repair.id, input: { valid: true, categories: [] } });
    const again = join(folder, "v1-after");
    await writeReleaseFolder({ actor: admin, datasetName: dataset, name: "v1", outDir: again });
    expect(folderBytes(again)).toEqual(before);

    const cut = await cutRelease({ actor: admin, datasetName: dataset, name: "v2" });
    expect(cut).toMatchObject({ records: 5, revised: 2 });
    const diff = await diffNamedReleases({ actor: admin, datasetName: dataset, a: "v1", b: "v2" });
    const keys = new Map(
      (await prisma().record.findMany({ where: { id: { in: recordIds } }, select: { id: true, key: true } })).map(
        (r) => [r.id, r.key],
      ),
    );
    expect(diff.added.map((record) => record.key)).toEqual([keys.get(recordIds[3])]);
    expect(diff.removed).toEqual([]);
    expect(diff.revised).toEqual([
      expect.objectContaining({ key: keys.get(recordIds[6]), fromRevision: 1, revision: 2 }),
    ]);
  });

  it("show in the card a validity table equal to one recomputed here from the labels given", async () => {
    // v1's labels, counted by hand under consensus: an item is resolved when its labels agree.
    const z = 1.959963984540054;
    const wilson = (valid: number, n: number) => {
      const p = valid / n;
      const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
      const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
      return [Math.max(0, centre - half), Math.min(1, centre + half)];
    };
    const expected = (language: string) => {
      const resolved = PLAN.filter(
        (plan) => plan.language === language && plan.labels.length > 0 && new Set(plan.labels).size === 1,
      );
      const valid = resolved.filter((plan) => plan.labels[0]).length;
      const [low, high] = wilson(valid, resolved.length);
      return `${((100 * valid) / resolved.length).toFixed(1)}% [${(100 * low).toFixed(1)}, ${(100 * high).toFixed(1)}] | n = ${resolved.length} |`;
    };
    const card = readFileSync(join(folder, "v1", "README.md"), "utf8");
    // Python: records 0, 1 valid, 2 and 4 invalid (3 unresolved, 5 unlabelled): 2 of 4. C++: 1 of 2.
    expect(expected("python")).toMatch(/^50\.0% \[/);
    expect(card).toContain(`| Python | ${expected("python")}`);
    expect(card).toContain(`| C++ | ${expected("cpp")}`);
  });

  // Each CLI start takes seconds on a loaded machine (it loads the app's TypeScript).
  it("are cut, exported and diffed by the CLI, each ending with one JSON line", async () => {
    const cli = (...args: string[]) =>
      run(process.execPath, ["scripts/verity.mjs", "release", ...args], { env: process.env });
    const out = join(folder, "cli-v3");
    const created = await cli("create", "--dataset", dataset, "--name", "v3", "--out", out, "--json");
    const line = JSON.parse(created.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
    expect(line).toEqual({ name: "v3", records: 5, excluded: 3, revised: 2, path: out });
    expect(readdirSync(out).sort()).toEqual(["README.md", "data.jsonl", "excluded.jsonl", "manifest.json"]);
    await expect(cli("create", "--dataset", dataset, "--name", "v3", "--json")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("already"),
    });
    const exported = join(folder, "cli-v1");
    await cli("export", "--dataset", dataset, "--name", "v1", "--out", exported);
    expect(folderBytes(exported)).toEqual(folderBytes(join(folder, "v1")));
    const diff = await cli("diff", "--dataset", dataset, "v2", "v3", "--json");
    expect(JSON.parse(diff.stdout.trim().split("\n").at(-1)!)).toEqual({
      a: "v2",
      b: "v3",
      added: [],
      removed: [],
      revised: [],
    });
  }, 300_000);

  it("answer over REST what the API catalog says: cut, list, read, download and diff", async () => {
    const token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "releases" })).token;
    const request = (method: string, query = "", body?: unknown) =>
      new Request(`http://localhost/api/v1/x${query}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const params = (release?: string) => ({ params: Promise.resolve({ name: dataset, release: release ?? "" }) });

    const created = await postRelease(request("POST", "", { name: "rest-v1" }), params());
    expect(created.status).toBe(201);
    expect(await readResponse(created, "POST", "/datasets/{name}/releases")).toEqual({
      name: "rest-v1",
      status: "READY",
      records: expect.any(Number),
      excluded: expect.any(Number),
      revised: expect.any(Number),
    });
    const again = await postRelease(request("POST", "", { name: "rest-v1" }), params());
    expect(again.status).toBe(409);

    const listed = (await readResponse(
      await getReleases(request("GET", "?limit=200"), params()),
      "GET",
      "/datasets/{name}/releases",
    )) as { releases: { name: string }[] };
    expect(listed.releases[0].name).toBe("rest-v1");
    expect(listed.releases.map((release) => release.name)).toContain("v1");

    const release = (await readResponse(
      await getRelease(request("GET"), params("rest-v1")),
      "GET",
      "/datasets/{name}/releases/{release}",
    )) as { revised: number; disclosure: { revisions: { accepted: number } } };
    expect(release.revised).toBeGreaterThan(0);
    expect(release.disclosure.revisions.accepted).toBeGreaterThan(0);

    const archive = (await readResponse(
      await getReleaseArchive(request("GET"), params("rest-v1")),
      "GET",
      "/datasets/{name}/releases/{release}/archive",
    )) as Buffer;
    expect([...archive.subarray(0, 2)]).toEqual([0x1f, 0x8b]); // gzip's magic number

    const diff = (await readResponse(
      await getReleaseDiff(request("GET", "?from=v1"), params("rest-v1")),
      "GET",
      "/datasets/{name}/releases/{release}/diff",
    )) as { a: string; b: string };
    expect(diff).toMatchObject({ a: "v1", b: "rest-v1" });
  });

  // Last: it adds a campaign to the dataset the tests above share.
  it("count only randomly sampled campaigns in the card's rates and name the suspicion-ordered ones left out", async () => {
    const cleaning = await createCampaign({
      actor: admin,
      input: {
        dataset,
        name: uniqueName("cleaning"),
        sampling: "suspicion",
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const [item] = await prisma().campaignItem.findMany({
      where: { campaignId: cleaning.id, language: "cpp" },
      select: { id: true },
      take: 1,
    });
    await label(annotators[0], item.id, false);
    await cutRelease({ actor: admin, datasetName: dataset, name: "after-cleaning" });
    const out = join(folder, "after-cleaning");
    const { summary } = await writeReleaseFolder({
      actor: admin,
      datasetName: dataset,
      name: "after-cleaning",
      outDir: out,
    });
    const randomCampaigns = (
      await prisma().campaign.findMany({
        where: { dataset: { name: dataset }, sampling: "RANDOM" },
        select: { name: true },
      })
    ).map((campaign) => campaign.name);
    expect(summary.validity.campaigns).toEqual(randomCampaigns);
    expect(summary.validity.leftOut).toEqual({ campaigns: [cleaning.name], labelledItems: 1 });
    const card = readFileSync(join(out, "README.md"), "utf8");
    expect(card).toContain(`over the campaigns ${randomCampaigns.join(", ")}.`);
    expect(card).toContain(`Left out of these rates: ${cleaning.name} (1 labelled item)`);
  });
});

describe("gold records in a release", () => {
  it("are in or out by their known verdict, not left out as unlabelled", async () => {
    const { setGoldAnswer } = await import("@/lib/server/gold/gold");
    const name = uniqueName("gold-release");
    const tag = name.replaceAll("-", "_");
    await importRecords({
      actor: admin,
      datasetName: name,
      source: chunks(
        toJsonl(
          ["gv", "gi", "s"].map((kind) => ({
            question: `Write \`f_${kind}_${tag}(x)\` in Python returning x.`,
            canonical_solution: `def f_${kind}_${tag}(x):\n    return x\n`,
            demo_test_func: `assert f_${kind}_${tag}(1) == 1\n`,
            full_test_func: `assert f_${kind}_${tag}(2) == 2\n`,
            language: "python",
          })),
        ),
      ),
      skipInvalid: false,
      origin: "api",
    });
    const [goldValid, goldInvalid, sample] = await prisma().record.findMany({
      where: { dataset: { name } },
      orderBy: { line: "asc" },
      select: { id: true },
    });
    await setGoldAnswer({ actor: admin, recordId: goldValid.id, answer: { valid: true, categories: [], note: null } });
    await setGoldAnswer({
      actor: admin,
      recordId: goldInvalid.id,
      answer: { valid: false, categories: ["name-mismatch"], note: null },
    });
    const campaign = await createCampaign({
      actor: admin,
      input: {
        dataset: name,
        name: uniqueName("gold-release"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const [item] = await prisma().campaignItem.findMany({ where: { campaignId: campaign.id }, select: { id: true } });
    await label(annotators[0], item.id, true);

    const release = uniqueName("v");
    await cutRelease({ actor: admin, datasetName: name, name: release });
    const entries = await prisma().releaseEntry.findMany({
      where: { release: { name: release, dataset: { name } } },
      select: { recordId: true, included: true, reason: true },
    });
    const entryOf = (recordId: number) => entries.find((entry) => entry.recordId === recordId)!;
    expect(entryOf(sample.id)).toMatchObject({ included: true, reason: { rule: "final-label-valid" } });
    expect(entryOf(goldValid.id)).toMatchObject({
      included: true,
      reason: { label: "valid", decided_by: "gold", rule: "gold-answer-valid" },
    });
    expect(entryOf(goldInvalid.id)).toMatchObject({
      included: false,
      reason: { label: "invalid", decided_by: "gold", categories: ["name-mismatch"], rule: "gold-answer-invalid" },
    });
  });
});
