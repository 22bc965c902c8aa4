// Where a claim's time goes on the server, without HTTP: the claim transaction, the work item the
// claim route then reads, and the submit, called in-process one after the other by one annotator
// (medians after 10 warm-up rounds); then what the submit's label statement spends in each trigger
// function (PostgreSQL's own function timing, which needs the superuser: embedded database only).
// Beside each median, the statements each operation sent to PostgreSQL (BEGIN and COMMIT included),
// counted at the driver every client here shares.
// Runs on the database `npm run bench:queue:open` leaves (or any with a dataset, via
// --database-url). Prints; writes nothing.
//
//   node scripts/run-ts.mjs scripts/bench/claim-profile.ts [--rounds 60] [--database-url URL | --db-port N
//     --data-dir DIR] [--json]
import { join } from "node:path";
import { parseArgs } from "node:util";

import pg from "pg";

import { BENCH_OPTIONS, chooseBenchDatabase, ms, percentile, startBenchRun } from "./common";
import { time } from "./queue-common";

const { values: options } = parseArgs({
  options: { rounds: { type: "string", default: "60" }, "database-url": { type: "string" }, ...BENCH_OPTIONS },
});
const benchRun = startBenchRun("bench:claim-profile", options);
const ROUNDS = Number(options.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 11)
  throw new Error(`--rounds must be an integer above 10, got ${options.rounds}`);
await chooseBenchDatabase(options["database-url"], options, ".data/bench-queue-scale");

const { openDatabase } = await import("@/lib/server/db/database");
const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
const { upsertUserFromCli } = await import("@/lib/server/users/users");
const { createCampaignWithItems } = await import("./campaigns");
const { listDatasets } = await import("@/lib/server/records/records");
const { claimNextItem } = await import("@/lib/server/labelling/claim-next-item");
const { getWorkItem } = await import("@/lib/server/labelling/get-work-item");
const { getClaimedRecord } = await import("@/lib/server/labelling/get-claimed-record");
const { submitAnnotation } = await import("@/lib/server/labelling/submit-annotation");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { closePgPool } = await import("@/lib/server/db/pool");
const { LANGUAGES } = await import("@/lib/records/languages");
const { config } = await import("@/lib/server/config");
const { readPasswords, socketUrl, SUPERUSER } = await import("@/lib/server/db/embedded-roles");

// Every statement, whoever sends it (Prisma's adapter and the raw pool both use pg's Client).
let statementsSent = 0;
const sendQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statementsSent++;
  return (sendQuery as (...args: unknown[]) => unknown).apply(this, args);
} as typeof sendQuery;

/** Times `run` and counts the statements it sends. */
async function measure<T>(run: () => Promise<T>): Promise<{ value: T; ms: number; statements: number }> {
  const before = statementsSent;
  const timed = await time(run);
  return { ...timed, statements: statementsSent - before };
}

/**
 * Per trigger function, the milliseconds one label insert spends in it (total, nested calls included),
 * over `itemIds`: each insert in a transaction of its own, rolled back. Medians after 10 warm-up inserts.
 */
async function triggerTimes(superuser: pg.Client, itemIds: string[], userId: string): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>();
  const read = async () =>
    new Map(
      (
        await superuser.query<{ funcname: string; total: number }>(
          `SELECT funcname, total_time AS total FROM pg_stat_xact_user_functions`,
        )
      ).rows.map((row) => [row.funcname, row.total]),
    );
  for (const [index, itemId] of itemIds.entries()) {
    await superuser.query("BEGIN");
    await superuser.query("SET LOCAL track_functions = 'pl'");
    // The session's counts can hold earlier transactions until flushed: each insert's own are the difference.
    const before = await read();
    await superuser.query(
      `INSERT INTO "Annotation" (id, "itemId", "userId", valid, "updatedAt") VALUES (gen_random_uuid()::text, $1, $2, true, now())`,
      [itemId, userId],
    );
    const after = await read();
    await superuser.query("ROLLBACK");
    if (index < 10) continue;
    for (const [name, total] of after) {
      const spent = total - (before.get(name) ?? 0);
      if (spent > 0) times.set(name, [...(times.get(name) ?? []), spent]);
    }
  }
  return times;
}

const database = await openDatabase({ log: (message) => console.error(message) });
try {
  const stamp = Date.now().toString(36);
  const { actor: admin } = await upsertUserFromCli({
    actor: SYSTEM_ACTOR.cli,
    email: "admin@bench-profile.test",
    role: "ADMIN",
    languages: [],
  });
  const { actor: annotator } = await upsertUserFromCli({
    actor: SYSTEM_ACTOR.cli,
    email: `profile-${stamp}@bench-profile.test`,
    role: "ANNOTATOR",
    languages: [...LANGUAGES],
  });
  const [dataset] = await listDatasets({ actor: admin });
  if (!dataset)
    throw new Error("no dataset in this database: run npm run bench:queue:open first, or pass --database-url");
  const campaign = await createCampaignWithItems({
    actor: admin,
    input: {
      dataset: dataset.name,
      name: `profile-${stamp}`,
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  const operations = ["claim", "claimedRecord", "workItem", "submit"] as const;
  type Operation = (typeof operations)[number];
  const times = Object.fromEntries(operations.map((name) => [name, [] as number[]])) as Record<Operation, number[]>;
  const statements = Object.fromEntries(operations.map((name) => [name, [] as number[]])) as Record<
    Operation,
    number[]
  >;
  const record = (name: Operation, measured: { ms: number; statements: number }) => {
    times[name].push(measured.ms);
    statements[name].push(measured.statements);
  };
  for (let round = 0; round < ROUNDS; round++) {
    const claimed = await measure(() => claimNextItem({ actor: annotator, campaignId: campaign.id }));
    record("claim", claimed);
    const claim = claimed.value;
    if (!claim) throw new Error("the campaign ran out of items");
    record("claimedRecord", await measure(() => getClaimedRecord({ actor: annotator, itemId: claim.itemId })));
    record("workItem", await measure(() => getWorkItem({ actor: annotator, itemId: claim.itemId })));
    const input = {
      valid: true,
      categories: [],
      note: null,
      testLine: null,
      needsReview: false,
      activeMs: 1000,
      baseRevision: 0,
    };
    record("submit", await measure(() => submitAnnotation({ actor: annotator, itemId: claim.itemId, input })));
  }
  const median = (values: number[]) => percentile(values.slice(10), 50);
  console.log(
    `${dataset.records.toLocaleString("en-US")} records; ${ROUNDS - 10} rounds after 10 warm-up rounds, medians:`,
  );
  const names: Record<Operation, string> = {
    claim: "claim transaction (claimNextItem)",
    claimedRecord: "record read by the claim route (getClaimedRecord)",
    workItem: "work item read by the workspace page (getWorkItem)",
    submit: "submit (submitAnnotation)",
  };
  console.log("| operation | time | statements |");
  for (const name of operations)
    console.log(`| ${names[name]} | ${median(times[name]).toFixed(1)} ms | ${median(statements[name])} |`);

  const claimFigures = {
    claim: { p50: ms(median(times.claim)), statements: median(statements.claim) },
    claimedRecord: { p50: ms(median(times.claimedRecord)), statements: median(statements.claimedRecord) },
    workItem: { p50: ms(median(times.workItem)), statements: median(statements.workItem) },
    submit: { p50: ms(median(times.submit)), statements: median(statements.submit) },
  };
  const passwords = options["database-url"] ? null : readPasswords(config().dataDir);
  if (!passwords) {
    console.log("Trigger timing skipped: it needs the superuser, which only the embedded database gives this script.");
  } else {
    const superuser = new pg.Client({
      connectionString: socketUrl(join(config().dataDir, "postgres"), config().dbPort, SUPERUSER, passwords.superuser),
    });
    await superuser.connect();
    try {
      const { rows } = await superuser.query<{ id: string }>(
        `SELECT id FROM "CampaignItem" WHERE "campaignId" = $1 AND "labelCount" = 0 ORDER BY position LIMIT $2`,
        [campaign.id, ROUNDS],
      );
      const spent = await triggerTimes(
        superuser,
        rows.map((row) => row.id),
        annotator.id,
      );
      console.log(
        `In the label's INSERT (${rows.length - 10} inserts after 10, rolled back), per trigger function, median ms:`,
      );
      for (const [name, values] of [...spent].sort(([, a], [, b]) => percentile(b, 50) - percentile(a, 50)))
        console.log(`| ${name} | ${percentile(values, 50).toFixed(2)} ms | ${values.length} |`);
    } finally {
      await superuser.end();
    }
  }
  benchRun.finish(claimFigures);
} finally {
  await disconnectPrisma();
  await closePgPool();
  await database.stop();
}
