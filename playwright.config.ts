import { defineConfig, devices } from "@playwright/test";

import { E2E_SECRET } from "./e2e/people";

// End-to-end tests drive Debian's Chromium (Playwright cannot download its own browser here)
// against a real Verity server on its own embedded PostgreSQL folder and port.
const PORT = Number(process.env.VERITY_E2E_PORT ?? 3100);
const baseURL = `http://localhost:${PORT}`;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
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
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
  // The foundation spec is the one that needs a fresh install (it makes the first admin from the
  // setup code): it runs first as a project of its own, whatever the other files are called.
  projects: [
    { name: "foundation", testMatch: /foundation\.spec\.ts$/, use: { ...devices["Desktop Chrome"] } },
    {
      name: "chromium",
      testIgnore: /foundation\.spec\.ts$/,
      dependencies: ["foundation"],
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
