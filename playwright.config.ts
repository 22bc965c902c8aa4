import { defineConfig, devices } from "@playwright/test";

import { E2E_SECRET, GLOBAL_STATE } from "./e2e/people";
import { testChromiumPath } from "./lib/testing/chromium";

// End-to-end tests drive Debian's Chromium, its headless shell when installed (Playwright cannot
// download its own browser here; lib/testing/chromium.ts), against a real Verity server on its own
// embedded PostgreSQL folder and port.
const PORT = Number(process.env.VERITY_E2E_PORT ?? 3100);
const baseURL = `http://localhost:${PORT}`;

export default defineConfig({
  testDir: "e2e",
  // A spec file runs whole in one worker (its tests in order); two workers take files side by side.
  fullyParallel: false,
  workers: 2,
  // A focused test left in a spec (test.only) fails the run under CI instead of skipping the rest.
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: testChromiumPath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  // Three lanes, chosen by what a spec does, never by its file's name or place in the folder:
  // - foundation (e2e/foundation.spec.ts) needs a fresh install (it makes the first admin from the
  //   setup code), so it runs first, alone; the other lanes start from the accounts it made.
  // - parallel: every other spec, two workers, one file per worker at a time. Such a spec brings its
  //   own datasets, campaigns and people (unique()) and asserts on them, never on instance-wide counts.
  // - global-state: the specs marked `{ tag: GLOBAL_STATE }` ("@global-state", e2e/people.ts), which
  //   change or fill something of the whole server that a spec running beside them would see or
  //   break. One worker, after the parallel lane has finished, whether it passed or not (it is the
  //   foundation's teardown project: Playwright runs a teardown once every project that depends on its
  //   setup is done). The marked specs and why:
  //   - sign-in-limits: 21 wrong passwords at once fill the server's one line of passwords waiting to
  //     be hashed (lib/server/auth/password-hasher.ts: one hashing thread here, 32 strangers waiting
  //     at most, the rest refused "Too many sign-ins are being checked"). Beside it, another spec's
  //     first sign-in would wait behind 21 hashes or be refused, and its sign-ins would take places
  //     in the line this spec counts on (it asserts exactly 20 checked and 1 refused).
  //   Specs that only look like global state stay parallel: shutdown and sandbox-recovery stop and
  //   break a server of their own (own port, data folder and database); unreachable-server drops
  //   calls in its own browser only; worker-health reads the queue and the live worker, which no
  //   spec stops; sessions signs out and disables people it invited itself.
  // Run one spec with its lane's setup: `npx playwright test e2e/<name>.spec.ts` (a parallel spec
  // also brings the foundation and then the whole global-state lane, its teardown; add --no-deps to
  // run the file alone: every spec can, on a fresh database, through ensurePeople).
  projects: [
    {
      name: "foundation",
      testMatch: /foundation\.spec\.ts$/,
      teardown: "global-state",
      use: { ...devices["Desktop Chrome"] },
    },
    {
      name: "parallel",
      testIgnore: /foundation\.spec\.ts$/,
      grepInvert: new RegExp(GLOBAL_STATE),
      dependencies: ["foundation"],
      use: { ...devices["Desktop Chrome"] },
    },
    {
      name: "global-state",
      testIgnore: /foundation\.spec\.ts$/,
      grep: new RegExp(GLOBAL_STATE),
      workers: 1,
      use: { ...devices["Desktop Chrome"] },
    },
  ],
  webServer: {
    command: "rm -rf .data/e2e && node scripts/verity.mjs serve",
    url: `${baseURL}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    env: {
      VERITY_DATA_DIR: ".data/e2e",
      VERITY_DB_PORT: process.env.VERITY_E2E_DB_PORT ?? "54359",
      PORT: String(PORT),
      VERITY_DEMO: "0",
      VERITY_PUBLIC_URL: baseURL,
      NEXTAUTH_SECRET: E2E_SECRET,
    },
    stdout: "pipe",
    stderr: "pipe",
  },
});
