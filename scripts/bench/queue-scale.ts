// Claim latency at scale (issue: scale-out). Two app instances (`verity serve` on two ports, one
// DATABASE_URL, one NEXTAUTH_SECRET, in-app workers off) in front of one PostgreSQL, with annotators
// calling the REST API, spread over the instances in turn:
//
// - capacity: closed loop, each client claims and submits with no pause, at concurrency 1, 2, 5, 10,
//   20, 50: labels/s at saturation and the concurrency at which claim p95 crosses 100 ms; with
//   --clients-per-annotator K, each annotator's token drives K clients at once, as a labelling
//   script with parallel workers does (each names itself in its claims; --unnamed-clients leaves the
//   names out, so a person's clients share one lease, to measure what that costs);
// - open loop: 50 annotators, each on a schedule fixed in advance (exponential gaps, 6 s on average);
//   an item's claim is timed from its scheduled start, not from when the client got round to it, so
//   a slow answer delays — and is charged to — the items scheduled behind it (no coordinated omission).
//
// Afterwards the database is checked for over-assignment and lost labels. Writes its subsection of
// docs/benchmarks.md, "Scale-out (issue: scale-out)".
//
//   npm run bench:queue:open       (open loop only)
//   npm run bench:queue:capacity   (capacity steps only)
//   node scripts/run-ts.mjs scripts/bench/queue-scale.ts [--mode both] [--open-seconds 150]
//     [--annotators 50] [--mean-gap 6] [--step-seconds 15] [--steps 1,2,5,10,20,50] [--instances 2]
//     [--records 100000] [--clients-per-annotator 1] [--unnamed-clients] [--database-url URL] [--no-write]
//   e.g. 2 annotators × 4 clients on one instance:
//   npm run bench:queue:capacity -- --instances 1 --clients-per-annotator 4 --steps 8
import type { ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";

import pg from "pg";

import { startApp, stopApp } from "./app";
import {
  BENCH_OPTIONS,
  chooseAppPorts,
  chooseBenchDatabase,
  describeMachine,
  machineLine,
  percentile,
  startBenchRun,
  uptime,
  writeBenchmarkSubsection,
} from "./common";
import { type Client, claimItem, countOverAssignment, runClosed, seedRecords, submitLabel } from "./queue-common";

const { values: options } = parseArgs({
  options: {
    mode: { type: "string", default: "both" },
    "open-seconds": { type: "string", default: "150" },
    annotators: { type: "string", default: "50" },
    "mean-gap": { type: "string", default: "6" },
    "step-seconds": { type: "string", default: "15" },
    steps: { type: "string", default: "1,2,5,10,20,50" },
    instances: { type: "string", default: "2" },
    records: { type: "string", default: "100000" },
    "clients-per-annotator": { type: "string", default: "1" },
    "unnamed-clients": { type: "boolean", default: false },
    seed: { type: "string", default: "15" },
    "database-url": { type: "string" },
    "no-write": { type: "boolean", default: false },
    ...BENCH_OPTIONS,
  },
});
const MODE = options.mode;
if (!["both", "open", "capacity"].includes(MODE)) throw new Error(`--mode must be both, open or capacity, got ${MODE}`);
const OPEN_SECONDS = Number(options["open-seconds"]);
const ANNOTATORS = Number(options.annotators);
const MEAN_GAP_S = Number(options["mean-gap"]);
const STEP_SECONDS = Number(options["step-seconds"]);
const STEPS = options.steps.split(",").map(Number);
const RECORDS = Number(options.records);
const benchRun = startBenchRun(MODE === "both" ? "bench:queue-scale" : `bench:queue:${MODE}`, options);
const PORTS = await chooseAppPorts(options, Number(options.instances));
const BASES = PORTS.map((port) => `http://127.0.0.1:${port}`);
const CLIENTS_PER_ANNOTATOR = Number(options["clients-per-annotator"]);
if (!Number.isInteger(CLIENTS_PER_ANNOTATOR) || CLIENTS_PER_ANNOTATOR < 1)
  throw new Error(`--clients-per-annotator must be a whole number from 1, got ${options["clients-per-annotator"]}`);
const CLIENTS = Math.max(ANNOTATORS, ...STEPS);
const SECRET = "bench-scale-only";
const PARENT = "## Scale-out (issue: scale-out)";
const SECTION = "### Claim latency: capacity and open loop";

await chooseBenchDatabase(options["database-url"], options, ".data/bench-queue-scale");

const { openDatabase } = await import("@/lib/server/db/database");
const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
const { upsertUserFromCli } = await import("@/lib/server/users/users");
const { createApiToken } = await import("@/lib/server/users/tokens");
const { createCampaignWithItems } = await import("./campaigns");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { closePgPool } = await import("@/lib/server/db/pool");
const { LANGUAGES } = await import("@/lib/records/languages");
const { seededRandom: random } = await import("@/lib/metrics/random");

/** Each annotator's item start times (ms from the run's start): Poisson arrivals with the given mean gap. */
function schedule(annotators: number, seconds: number, meanGapMs: number, seed: number): number[][] {
  const next = random(seed);
  return Array.from({ length: annotators }, () => {
    const starts: number[] = [];
    let at = -Math.log(1 - next()) * meanGapMs;
    while (at < seconds * 1000) {
      starts.push(at);
      at += -Math.log(1 - next()) * meanGapMs;
    }
    return starts;
  });
}

/**
 * Open loop: every annotator works through its own schedule. An item starts at its scheduled time,
 * or when the annotator's previous item is done if that is later; the claim is timed from the
 * scheduled time, the submit from when it was sent (right after the claim answered), and the whole
 * item from the scheduled time.
 */
async function runOpen(clients: Client[], campaignId: string, starts: number[][]) {
  const claimMs: number[] = [];
  const submitMs: number[] = [];
  const itemMs: number[] = [];
  let errors = 0;
  let empty = 0;
  let acknowledged = 0;
  let maxLagMs = 0;
  const origin = performance.now() + 1000;
  await Promise.all(
    clients.map(async ({ token, base }, index) => {
      for (const start of starts[index]) {
        const scheduled = origin + start;
        const wait = scheduled - performance.now();
        if (wait > 0) await sleep(wait);
        maxLagMs = Math.max(maxLagMs, performance.now() - scheduled);
        const claim = await claimItem(base, token, campaignId);
        const claimed = performance.now();
        if (claim.status !== "claimed") {
          if (claim.status === "empty") empty += 1;
          else errors += 1;
          continue;
        }
        claimMs.push(claimed - scheduled);
        const isAcknowledged = (await submitLabel(base, token, claim.itemId)) !== "error";
        const submitted = performance.now();
        if (!isAcknowledged) {
          errors += 1;
          continue;
        }
        acknowledged += 1;
        submitMs.push(submitted - claimed);
        itemMs.push(submitted - scheduled);
      }
    }),
  );
  return { claimMs, submitMs, itemMs, errors, empty, acknowledged, maxLagMs };
}

const ms = (values: number[], p: number) => (values.length ? `${percentile(values, p).toFixed(1)} ms` : "—");
const loadOf = (line: string) => /load average: (.*)$/.exec(line)?.[1] ?? line;

async function main(): Promise<void> {
  const database = await openDatabase({ log: (message) => console.error(message) });
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const servers: ChildProcess[] = [];
  try {
    const postgres = (await client.query<{ server_version: string }>("SHOW server_version")).rows[0].server_version;
    const run = Date.now().toString(36);
    const dataset = "bench-queue-scale";
    console.error(`Seeding ${RECORDS.toLocaleString("en-US")} records…`);
    await seedRecords(client, { dataset, count: RECORDS, languages: LANGUAGES });
    const annotators: Client[] = [];
    for (let index = 0; index < CLIENTS; index++) {
      const { actor } = await upsertUserFromCli({
        actor: SYSTEM_ACTOR.cli,
        email: `annotator${index}@bench-scale.test`,
        role: "ANNOTATOR",
        languages: [...LANGUAGES],
      });
      // Annotators alternate between the instances, as a load balancer would spread them.
      annotators.push({
        token: (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: actor.id, name: `bench-${run}` })).token,
        base: BASES[index % BASES.length],
      });
    }
    // The capacity steps' clients: each annotator's K clients one after another, so the first c
    // clients are c ÷ K annotators with all their clients.
    const capacityClients: Client[] = annotators.flatMap((annotator) =>
      Array.from({ length: CLIENTS_PER_ANNOTATOR }, (_, n) => ({
        ...annotator,
        ...(CLIENTS_PER_ANNOTATOR > 1 && !options["unnamed-clients"] ? { name: `client-${n + 1}` } : {}),
      })),
    );
    const admin = (
      await upsertUserFromCli({
        actor: SYSTEM_ACTOR.cli,
        email: "admin@bench-scale.test",
        role: "ADMIN",
        languages: [],
      })
    ).actor;
    const newCampaign = (name: string, overlap: number) =>
      createCampaignWithItems({
        actor: admin,
        input: {
          dataset,
          name: `${name}-${run}`,
          overlap,
          agreementFraction: 0,
          blind: false,
          finalRule: "consensus",
          leaseMinutes: 30,
        },
      });
    console.error("Creating the campaigns…");
    const capacityCampaign = await newCampaign("capacity", 1);
    const openCampaign = await newCampaign("open", 2);
    await client.query("ANALYZE");

    console.error(`Starting ${PORTS.length} app instance(s) on ${PORTS.join(", ")}…`);
    for (const port of PORTS) servers.push(await startApp(database.url, port, { NEXTAUTH_SECRET: SECRET }));
    // Warm-up (not measured): the first requests on each instance load route code and open pools.
    await runClosed(annotators.slice(0, 2 * PORTS.length), capacityCampaign.id, 5);

    const machine = describeMachine(postgres);
    const figures: Record<string, unknown> = {};
    const rounded = (values: number[], p: number) => Math.round(percentile(values, p) * 10) / 10;
    const parts: string[] = [
      SECTION,
      "",
      `Run on ${new Date().toISOString().slice(0, 10)} with \`node scripts/run-ts.mjs scripts/bench/queue-scale.ts --mode ${MODE}\` (${options["database-url"] ? "external PostgreSQL" : `embedded PostgreSQL in \`${process.env.VERITY_DATA_DIR}\``}; ${PORTS.length} app instance(s), \`verity serve\` production build on ports ${PORTS.join(" and ")}, one DATABASE_URL and NEXTAUTH_SECRET, in-app workers off; annotators alternate between the instances and call the REST API with bearer tokens).`,
      `${RECORDS.toLocaleString("en-US")} records, campaigns of ${capacityCampaign.itemCount.toLocaleString("en-US")} items. The load generator runs on the same machine as the app instances and PostgreSQL.`,
      "",
    ];

    if (MODE !== "open") {
      console.error("Capacity steps…");
      const rows: string[] = [];
      let crossing: number | null = null;
      let bestRate = 0;
      for (const concurrency of STEPS) {
        const uptimeBefore = uptime();
        const result = await runClosed(capacityClients.slice(0, concurrency), capacityCampaign.id, STEP_SECONDS);
        const uptimeAfter = uptime();
        const rate = result.labels / STEP_SECONDS;
        bestRate = Math.max(bestRate, rate);
        if (crossing === null && percentile(result.claimMs, 95) > 100) crossing = concurrency;
        rows.push(
          `| ${concurrency} | ${rate.toFixed(1)} | ${result.sameLabels} | ${ms(result.claimMs, 50)} | ${ms(result.claimMs, 95)} | ${ms(result.submitMs, 50)} | ${ms(result.submitMs, 95)} | ${result.errors} | ${loadOf(uptimeBefore)} → ${loadOf(uptimeAfter)} |`,
        );
        console.error(rows.at(-1));
      }
      const { overAssigned, duplicates } = await countOverAssignment(client, capacityCampaign.id);
      figures.capacity = {
        labelsPerSecond: Number(bestRate.toFixed(1)),
        claimP95CrossesAt: crossing,
        overAssigned,
        clientsPerAnnotator: CLIENTS_PER_ANNOTATOR,
        namedClients: CLIENTS_PER_ANNOTATOR > 1 && !options["unnamed-clients"],
      };
      parts.push(
        `**Capacity** (closed loop: each client claims and submits with no pause, ${STEP_SECONDS} s per step, overlap 1${CLIENTS_PER_ANNOTATOR > 1 ? `; ${CLIENTS_PER_ANNOTATOR} clients per annotator's token, ${options["unnamed-clients"] ? "naming no client (they share one lease)" : "each naming itself in its claims"}` : ""}). Labels/s counts new labels; "same" counts submits that found the annotator's label already there.`,
        "",
        "| clients | labels/s | same | claim p50 | claim p95 | submit p50 | submit p95 | failed | load average (1, 5, 15 min) before → after |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        ...rows,
        "",
        `Labels/s at saturation: **${bestRate.toFixed(1)}**. Claim p95 crosses 100 ms at **${crossing === null ? `none of the steps (up to ${STEPS.at(-1)})` : `${crossing} clients`}**. Over-assigned items: ${overAssigned}; annotator twice on an item: ${duplicates}.`,
        "",
      );
    }

    if (MODE !== "capacity") {
      const starts = schedule(ANNOTATORS, OPEN_SECONDS, MEAN_GAP_S * 1000, Number(options.seed));
      const scheduled = starts.reduce((sum, list) => sum + list.length, 0);
      console.error(`Open loop: ${ANNOTATORS} annotators, ${scheduled} items scheduled over ${OPEN_SECONDS} s…`);
      const uptimeBefore = uptime();
      const result = await runOpen(annotators.slice(0, ANNOTATORS), openCampaign.id, starts);
      const uptimeAfter = uptime();
      const { overAssigned, duplicates } = await countOverAssignment(client, openCampaign.id);
      const stored = Number(
        (
          await client.query<{ n: string }>(
            `SELECT count(*) AS n FROM "Annotation" a JOIN "CampaignItem" i ON i.id = a."itemId" WHERE i."campaignId" = $1`,
            [openCampaign.id],
          )
        ).rows[0].n,
      );
      const meetsAim = percentile(result.claimMs, 95) < 50 && percentile(result.submitMs, 95) < 50;
      Object.assign(figures, {
        claim: { p50: rounded(result.claimMs, 50), p95: rounded(result.claimMs, 95) },
        submit: { p50: rounded(result.submitMs, 50), p95: rounded(result.submitMs, 95) },
        acknowledged: result.acknowledged,
        stored,
        lost: Math.max(0, result.acknowledged - stored),
        overAssigned,
        duplicates,
        errors: result.errors,
      });
      parts.push(
        `**Open loop** (${ANNOTATORS} annotators for ${OPEN_SECONDS} s, overlap 2; each annotator's item starts are fixed before the run, exponential gaps of ${MEAN_GAP_S} s on average (seed ${options.seed}), ${scheduled} items, ${(scheduled / OPEN_SECONDS).toFixed(1)} items/s offered; an item claims then submits at once).`,
        'Claim is timed from the item\'s scheduled start (so a late start counts against it), submit from when it was sent, right after the claim answered; "item" is scheduled start to acknowledged submit.',
        "",
        "| measure | n | p50 | p95 | p99 | max |",
        "|---|---:|---:|---:|---:|---:|",
        `| claim (from scheduled start) | ${result.claimMs.length} | ${ms(result.claimMs, 50)} | ${ms(result.claimMs, 95)} | ${ms(result.claimMs, 99)} | ${ms(result.claimMs, 100)} |`,
        `| submit | ${result.submitMs.length} | ${ms(result.submitMs, 50)} | ${ms(result.submitMs, 95)} | ${ms(result.submitMs, 99)} | ${ms(result.submitMs, 100)} |`,
        `| item (claim + submit, from scheduled start) | ${result.itemMs.length} | ${ms(result.itemMs, 50)} | ${ms(result.itemMs, 95)} | ${ms(result.itemMs, 99)} | ${ms(result.itemMs, 100)} |`,
        "",
        `Aim claim and submit p95 < 50 ms: **${meetsAim ? "met" : "missed"}**. Acknowledged labels ${result.acknowledged}, labels stored ${stored}${stored === result.acknowledged ? " (none lost)" : " (**mismatch**)"}; over-assigned items **${overAssigned}**; annotator twice on an item **${duplicates}**; failed requests ${result.errors}; empty queue ${result.empty}. Largest lag of a start behind its schedule (load generator's event loop or the annotator's previous item): ${result.maxLagMs.toFixed(1)} ms.`,
        `Load: \`${uptimeBefore}\` before, \`${uptimeAfter}\` after.`,
        "",
      );
    }
    parts.push(machineLine(machine), "");
    const section = parts.join("\n");
    console.log(section);
    if (!options["no-write"]) {
      writeBenchmarkSubsection(PARENT, SECTION, section);
    }
    benchRun.finish(figures);
  } finally {
    await Promise.all(servers.map(stopApp));
    await client.end();
    await disconnectPrisma();
    await closePgPool();
    await database.stop();
  }
}

await main();
process.exit(0);
