// Where a claim's time goes on the server, without HTTP: the claim transaction, the work item the
// claim route then reads, and the submit, called in-process one after the other by one annotator
// (medians after 10 warm-up rounds). Runs on the database `npm run bench:queue:open` leaves (or any
// with a dataset, via --database-url). Prints; writes nothing.
//
//   node scripts/run-ts.mjs scripts/bench/claim-profile.ts [--rounds 60] [--database-url URL]
import { parseArgs } from "node:util";

import { chooseBenchDatabase, percentile } from "./common";
import { time } from "./queue-common";

const { values: options } = parseArgs({
  options: { rounds: { type: "string", default: "60" }, "database-url": { type: "string" } },
});
const ROUNDS = Number(options.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 11)
  throw new Error(`--rounds must be an integer above 10, got ${options.rounds}`);
chooseBenchDatabase(options["database-url"], ".data/bench-queue-scale");

const { openDatabase } = await import("@/lib/server/db/database");
const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
const { upsertUserFromCli } = await import("@/lib/server/users/users");
const { createCampaign } = await import("@/lib/server/campaigns/campaigns");
const { listDatasets } = await import("@/lib/server/records/records");
const { claimNextItem, getWorkItem, submitAnnotation } = await import("@/lib/server/labelling/queue");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { closePgPool } = await import("@/lib/server/db/pool");
const { LANGUAGES } = await import("@/lib/records/languages");

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
  const campaign = await createCampaign({
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
  const times = { claim: [] as number[], workItem: [] as number[], submit: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const claimed = await time(() => claimNextItem({ actor: annotator, campaignId: campaign.id }));
    times.claim.push(claimed.ms);
    const claim = claimed.value;
    if (!claim) throw new Error("the campaign ran out of items");
    times.workItem.push((await time(() => getWorkItem({ actor: annotator, itemId: claim.itemId }))).ms);
    const input = {
      valid: true,
      categories: [],
      note: null,
      testLine: null,
      needsReview: false,
      activeMs: 1000,
      baseRevision: 0,
    };
    times.submit.push((await time(() => submitAnnotation({ actor: annotator, itemId: claim.itemId, input }))).ms);
  }
  const median = (values: number[]) => `${percentile(values.slice(10), 50).toFixed(1)} ms`;
  console.log(
    `${dataset.records.toLocaleString("en-US")} records; ${ROUNDS - 10} rounds after 10 warm-up rounds, medians:`,
  );
  console.log(`| claim transaction (claimNextItem) | ${median(times.claim)} |`);
  console.log(`| work item read by the claim route (getWorkItem) | ${median(times.workItem)} |`);
  console.log(`| submit (submitAnnotation) | ${median(times.submit)} |`);
} finally {
  await disconnectPrisma();
  await closePgPool();
  await database.stop();
}
