// Repairs run code on the same budget as interactive runs, on a real PostgreSQL and the real sandbox:
// a proposal's runs count against its author's runs at once, its time-out is judged again in one
// sandbox slot rather than all of them, and a person's repairs waiting for their check are capped.
import { existsSync } from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type Actor } from "@/lib/server/auth/permissions";
import { createCampaign } from "@/lib/server/campaigns/campaigns";
import { config } from "@/lib/server/config";
import { prisma } from "@/lib/server/db/client";
import { importRecords } from "@/lib/server/imports/imports";
import { admitRun } from "@/lib/server/runs/run-leases";
import { getSandboxRouter } from "@/lib/server/sandbox";
import { stopBoss } from "@/lib/server/workers/boss";
import { chunks, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";
import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import { proposeRecordRevision } from "./propose-revision";

const hasBwrap = !skipWithoutSandbox(existsSync("/usr/bin/bwrap") ? null : "bubblewrap is not installed");

let admin: Actor;
let recordIds: number[];

/** A python record per seed whose tests pass. */
function sumRecord(seed: string) {
  return {
    question: `Write \`add(a, b)\` in Python returning a + b (${seed}).`,
    canonical_solution: "def add(a, b):\n    return a + b\n",
    demo_test_func: "assert add(1, 2) == 3\n",
    full_test_func: "assert add(2, 2) == 4\n",
    language: "python",
  };
}

const repair = (n: number) => ({
  full_test_func: `assert add(2, 2) == 4\nassert add(${n}, 1) == ${n + 1}\n`,
  reason: "One more case.",
  categories: ["other"],
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
  );

const openProposals = (recordId: number) => prisma().recordRevision.count({ where: { recordId, status: "PROPOSED" } });

afterAll(() => stopBoss(1_000));

beforeAll(async () => {
  admin = await makeUser("ADMIN");
  const dataset = uniqueName("repair-budget");
  const count = config().openRepairsPerUser + 4;
  await importRecords({
    actor: admin,
    datasetName: dataset,
    source: chunks(toJsonl(Array.from({ length: count }, (_, n) => sumRecord(`${dataset}-${n}`)))),
    skipInvalid: false,
    origin: "api",
  });
  // Annotators repair the records of campaigns in their languages.
  await createCampaign({
    actor: admin,
    input: {
      dataset,
      name: uniqueName("repair-budget"),
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  const records = await prisma().record.findMany({
    where: { dataset: { name: dataset } },
    orderBy: { id: "asc" },
    select: { id: true },
  });
  recordIds = records.map((record) => record.id);
});

describe.runIf(hasBwrap)("repairs and the run budget", () => {
  it("refuse a proposal while its author has their runs at once going, and store nothing", async () => {
    const author = await makeUser("ANNOTATOR", ["python"]);
    const { runsPerUser, concurrency, runQueue } = getSandboxRouter().config;
    const limits = { perUser: runsPerUser, perInstance: concurrency + runQueue };
    const held = [];
    for (let n = 0; n < runsPerUser; n++) held.push(await admitRun({ userId: author.id, limits }));
    const [recordId] = recordIds;
    expect(await refusal(proposeRecordRevision({ actor: author, recordId, input: repair(1) }))).toMatch(
      /^RATE_LIMITED: You already have \d+ runs? going/,
    );
    expect(await openProposals(recordId)).toBe(0);
    for (const release of held) await release();
    const proposed = await proposeRecordRevision({ actor: author, recordId, input: repair(1) });
    expect(proposed.evidence).toMatchObject({ demoOutcome: "PASSED", fullOutcome: "PASSED" });
  });

  it("judge a proposal's time-out again in one sandbox slot, not with every slot held", async () => {
    const author = await makeUser("ANNOTATOR", ["python"]);
    const local = getSandboxRouter().local;
    expect(local.load().slots).toBeGreaterThan(1);
    let mostHeld = 0;
    const watch = setInterval(() => (mostHeld = Math.max(mostHeld, local.load().running)), 50);
    try {
      const proposed = await proposeRecordRevision({
        actor: author,
        recordId: recordIds[1],
        input: { full_test_func: "while True:\n    pass\n", reason: "Spins.", categories: ["other"] },
      });
      expect(proposed.evidence.demoOutcome).toBe("PASSED");
      expect(proposed.evidence.fullOutcome).not.toBe("PASSED");
    } finally {
      clearInterval(watch);
    }
    // Today's rule held every slot for the second try (six such proposals held the sandbox 218 s).
    expect(mostHeld).toBe(1);
  });

  it("cap the repairs one person has waiting for their check", async () => {
    const author = await makeUser("ANNOTATOR", ["python"]);
    const cap = config().openRepairsPerUser;
    const [first, ...others] = recordIds.slice(2, 2 + cap + 1);
    for (const [n, recordId] of [first, ...others.slice(0, cap - 1)].entries())
      await proposeRecordRevision({ actor: author, recordId, input: repair(n + 10) });
    const over = others[cap - 1];
    expect(await refusal(proposeRecordRevision({ actor: author, recordId: over, input: repair(99) }))).toMatch(
      new RegExp(`^CONFLICT: You have ${cap} repairs waiting for their check`),
    );
    expect(await openProposals(over)).toBe(0);
    // Someone else may still repair the record.
    const other = await makeUser("ANNOTATOR", ["python"]);
    await proposeRecordRevision({ actor: other, recordId: over, input: repair(99) });
    expect(await openProposals(over)).toBe(1);
  });
});
