// Release benchmark (issue 25): cutting and exporting a release of a 100,000-record dataset. The
// dataset is made in SQL the first time (the import path has its own benchmark): records in every
// language, a campaign of overlap 1 whose items are each labelled once (four in five Valid), and
// 1,000 records repaired to an accepted revision 2. Then, each sampled for the process's peak
// memory: cutting a release (the request's answer, then the job that stores the entries in SQL, issue
// 36), writing its folder (data.jsonl,
// excluded.jsonl, README.md, manifest.json) and streaming its .tar.gz. Writes docs/benchmarks.md.
//
//   npm run bench:release [-- --records 100000 --no-write --json --db-port N --data-dir DIR]
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";

import pg from "pg";

import {
  BENCH_OPTIONS,
  describeMachine,
  machineLine,
  selectBenchDatabase,
  startBenchRun,
  uptime,
  writeBenchmarkSection,
} from "./common";
import { seedRecords } from "./queue-common";

const { values: options } = parseArgs({
  options: {
    records: { type: "string", default: "100000" },
    "no-write": { type: "boolean", default: false },
    ...BENCH_OPTIONS,
  },
});
const benchRun = startBenchRun("bench:release", options);
const SECTION = "## Releases at 100,000 records (issue 25)";
const DATASET = "bench-release";
const RECORDS = Number(options.records);
if (!Number.isInteger(RECORDS) || RECORDS < 10)
  throw new Error(`--records must be an integer of at least 10, got ${options.records}`);
// One record in a hundred repaired: 1,000 at the default size.
const REPAIRED = Math.max(1, Math.floor(RECORDS / 100));

const { dataDir } = await selectBenchDatabase(options, ".data/bench-release");

const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
const { openDatabase } = await import("@/lib/server/db/database");
const { createCampaignWithItems } = await import("./campaigns");
const { upsertUserFromCli } = await import("@/lib/server/users/users");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { LANGUAGES } = await import("@/lib/records/languages");
const { cutRelease } = await import("@/lib/server/releases/cut-release");
const { buildRelease, releaseArchive, writeReleaseFolder } = await import("@/lib/server/releases/build-release");
const { stopBoss } = await import("@/lib/server/workers/boss");

/** Runs `work`, sampling the process's resident memory every 50 ms; seconds and peak RSS in MiB. */
async function measured<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number; peakMiB: number }> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  try {
    const value = await work();
    return {
      value,
      seconds: (performance.now() - started) / 1000,
      peakMiB: Math.max(peak, process.memoryUsage().rss) / 1024 ** 2,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** The dataset, its labelled campaign and its repairs, made in SQL unless a previous run left them. */
async function ensureData(client: pg.Client): Promise<void> {
  const present = Number(
    (
      await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM "Record" r JOIN "Dataset" d ON d.id = r."datasetId" WHERE d.name = $1`,
        [DATASET],
      )
    ).rows[0].n,
  );
  if (present >= RECORDS) return;
  console.error(`Seeding ${RECORDS.toLocaleString("en")} records, their labels and ${REPAIRED} repairs…`);
  await seedRecords(client, { dataset: DATASET, count: RECORDS, languages: LANGUAGES });
  const admin = (
    await upsertUserFromCli({ actor: SYSTEM_ACTOR.cli, email: "admin@bench.test", role: "ADMIN", languages: [] })
  ).actor;
  const annotator = (
    await upsertUserFromCli({
      actor: SYSTEM_ACTOR.cli,
      email: "annotator0@bench.test",
      role: "ANNOTATOR",
      languages: [...LANGUAGES],
    })
  ).actor;
  const campaign = await createCampaignWithItems({
    actor: admin,
    input: {
      dataset: DATASET,
      name: `release-${Date.now().toString(36)}`,
      overlap: 1,
      agreementFraction: 0,
      blind: false,
      finalRule: "consensus",
      leaseMinutes: 30,
    },
  });
  await client.query(
    `INSERT INTO "Annotation" (id, "itemId", "userId", valid, categories, "preRevealCategories", "activeMs", "updatedAt")
     SELECT 'ann_' || md5(i.id), i.id, $2, (hashtext(i.id) % 5) <> 0, '{}', '{}', 20000, now()
     FROM "CampaignItem" i WHERE i."campaignId" = $1`,
    [campaign.id, annotator.id],
  );
  // Written in SQL: the labels' trigger keeps the counters, the slots are set here.
  await client.query(`UPDATE "CampaignItem" SET "slotsTaken" = 1 WHERE "campaignId" = $1`, [campaign.id]);
  // Repairs: the import kept as revision 1, an accepted revision 2 with a changed full test.
  await client.query(
    `WITH picked AS (
       SELECT r.* FROM "Record" r JOIN "Dataset" d ON d.id = r."datasetId" WHERE d.name = $1 ORDER BY r.id LIMIT $2
     ), originals AS (
       INSERT INTO "RecordRevision" (id, "recordId", number, status, question, "canonicalSolution", "demoTestFunc", "fullTestFunc", "changedFields", categories, "checkCategories")
       SELECT 'rv1_' || id, id, 1, 'ORIGINAL', question, "canonicalSolution", "demoTestFunc", "fullTestFunc", '{}', '{}', '{}' FROM picked
     )
     INSERT INTO "RecordRevision" (id, "recordId", number, status, "baseNumber", question, "canonicalSolution", "demoTestFunc", "fullTestFunc", "changedFields", reason, categories, "authorId", "checkerId", "checkValid", "checkCategories", "checkedAt")
     SELECT 'rv2_' || id, id, 2, 'ACCEPTED', 1, question, "canonicalSolution", "demoTestFunc", "fullTestFunc" || E'# repaired\\n',
            '{full_test_func}', 'benchmark repair', '{wrong-expected-output}', $3, $4, true, '{}', now() FROM picked`,
    [DATASET, REPAIRED, annotator.id, admin.id],
  );
  await client.query(
    `UPDATE "Record" r SET revision = 2, "fullTestFunc" = v."fullTestFunc"
     FROM "RecordRevision" v WHERE v."recordId" = r.id AND v.number = 2 AND v.id LIKE 'rv2_%'`,
  );
  await client.query("ANALYZE");
}

async function main(): Promise<void> {
  const database = await openDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const workDir = mkdtempSync(join(tmpdir(), "verity-release-bench-"));
  try {
    const postgres = (await client.query<{ server_version: string }>("SHOW server_version")).rows[0].server_version;
    await ensureData(client);
    const loadBefore = uptime();
    const actor = SYSTEM_ACTOR.cli;
    const name = `v${Date.now().toString(36)}`;
    // The request reserves the release and queues its build; the job (called here as a worker would) builds it.
    const cut = await measured(() => cutRelease({ actor, datasetName: DATASET, name }));
    const built = await measured(() => buildRelease({ releaseId: cut.value.id }));
    if (built.value.outcome !== "built") throw new Error(`The release was not built: ${built.value.outcome}.`);
    const folder = join(workDir, "folder");
    const written = await measured(() => writeReleaseFolder({ actor, datasetName: DATASET, name, outDir: folder }));
    const archivePath = join(workDir, "release.tar.gz");
    const archived = await measured(async () => {
      const { stream } = await releaseArchive({ actor, datasetName: DATASET, name });
      await pipeline(stream, createWriteStream(archivePath));
    });
    const loadAfter = uptime();
    const sizes = Object.fromEntries(written.value.files.map((file) => [file.path, file.bytes]));
    const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
    const result = {
      records: built.value.records,
      excluded: built.value.excluded,
      revised: built.value.revised,
      answerSeconds: Number(cut.seconds.toFixed(2)),
      answerStatus: cut.value.status,
      cutSeconds: Number(built.seconds.toFixed(2)),
      cutPeakMiB: Math.round(Math.max(cut.peakMiB, built.peakMiB)),
      exportSeconds: Number(written.seconds.toFixed(2)),
      exportPeakMiB: Math.round(written.peakMiB),
      archiveSeconds: Number(archived.seconds.toFixed(2)),
      archivePeakMiB: Math.round(archived.peakMiB),
      dataBytes: sizes["data.jsonl"],
      excludedBytes: sizes["excluded.jsonl"],
      archiveBytes: statSync(archivePath).size,
    };
    console.error(JSON.stringify(result));
    if (!options["no-write"])
      writeBenchmarkSection(
        SECTION,
        `${SECTION}

\`npm run bench:release\`: a release of a ${RECORDS.toLocaleString("en")}-record dataset (every language; one
label per record, four in five Valid; ${REPAIRED.toLocaleString("en")} records at an accepted revision 2), made in SQL in
\`${dataDir}\`. Each step in this process, its resident memory sampled every 50 ms (peak RSS
is the whole Node process, the app's modules loaded).

| Step | Time | Peak RSS |
|---|---|---|
| Cut, the request's answer (the name reserved, ${result.answerStatus}, its build queued) | ${result.answerSeconds} s | — |
| Cut, the job's build (${result.records.toLocaleString("en")} in, ${result.excluded.toLocaleString("en")} out, ${result.revised.toLocaleString("en")} revised: entries, validity table, disclosure stored) | ${result.cutSeconds} s | ${result.cutPeakMiB} MiB |
| Export the folder (data.jsonl ${mib(result.dataBytes)}, excluded.jsonl ${mib(result.excludedBytes)}, card, manifest) | ${result.exportSeconds} s | ${result.exportPeakMiB} MiB |
| Build and stream the .tar.gz (${mib(result.archiveBytes)}; the folder again, then tar + gzip -9) | ${result.archiveSeconds} s | ${result.archivePeakMiB} MiB |

${machineLine(describeMachine(postgres))} Load before \`${loadBefore}\`; after \`${loadAfter}\` (on a machine
whose load passes its cores, times are upper bounds).
`,
      );
    benchRun.finish(result);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
    await client.end();
    await stopBoss();
    await disconnectPrisma();
    await database.stop();
  }
}

await main();
process.exit(0);
