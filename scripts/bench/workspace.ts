// Workspace benchmark (issue: the annotator's loop). A real browser (Debian's Chromium through
// Playwright) labels the demo dataset at 1440×900 against a production build: for each item, the
// keys pressed and the time from the submitting key to the next item being ready (its heading,
// statement, solution and test shown, the form cleared and answering keys; and, separately, the
// code in the editor). Valid labels
// take V, Enter; invalid ones I, 1, Enter. With --screenshots it also takes the workspace images of docs/features.md.
//
// The browser is started for a quiet run and its pages reach this machine only (browser.ts).
//
//   npx next build && node scripts/run-ts.mjs scripts/bench/workspace.ts [-- --items 40 --screenshots --no-write
//     --json --app-port N --db-port N --data-dir DIR]
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";

import type { Page } from "@playwright/test";
import pg from "pg";

import { stopApp } from "./app";
import { allowLoopbackOnly, launchQuietChromium } from "./browser";
import {
  BENCH_OPTIONS,
  chooseAppPort,
  describeMachine,
  machineLine,
  ms,
  percentile,
  selectBenchDatabase,
  startBenchRun,
  writeBenchmarkSection,
} from "./common";

const { values: options } = parseArgs({
  options: {
    items: { type: "string", default: "40" },
    screenshots: { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false },
    ...BENCH_OPTIONS,
  },
});
const benchRun = startBenchRun("bench:workspace", options);
const PORT = await chooseAppPort(options);
const BASE = `http://localhost:${PORT}`;
const SECTION = "## Annotator's loop in the browser (issue: the annotator's loop)";
const PASSWORD = "bench-password-1";
const LAPTOP = { width: 1440, height: 900 };

// A fresh folder each run (removed at the end unless given), so two runs at once never share one.
const { dataDir } = await selectBenchDatabase(options, ".data/bench-workspace", { fresh: true });
const isOwnDataDir = !(options["data-dir"] ?? process.env.VERITY_BENCH_DATA_DIR);

const { SYSTEM_ACTOR } = await import("@/lib/server/auth/permissions");
const { openDatabase } = await import("@/lib/server/db/database");
const { upsertUserFromCli } = await import("@/lib/server/users/users");
const { createCampaignWithItems } = await import("./campaigns");
const { updateCampaignGuidelines } = await import("@/lib/server/campaigns/update-campaign-guidelines");
const { loadDemoDatasetIfEmpty, DEMO_DATASET } = await import("@/lib/server/imports/demo");
const { disconnectPrisma } = await import("@/lib/server/db/client");
const { LANGUAGES } = await import("@/lib/records/languages");

async function startServer(databaseUrl: string) {
  const server = spawn(process.execPath, ["scripts/verity.mjs", "serve"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(PORT),
      VERITY_DEMO: "0",
      NEXTAUTH_SECRET: "bench-only",
      VERITY_PUBLIC_URL: BASE,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let attempt = 0; attempt < 300; attempt++) {
    if (
      await fetch(`${BASE}/api/health`)
        .then((response) => response.ok)
        .catch(() => false)
    )
      return server;
    await sleep(1000);
  }
  server.kill();
  throw new Error(`the app did not come up on port ${PORT}`);
}

async function signIn(page: Page, email: string) {
  await page.goto(`${BASE}/signin`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/datasets$/);
}

const heading = (page: Page) => page.locator("h1").first().textContent();

// The statement, and the solution and test as text before the editor takes over or in the editor
// ("Loading editor…" is not code). The item is ready when each shows some text.
const SHOWN_WHEN_READY = [
  "section[aria-label=Statement]",
  "[data-testid=code-solution-text], [data-testid=code-solution] .view-lines",
  "[data-testid=code-test-text], [data-testid=code-test] .view-lines",
];

/**
 * Resolves when the workspace shows a different record than `previous`, hydrated, with an empty
 * form, and its statement, solution and test on screen (as text or in the editor).
 */
async function waitForNextItem(page: Page, previous: string | null) {
  await page.waitForFunction(
    ({ before, shown }) => {
      const title = document.querySelector("h1")?.textContent ?? null;
      const workspace = document.querySelector("[data-testid=workspace]");
      return (
        title !== before &&
        title?.startsWith("Record") &&
        workspace?.getAttribute("data-ready") === "true" &&
        !document.querySelector("input[name=verdict]:checked") &&
        shown.every((selector) =>
          Array.from(document.querySelectorAll(selector)).some((node) => node.textContent?.trim()),
        )
      );
    },
    { before: previous, shown: SHOWN_WHEN_READY },
    { polling: "raf", timeout: 30_000 },
  );
}

async function waitForCode(page: Page) {
  await page.waitForFunction(
    () => Boolean(document.querySelector("[data-testid=code-solution] .view-lines")?.textContent),
    undefined,
    { polling: "raf", timeout: 30_000 },
  );
}

type Sample = {
  kind: "valid" | "invalid";
  keys: number;
  readyMs: number;
  codeMs: number;
  requests: { write: boolean; ms: number }[];
  phases: Phases;
  /** The next item's language, as its badge shows it. */
  language: string;
};

/** Where one label's time went, in the page's own clock, from the Enter key to the next item ready. */
type Phases = {
  /** Enter to the write leaving the page, the write's round trip, the page data's round trip. */
  beforeWrite: number;
  write: number;
  betweenRequests: number;
  pageData: number;
  /** From the page data's last byte to the next item ready: the browser's rendering. */
  afterPageData: number;
  /** Tasks over 50 ms on the main thread in the whole interval, summed. */
  longTasks: number;
};

/**
 * Records, in the page, when Enter went down and the main thread's long tasks, so each label's
 * time can be split against the requests' own timings (Resource Timing).
 */
const PHASE_PROBE = () => {
  const probe = { enterAt: 0, longTasks: [] as { start: number; duration: number }[] };
  (window as unknown as { __benchProbe: typeof probe }).__benchProbe = probe;
  window.addEventListener(
    "keydown",
    (event) => {
      if (event.key === "Enter") probe.enterAt = performance.now();
    },
    { capture: true },
  );
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: "longtask", buffered: false });
};

/** The phases of the label whose Enter the probe saw last, up to now (the next item just became ready). */
async function readPhases(page: Page): Promise<Phases> {
  return page.evaluate(() => {
    const probe = (
      window as unknown as { __benchProbe: { enterAt: number; longTasks: { start: number; duration: number }[] } }
    ).__benchProbe;
    const now = performance.now();
    const requests = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter(
      (entry) => entry.startTime >= probe.enterAt && ["fetch", "xmlhttprequest"].includes(entry.initiatorType),
    );
    const [write, pageData] = requests;
    const longTasks = probe.longTasks
      .filter((task) => task.start >= probe.enterAt && task.start < now)
      .reduce((sum, task) => sum + task.duration, 0);
    performance.clearResourceTimings();
    probe.longTasks = [];
    if (!write || !pageData)
      return {
        beforeWrite: 0,
        write: 0,
        betweenRequests: 0,
        pageData: 0,
        afterPageData: now - probe.enterAt,
        longTasks,
      };
    return {
      beforeWrite: write.startTime - probe.enterAt,
      write: write.responseEnd - write.startTime,
      betweenRequests: pageData.startTime - write.responseEnd,
      pageData: pageData.responseEnd - pageData.startTime,
      afterPageData: now - pageData.responseEnd,
      longTasks,
    };
  });
}

type AppRequest = import("@playwright/test").Request;

/** The app's own requests (page data and writes; not scripts, Monaco files or link prefetches) started while `during` runs. */
async function appRequests(page: Page, during: () => Promise<void>): Promise<AppRequest[]> {
  const seen: AppRequest[] = [];
  const onRequest = (request: AppRequest) => {
    if (["fetch", "xhr", "document"].includes(request.resourceType()) && !request.headers()["next-router-prefetch"])
      seen.push(request);
  };
  page.on("request", onRequest);
  try {
    await during();
  } finally {
    page.off("request", onRequest);
  }
  return seen;
}

/** Each request's time to its first byte (a streamed page keeps sending after that, so its end says little). */
function requestTimes(requests: AppRequest[]): { write: boolean; ms: number }[] {
  return requests.map((request) => ({ write: request.method() !== "GET", ms: request.timing().responseStart }));
}

/** Labels `count` items in turn by keyboard alone, alternating valid and invalid-with-one-category. */
async function labelItems(page: Page, count: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let index = 0; index < count; index++) {
    const before = await heading(page);
    const isValid = index % 2 === 0;
    const keys = isValid ? ["v", "Enter"] : ["i", "1", "Enter"];
    for (const key of keys.slice(0, -1)) await page.keyboard.press(key);
    const started = performance.now();
    if (index === count - 1) {
      await page.keyboard.press("Enter");
      break;
    }
    let readyMs = 0;
    const requests = await appRequests(page, async () => {
      await page.keyboard.press("Enter");
      await waitForNextItem(page, before);
      readyMs = performance.now() - started;
    });
    const phases = await readPhases(page);
    const language = await page.evaluate(() => document.querySelector("h1")?.nextElementSibling?.textContent ?? "?");
    await waitForCode(page);
    samples.push({
      kind: isValid ? "valid" : "invalid",
      keys: keys.length,
      readyMs,
      codeMs: performance.now() - started,
      requests: requestTimes(requests),
      phases,
      language,
    });
  }
  return samples;
}

async function screenshots(page: Page, openId: string, blindId: string) {
  await page.setViewportSize(LAPTOP);
  await page.goto(`${BASE}/campaigns/${openId}/next`);
  await waitForNextItem(page, null);
  await waitForCode(page);
  await page.keyboard.press("r");
  await page.getByTestId("run-row-full").waitFor({ timeout: 60_000 });
  await page.screenshot({ path: "docs/images/workspace-open.png" });
  await page.goto(`${BASE}/campaigns/${blindId}/next`);
  await waitForNextItem(page, null);
  await waitForCode(page);
  await page.screenshot({ path: "docs/images/workspace-blind-before.png" });
  await page.keyboard.press("i");
  await page.keyboard.press("1");
  await page.keyboard.press("Enter");
  await page.getByText("The critic is now shown").waitFor();
  await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Critic");
  await page.screenshot({ path: "docs/images/workspace-blind-after.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${BASE}/campaigns/${openId}/next`);
  await waitForNextItem(page, null);
  await waitForCode(page);
  await page.screenshot({ path: "docs/images/workspace-phone.png", fullPage: true });
}

function row(label: string, values: number[], keys: number): string {
  return `| ${label} | ${keys} | ${values.length} | ${percentile(values, 50).toFixed(0)} ms | ${percentile(values, 95).toFixed(0)} ms | ${Math.max(...values).toFixed(0)} ms |`;
}

/** How many of the app's requests each label took until the next item was ready, and how long the write and the page data took. */
function requestLine(samples: Sample[]): string {
  const counts = samples.map((sample) => sample.requests.length);
  const times = (write: boolean) =>
    samples.flatMap((sample) =>
      sample.requests.filter((request) => request.write === write && request.ms >= 0).map((request) => request.ms),
    );
  const writes = times(true);
  const reads = times(false);
  const spread = (values: number[]) =>
    values.length ? `p50 ${percentile(values, 50).toFixed(0)} ms, p95 ${percentile(values, 95).toFixed(0)} ms` : "none";
  return `Requests to the app per label, from Enter to the next item ready: ${Math.min(...counts)}–${Math.max(...counts)} (${samples.flatMap((sample) => sample.requests.filter((request) => request.write)).length} writes for ${samples.length} labels); to the first byte: the write (label and claim of the next item) ${spread(writes)}, the next item's page data ${spread(reads)}.`;
}

async function main(): Promise<void> {
  const database = await openDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  let server: ReturnType<typeof spawn> | null = null;
  const browser = await launchQuietChromium();
  try {
    const postgres = (await client.query<{ server_version: string }>("SHOW server_version")).rows[0].server_version;
    const demo = await loadDemoDatasetIfEmpty({ actor: SYSTEM_ACTOR.cli });
    await upsertUserFromCli({
      actor: SYSTEM_ACTOR.cli,
      email: "annotator@bench.test",
      role: "ANNOTATOR",
      languages: [...LANGUAGES],
      password: PASSWORD,
    });
    const admin = (
      await upsertUserFromCli({
        actor: SYSTEM_ACTOR.cli,
        email: "admin@bench.test",
        role: "ADMIN",
        languages: [],
        password: PASSWORD,
      })
    ).actor;
    const base = {
      dataset: DEMO_DATASET,
      overlap: 1,
      agreementFraction: 0,
      finalRule: "consensus" as const,
      leaseMinutes: 30,
    };
    const loop = await createCampaignWithItems({ actor: admin, input: { ...base, name: "bench-loop", blind: false } });
    const open = await createCampaignWithItems({
      actor: admin,
      input: { ...base, name: "Screenshots (open)", blind: false },
    });
    const blind = await createCampaignWithItems({
      actor: admin,
      input: { ...base, name: "Screenshots (blind)", blind: true },
    });
    await updateCampaignGuidelines({
      actor: admin,
      input: {
        campaignId: open.id,
        requireInvalidNote: false,
        guidelines: "## How we judge\n\nA record is **valid** when the statement, the solution and the tests agree.",
      },
    });
    server = await startServer(database.url);

    const context = await browser.newContext({ viewport: LAPTOP });
    const { blocked } = await allowLoopbackOnly(context);
    await context.addInitScript(PHASE_PROBE);
    const page = await context.newPage();
    await signIn(page, "annotator@bench.test");
    await page.goto(`${BASE}/campaigns/${loop.id}/next`);
    await waitForNextItem(page, null);
    await waitForCode(page);
    const count = Math.min(Number(options.items), loop.itemCount);
    console.error(`Labelling ${count} of ${demo?.imported ?? "?"} demo records…`);
    const samples = await labelItems(page, count);
    if (options.screenshots) await screenshots(page, open.id, blind.id);

    const valid = samples.filter((sample) => sample.kind === "valid");
    const invalid = samples.filter((sample) => sample.kind === "invalid");
    // The load says how much of the figures is waiting for a core.
    const machine = `${machineLine(describeMachine(postgres))} Chromium ${browser.version()}, headless, 1440×900, quiet-run switches, requests to other hosts than this machine aborted (${blocked.length} were). 1-minute load ${benchRun.load.before.toFixed(2)} at the start, ${(await import("node:os")).loadavg()[0].toFixed(2)} at the end.`;
    const section = [
      SECTION,
      "",
      `Run on ${new Date().toISOString().slice(0, 10)} with \`node scripts/run-ts.mjs scripts/bench/workspace.ts\` against a production build (\`next build\`), the demo dataset (prisma/demo/demo.jsonl) in a campaign of ${loop.itemCount} items, one annotator labelling ${count} items in turn by keyboard alone.`,
      'Time is from the submitting key (Enter) to the next item being ready: its heading, statement, solution and test shown, the form empty and answering keys; "code shown" waits further until Monaco has rendered the solution.',
      "",
      "| label | keys | n | ready p50 | ready p95 | ready max |",
      "|---|---:|---:|---:|---:|---:|",
      row(
        "valid (V, Enter)",
        valid.map((sample) => sample.readyMs),
        2,
      ),
      row(
        "invalid + one category (I, 1, Enter)",
        invalid.map((sample) => sample.readyMs),
        3,
      ),
      row(
        "all, until the code is shown",
        samples.map((sample) => sample.codeMs),
        0,
      ).replace("| 0 |", "| — |"),
      "",
      requestLine(samples),
      "",
      machine,
    ].join("\n");
    console.log(section);
    if (!options["no-write"]) writeBenchmarkSection(SECTION, section);
    const ready = samples.map((sample) => sample.readyMs);
    const code = samples.map((sample) => sample.codeMs);
    const phase = (name: keyof Phases) => {
      const values = samples.map((sample) => sample.phases[name]);
      return { p50: ms(percentile(values, 50)), p95: ms(percentile(values, 95)) };
    };
    const phaseNames: (keyof Phases)[] = [
      "beforeWrite",
      "write",
      "betweenRequests",
      "pageData",
      "afterPageData",
      "longTasks",
    ];
    benchRun.finish({
      nextItemReady: { p50: ms(percentile(ready, 50)), p95: ms(percentile(ready, 95)), n: ready.length },
      codeShown: { p50: ms(percentile(code, 50)), p95: ms(percentile(code, 95)) },
      phases: Object.fromEntries(phaseNames.map((name) => [name, phase(name)])),
      each: samples.map(
        (sample) =>
          `${sample.language} ${ms(sample.readyMs)} (write ${ms(sample.phases.write)}, page ${ms(sample.phases.pageData)}, after ${ms(sample.phases.afterPageData)})`,
      ),
      blockedRequests: blocked.length,
    });
  } finally {
    await browser.close();
    // Waits for the app to exit before the database stops under it.
    if (server) await stopApp(server);
    await client.end();
    await disconnectPrisma();
    await database.stop();
    if (isOwnDataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
