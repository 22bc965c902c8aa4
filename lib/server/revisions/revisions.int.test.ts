// Record revisions and their blind second check, on a real PostgreSQL (and the real sandbox for the
// evidence): the author cannot accept their own repair, the checker sees neither reason nor label
// (through the data functions and the REST answers), labels carry the revision they were given on,
// and the evidence is recomputed on the revised content.
import { existsSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { GET as getRecordRevisions, POST as postRecordRevision } from "@/app/api/v1/records/[id]/revisions/route";
import { GET as getRepairs } from "@/app/api/v1/repairs/route";
import { POST as postCheck } from "@/app/api/v1/revisions/[id]/check/route";
import { GET as getRevision } from "@/app/api/v1/revisions/[id]/route";
import { type Actor, SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/create-campaign";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { submitAnnotation } from "@/lib/server/labelling/submit-annotation";
import { createApiToken } from "@/lib/server/users/tokens";
import { stopBoss } from "@/lib/server/workers/boss";
import { expectResponse, readResponse } from "@/lib/testing/api-response";
import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";
import { chunks, holdItem, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

import { proposeRecordRevision } from "./propose-revision";
import { checkRevision, getRevisionToCheck, listRecordRevisions, listRepairs, proposeRevision } from "./queries";

// Skipped without bubblewrap, except in CI, where that fails the run.
const hasBwrap = !skipWithoutSandbox(existsSync("/usr/bin/bwrap") ? null : "bubblewrap is not installed");

const REASON = "fact(5) is 120: the expected value 121 encodes a bug";
const WRONG_TEST = "def test():\n    assert fact(4) == 24\n    assert fact(5) == 121\n\ntest()\n";

/** A factorial record whose full test expects fact(5) == 121. */
function factorialRecord(seed: string) {
  return {
    question: `Write \`fact(n)\` in Python returning n! (${seed}).`,
    canonical_solution: "def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\n",
    demo_test_func: "def test():\n    assert fact(3) == 6\n\ntest()\n",
    full_test_func: WRONG_TEST,
    language: "python",
  };
}

let admin: Actor;
let author: Actor;
let checker: Actor;
let outsider: Actor;
let dataset: string;
let itemIds: Map<number, string>;
let recordIds: number[];

const tokenOf = async (actor: Actor) =>
  (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: actor.id, name: "revisions" })).token;

function call(token: string, method: string, path: string, body?: unknown): Request {
  return new Request(`http://localhost/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

// An accepted repair queues its evidence, which starts this process's pg-boss.
afterAll(() => stopBoss(1_000));

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  author = await makeUser("ANNOTATOR", ["python"]);
  checker = await makeUser("ANNOTATOR", ["python"]);
  outsider = await makeUser("ANNOTATOR", ["cpp"]);
  dataset = uniqueName("revisions");
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl([0, 1, 2, 3, 4].map((n) => factorialRecord(`${dataset}-${n}`)))),
    skipInvalid: false,
    origin: "api",
  });
  const campaign = await createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("revisions"),
      overlap: 2,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  const items = await prisma().campaignItem.findMany({
    where: { campaignId: campaign.id },
    orderBy: { recordId: "asc" },
    select: { id: true, recordId: true },
  });
  itemIds = new Map(items.map((item) => [item.recordId, item.id]));
  recordIds = items.map((item) => item.recordId);
});

async function label(
  actor: Actor,
  recordId: number,
  valid: boolean,
  note: string | null = null,
  itemId = itemIds.get(recordId)!,
) {
  const held = await prisma().assignment.findUnique({ where: { itemId_userId: { itemId, userId: actor.id } } });
  if (!held) await holdItem({ userId: actor.id, itemId });
  return submitAnnotation({
    actor,
    itemId,
    input: {
      valid,
      categories: valid ? [] : ["wrong-expected-output"],
      note,
      needsReview: false,
      activeMs: 1000,
    },
  });
}

const fix = { full_test_func: WRONG_TEST.replace("121", "120"), reason: REASON, categories: ["wrong-expected-output"] };

describe("record revisions", () => {
  it("number the import as revision 1 and a repair as 2, and show the repair as a diff", async () => {
    const recordId = recordIds[0];
    const before = await listRecordRevisions({ actor: author, recordId });
    expect(before.current).toBe(1);
    expect(before.revisions.map((revision) => [revision.number, revision.status])).toEqual([[1, "ORIGINAL"]]);

    const proposed = await proposeRevision({ actor: author, recordId, input: fix });
    expect(proposed).toMatchObject({ number: 2, changedFields: ["full_test_func"] });
    const after = await listRecordRevisions({ actor: author, recordId });
    expect(after.current).toBe(1);
    expect(after.revisions.map((revision) => [revision.number, revision.status])).toEqual([
      [2, "PROPOSED"],
      [1, "ORIGINAL"],
    ]);
    expect(after.revisions[0].diffs).toEqual([
      {
        field: "full_test_func",
        diff: expect.stringContaining("-    assert fact(5) == 121\n+    assert fact(5) == 120"),
      },
    ]);
    // The author reads their own rationale.
    expect(after.revisions[0]).toMatchObject({ reason: REASON, categories: ["wrong-expected-output"] });
    // Revision 1 keeps the imported text while the repair waits.
    const original = await prisma().recordRevision.findUniqueOrThrow({
      where: { recordId_number: { recordId, number: 1 } },
    });
    expect(original.fullTestFunc).toBe(WRONG_TEST);
    const audit = await prisma().auditEvent.findFirst({
      where: { action: "revision.propose", targetType: "Record", targetId: String(recordId) },
    });
    expect(audit?.actorId).toBe(author.id);
  });

  it("refuse a second proposal while one waits, a proposal that changes nothing, and annotators of other languages", async () => {
    const recordId = recordIds[0];
    await expect(proposeRevision({ actor: checker, recordId, input: fix })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(
      proposeRevision({
        actor: author,
        recordId: recordIds[1],
        input: { full_test_func: WRONG_TEST, reason: "same", categories: ["other"] },
      }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(proposeRevision({ actor: outsider, recordId: recordIds[1], input: fix })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("keep the author from checking their own repair, in the queue, the check view and the check itself", async () => {
    const recordId = recordIds[0];
    const revision = await prisma().recordRevision.findFirstOrThrow({ where: { recordId, status: "PROPOSED" } });
    const own = await listRepairs({ actor: author });
    expect(own.repairs.map((repair) => repair.id)).not.toContain(revision.id);
    await expect(getRevisionToCheck({ actor: author, revisionId: revision.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(
      checkRevision({ actor: author, revisionId: revision.id, input: { valid: true, categories: [] } }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const token = await tokenOf(author);
    const response = await postCheck(call(token, "POST", `/revisions/${revision.id}/check`, { valid: true }), {
      params: Promise.resolve({ id: revision.id }),
    });
    expect(response.status).toBe(403);
    expect((await prisma().recordRevision.findUniqueOrThrow({ where: { id: revision.id } })).status).toBe("PROPOSED");
    // An admin who is not the author is no exception to the rule the other way round: they may check.
    expect((await listRepairs({ actor: admin })).repairs.map((repair) => repair.id)).toContain(revision.id);
  });

  it("show the checker the revised record without its author's reason, categories, name or label (data and REST)", async () => {
    const recordId = recordIds[2];
    // The author labelled the record invalid, with a note, before repairing it.
    await label(author, recordId, false, "the 121 in the full test is wrong");
    const proposed = await proposeRevision({ actor: author, recordId, input: fix });
    const secrets = [REASON, "the 121 in the full test is wrong", author.email, author.id, "wrong-expected-output"];

    const queue = await listRepairs({ actor: checker });
    const entry = queue.repairs.find((repair) => repair.id === proposed.id);
    expect(entry).toMatchObject({ recordId, number: 2, language: "python" });
    const view = await getRevisionToCheck({ actor: checker, revisionId: proposed.id });
    expect(view.content.full_test_func).toContain("fact(5) == 120");
    const history = await listRecordRevisions({ actor: checker, recordId });
    expect(history.revisions[0]).toMatchObject({
      reason: null,
      categories: null,
      author: null,
      isRationaleHidden: true,
    });

    const token = await tokenOf(checker);
    const answers = [
      {
        path: "/repairs",
        answer: await getRepairs(call(token, "GET", "/repairs?limit=200"), { params: Promise.resolve({}) }),
      },
      {
        path: "/revisions/{id}",
        answer: await getRevision(call(token, "GET", `/revisions/${proposed.id}`), {
          params: Promise.resolve({ id: proposed.id }),
        }),
      },
      {
        path: "/records/{id}/revisions",
        answer: await getRecordRevisions(call(token, "GET", `/records/${recordId}/revisions`), {
          params: Promise.resolve({ id: String(recordId) }),
        }),
      },
    ];
    for (const { path, answer } of answers) {
      expect(answer.status).toBe(200);
      const text = await answer.text();
      // What the catalog promises, and no field more (a leaked one would fail the strict schema).
      expectResponse("GET", path, JSON.parse(text));
      // Each answer is about this repair (the queue lists it, the others describe it).
      expect(text).toMatch(new RegExp(`${proposed.id}|fact\\(5\\) == 120`));
      for (const secret of secrets) expect(text, `${answer.url} leaks "${secret}"`).not.toContain(secret);
    }
    // The same REST answer gives the author their rationale.
    const mine = await getRecordRevisions(call(await tokenOf(author), "GET", `/records/${recordId}/revisions`), {
      params: Promise.resolve({ id: String(recordId) }),
    });
    expect(await mine.text()).toContain(REASON);
  });

  it("accept a repair checked valid by someone else: the record's content and revision follow, labels carry their revision", async () => {
    const recordId = recordIds[2];
    const revision = await prisma().recordRevision.findFirstOrThrow({ where: { recordId, status: "PROPOSED" } });
    const token = await tokenOf(checker);
    const response = await postCheck(
      call(token, "POST", `/revisions/${revision.id}/check`, { valid: true, categories: [] }),
      { params: Promise.resolve({ id: revision.id }) },
    );
    expect(response.status).toBe(200);
    expect(await readResponse(response, "POST", "/revisions/{id}/check")).toMatchObject({
      status: "ACCEPTED",
      number: 2,
    });
    const record = await prisma().record.findUniqueOrThrow({ where: { id: recordId } });
    expect(record).toMatchObject({ revision: 2, fullTestFunc: fix.full_test_func });
    // Checked once: a second check is a conflict.
    await expect(
      checkRevision({ actor: admin, revisionId: revision.id, input: { valid: false, categories: ["other"] } }),
    ).rejects.toMatchObject({ code: "CONFLICT" });

    // The author's label was given on revision 1; the checker's first label now is on revision 2.
    await label(checker, recordId, true);
    const labels = await prisma().annotation.findMany({
      where: { itemId: itemIds.get(recordId)! },
      select: { userId: true, recordRevision: true },
    });
    expect(new Map(labels.map((row) => [row.userId, row.recordRevision]))).toEqual(
      new Map([
        [author.id, 1],
        [checker.id, 2],
      ]),
    );
    // The author revising their label now gives it on revision 2.
    await label(author, recordId, true);
    const revised = await prisma().annotation.findUniqueOrThrow({
      where: { itemId_userId: { itemId: itemIds.get(recordId)!, userId: author.id } },
    });
    expect(revised.recordRevision).toBe(2);
    const history = await listRecordRevisions({ actor: author, recordId });
    expect(history.revisions[0]).toMatchObject({
      status: "ACCEPTED",
      isRationaleHidden: false,
      check: { valid: true, checker: expect.stringContaining(checker.email) },
    });
    // Once checked, everyone who sees the record reads why it was repaired.
    expect((await listRecordRevisions({ actor: checker, recordId })).revisions[0].reason).toBe(REASON);
    expect(
      await prisma().auditEvent.count({
        where: { action: "revision.accept", targetId: String(recordId), actorId: checker.id },
      }),
    ).toBe(1);
  });

  it("keep a rejected repair in the history and leave the record as it was", async () => {
    const recordId = recordIds[3];
    const proposed = await proposeRevision({
      actor: author,
      recordId,
      input: { question: "A different statement.", reason: "rewording", categories: ["statement-ambiguous"] },
    });
    await checkRevision({
      actor: checker,
      revisionId: proposed.id,
      input: { valid: false, categories: ["statement-incomplete"], note: "now says nothing of fact" },
    });
    const record = await prisma().record.findUniqueOrThrow({ where: { id: recordId } });
    expect(record.revision).toBe(1);
    expect(record.question).not.toBe("A different statement.");
    const history = await listRecordRevisions({ actor: admin, recordId });
    expect(history.revisions.map((revision) => [revision.number, revision.status])).toEqual([
      [2, "REJECTED"],
      [1, "ORIGINAL"],
    ]);
    // Another repair may follow, numbered after the rejected one, from the record's revision.
    const next = await proposeRevision({ actor: checker, recordId, input: fix });
    expect(next.number).toBe(3);
    expect((await prisma().recordRevision.findUniqueOrThrow({ where: { id: next.id } })).baseNumber).toBe(1);
  });

  it.skipIf(!hasBwrap)(
    "recompute the evidence on the revised content, and make it the record's once accepted (needs bubblewrap: npm run sandbox:install)",
    async () => {
      const recordId = recordIds[4];
      const token = await tokenOf(author);
      const response = await postRecordRevision(call(token, "POST", `/records/${recordId}/revisions`, fix), {
        params: Promise.resolve({ id: String(recordId) }),
      });
      expect(response.status).toBe(201);
      const proposed = (await readResponse(response, "POST", "/records/{id}/revisions")) as {
        id: string;
        evidence: { demoOutcome: string; fullOutcome: string };
      };
      expect(proposed.evidence).toMatchObject({ demoOutcome: "PASSED", fullOutcome: "PASSED" });
      // The record itself is not touched until the check: its stored verification still stands.
      expect((await prisma().record.findUniqueOrThrow({ where: { id: recordId } })).executableValid).toBeNull();
      // The original fails its full test, as the repaired one does not.
      const original = await originalFullTestOutcome(recordId);
      expect(original).not.toBe("PASSED");

      await checkRevision({ actor: checker, revisionId: proposed.id, input: { valid: true, categories: [] } });
      const record = await prisma().record.findUniqueOrThrow({ where: { id: recordId } });
      expect(record).toMatchObject({ revision: 2, executableValid: true, verificationOutcome: "PASSED" });
      expect(record.verifiedAt).not.toBeNull();
    },
  );

  it("refuse a bad body with 422 and an unknown record with 404 over REST", async () => {
    const token = await tokenOf(author);
    const bad = await postRecordRevision(call(token, "POST", `/records/${recordIds[1]}/revisions`, { reason: "" }), {
      params: Promise.resolve({ id: String(recordIds[1]) }),
    });
    expect(bad.status).toBe(422);
    const missing = await postRecordRevision(call(token, "POST", "/records/2147483000/revisions", fix), {
      params: Promise.resolve({ id: "2147483000" }),
    });
    expect(missing.status).toBe(404);
  });
});

describe("the history before a first label in a blind campaign", () => {
  it("hides other people's reasons, categories, verdicts, notes and names until the reader's first label (data and REST)", async () => {
    const name = uniqueName("rev-blind");
    await importRecords({
      actor: admin,
      datasetName: name,
      source: chunks(toJsonl([0, 1].map((n) => factorialRecord(`${name}-${n}`)))),
      skipInvalid: false,
      origin: "api",
    });
    const [accepted, rejected] = await prisma().record.findMany({
      where: { dataset: { name } },
      orderBy: { line: "asc" },
      select: { id: true },
    });
    // An open campaign first lets the annotators see the dataset; one repair accepted and one
    // rejected, each checked with a note, before the blind campaigns.
    await createCampaign({
      actor: admin,
      input: {
        dataset: name,
        name: uniqueName("rev-open"),
        overlap: 1,
        agreementFraction: 0,
        blind: false,
        finalRule: "consensus",
        leaseMinutes: 30,
      },
    });
    const CHECK_NOTE = "checked: 120 is fact(5)";
    const REJECT_NOTE = "the old statement was fine";
    const first = await proposeRevision({ actor: author, recordId: accepted.id, input: fix });
    await checkRevision({
      actor: checker,
      revisionId: first.id,
      input: { valid: true, categories: [], note: CHECK_NOTE },
    });
    const second = await proposeRevision({
      actor: author,
      recordId: rejected.id,
      input: { question: "A reworded statement.", reason: "rewording", categories: ["statement-ambiguous"] },
    });
    await checkRevision({
      actor: checker,
      revisionId: second.id,
      input: { valid: false, categories: ["statement-incomplete"], note: REJECT_NOTE },
    });
    for (const visibility of ["nothing", "all-but-critic"] as const) {
      const campaign = await createCampaign({
        actor: admin,
        input: {
          dataset: name,
          name: uniqueName(`rev-${visibility}`),
          visibility,
          overlap: 1,
          agreementFraction: 0,
          blind: true,
          finalRule: "consensus",
          leaseMinutes: 30,
        },
      });
      const reader = await makeUser("ANNOTATOR", ["python"]);
      const items = await prisma().campaignItem.findMany({
        where: { campaignId: campaign.id },
        select: { id: true, recordId: true },
      });
      for (const item of items) await holdItem({ userId: reader.id, itemId: item.id });
      const secrets = [
        REASON,
        "rewording",
        CHECK_NOTE,
        REJECT_NOTE,
        author.email,
        checker.email,
        "wrong-expected-output",
        "statement-ambiguous",
        "statement-incomplete",
      ];
      const token = await tokenOf(reader);
      for (const { id: recordId } of [accepted, rejected]) {
        const history = await listRecordRevisions({ actor: reader, recordId });
        const answer = await getRecordRevisions(call(token, "GET", `/records/${recordId}/revisions`), {
          params: Promise.resolve({ id: String(recordId) }),
        });
        expect(answer.status).toBe(200);
        const body = await readResponse(answer, "GET", "/records/{id}/revisions");
        for (const text of [JSON.stringify(history), JSON.stringify(body)])
          for (const secret of secrets) expect(text, `${visibility}: leaks "${secret}"`).not.toContain(secret);
        for (const revision of history.revisions) {
          expect(revision.check, `${visibility}: a check's verdict`).toBeNull();
          // A rejected repair's status is its checker's verdict.
          expect(revision.status, `${visibility}: a rejected repair`).not.toBe("REJECTED");
        }
      }
      // The accepted repair is the record's content: its diff stays, without who or why.
      const shown = await listRecordRevisions({ actor: reader, recordId: accepted.id });
      expect(shown.areJudgementsHidden).toBe(true);
      expect(shown.revisions.map((revision) => [revision.number, revision.status])).toEqual([
        [2, "ACCEPTED"],
        [1, "ORIGINAL"],
      ]);
      expect(shown.revisions[0]).toMatchObject({
        author: null,
        reason: null,
        categories: null,
        isRationaleHidden: true,
      });

      // After their first label on the record's items (each blind campaign so far holds it), the
      // reader sees the history as everyone does.
      for (const item of await prisma().campaignItem.findMany({
        where: { recordId: accepted.id, campaign: { blind: true } },
        select: { id: true },
      })) {
        await label(reader, accepted.id, true, null, item.id);
      }
      const after = await listRecordRevisions({ actor: reader, recordId: accepted.id });
      expect(after.areJudgementsHidden).toBe(false);
      expect(after.revisions[0]).toMatchObject({
        reason: REASON,
        check: { valid: true, note: CHECK_NOTE, checker: expect.stringContaining(checker.email) },
      });
    }
  });
});

/**
 * The original content's full-test outcome, recomputed the same way through a rejected repair of an
 * identical twin record: the evidence path is the one under test, run on the unrepaired test.
 */
async function originalFullTestOutcome(recordId: number): Promise<string> {
  const twin = uniqueName("twin");
  const source = await prisma().record.findUniqueOrThrow({ where: { id: recordId } });
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(
      toJsonl([{ ...factorialRecord(twin), full_test_func: "def test():\n    assert fact(2) == 2\n\ntest()\n" }]),
    ),
    skipInvalid: false,
    origin: "api",
  });
  const twinRecord = await prisma().record.findFirstOrThrow({
    where: { datasetId: source.datasetId, question: { contains: twin } },
  });
  const proposed = await proposeRecordRevision({
    actor: admin,
    recordId: twinRecord.id,
    input: { full_test_func: WRONG_TEST, reason: "probe", categories: ["other"] },
  });
  return proposed.evidence.fullOutcome;
}
