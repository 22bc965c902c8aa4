import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { type Browser, expect, type Page, test } from "@playwright/test";

import { processesRunning } from "@/lib/testing/processes";

import { ensurePeople, SAME_ORIGIN, setupCode } from "./people";

test.beforeAll(async ({ browser }) => ensurePeople(browser));

// The sandbox recovers without a restart. This spec runs its own server, started while bubblewrap
// "is not installed": VERITY_BWRAP names a path that does not exist yet. The test then creates it
// (a link to the real bubblewrap) and the next run works. It also checks that a client going away
// kills its run. Own port and data folder, so the shared e2e server is untouched.
test.describe.configure({ mode: "serial" });

const port = 3252;
const base = `http://localhost:${port}`;
const dataDir = join(process.cwd(), ".data", "e2e-sandbox-recovery");
const admin = { email: "recovery-admin@example.test", password: "recovery-admin-password" };
const annotator = { email: "recovery-ann@example.test", password: "recovery-annotator-password" };
const campaignName = "Recovery campaign";
const cannotRun = "Python can't run right now; your admin has been told.";

let server: ChildProcess;
let bwrapFolder = "";
let recordId = 0;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  rmSync(dataDir, { recursive: true, force: true });
  bwrapFolder = mkdtempSync(join(tmpdir(), "verity-e2e-bwrap-"));
  // The sandbox user starts bubblewrap through this folder once the link exists.
  chmodSync(bwrapFolder, 0o755);
  server = spawn(process.execPath, ["scripts/verity.mjs", "serve"], {
    env: {
      ...process.env,
      VERITY_DATA_DIR: dataDir,
      VERITY_DB_PORT: "54453",
      PORT: String(port),
      VERITY_DEMO: "0",
      VERITY_PUBLIC_URL: base,
      NEXTAUTH_SECRET: "e2e-only-secret-not-for-production",
      VERITY_BWRAP: join(bwrapFolder, "bwrap"),
    },
    stdio: "ignore",
  });
  await expect(async () => {
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  }).toPass({ timeout: 150_000 });
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
  if (bwrapFolder) rmSync(bwrapFolder, { recursive: true, force: true });
});

async function signIn(page: Page, user: { email: string; password: string }) {
  await page.goto(`${base}/signin`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/datasets$/);
}

async function openFirstItem(page: Page) {
  await signIn(page, annotator);
  await page.getByRole("link", { name: "Campaigns" }).click();
  await page.getByRole("link", { name: campaignName }).click();
  await page.getByRole("link", { name: "Start" }).click();
  await expect(page).toHaveURL(/\/items\/itm_/);
}

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

test("an admin sets up a python campaign and invites an annotator", async ({ page, browser }) => {
  await page.goto(`${base}/datasets`);
  await expect(page.getByRole("heading", { name: "Create the first admin" })).toBeVisible();
  await page.getByLabel("Setup code").fill(setupCode);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Name").fill("Rita Recovery");
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Create admin account" }).click();
  await expect(page.getByRole("heading", { name: "Datasets" })).toBeVisible();

  const record = {
    question: "Write `twice(x)` in Python returning `2 * x`.",
    canonical_solution: "def twice(x):\n    return 2 * x\n",
    demo_test_func: "assert twice(2) == 4\n",
    full_test_func: "assert twice(0) == 0\nassert twice(-3) == -6\n",
    language: "python",
  };
  const imported = await page.request.post(`${base}/api/v1/datasets/recovery/records`, {
    data: JSON.stringify(record),
    headers: { ...SAME_ORIGIN, "content-type": "application/x-ndjson" },
  });
  expect(imported.status()).toBe(201);
  const campaign = await page.request.post(`${base}/api/v1/campaigns`, {
    headers: SAME_ORIGIN,
    data: { dataset: "recovery", name: campaignName, languages: ["python"], seed: "e2e" },
  });
  expect(campaign.status()).toBe(201);

  await page.getByRole("link", { name: "Users" }).click();
  await page.getByLabel("Email").fill(annotator.email);
  await page.getByLabel("Role").selectOption("ANNOTATOR");
  await page.getByLabel("Python").check();
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const link = await page.getByLabel("Invitation link").inputValue();
  const invitee = await newPage(browser);
  await invitee.goto(link);
  await invitee.getByLabel("Your name").fill("Rick Recovery");
  await invitee.getByLabel("Password").fill(annotator.password);
  await invitee.getByRole("button", { name: "Create account" }).click();
  await expect(invitee.getByText("Rick Recovery · annotator")).toBeVisible();
});

test("runs fail in plain words while bubblewrap is missing and work once it is installed, without a restart", async ({
  page,
}) => {
  await openFirstItem(page);
  recordId = Number(/\d+/.exec((await page.getByRole("heading", { name: /^Record \d+$/ }).textContent()) ?? "")?.[0]);
  await expect(page.getByText(cannotRun).first()).toBeVisible();

  // A refused run says it once: the note above the latest run, not again as the run's error.
  const refusedRun = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByRole("button", { name: /Run both/ }).click();
  await refusedRun;
  await expect(page.getByRole("button", { name: /Run both/ })).toBeEnabled();
  await expect(page.getByText(cannotRun)).toHaveCount(1);
  await page.getByRole("button", { name: /Edit & run/ }).click();
  await page.getByRole("button", { name: /Run edited code/ }).click();
  await expect(page.getByText(cannotRun)).toHaveCount(2);
  // Annotators never see operator commands or settings.
  await expect(page.locator("body")).not.toContainText("npm run");
  await expect(page.locator("body")).not.toContainText("VERITY_");
  await expect(page.locator("body")).not.toContainText("bwrap");

  // The operator installs bubblewrap where the app looks for it; nothing is restarted.
  symlinkSync("/usr/bin/bwrap", join(bwrapFolder, "bwrap"));

  await page.getByRole("button", { name: /Run both/ }).click();
  const latest = page.getByRole("region", { name: "Latest run" });
  await expect(latest.getByTestId("run-row-demo")).toContainText("PASSED", { timeout: 45_000 });
  await expect(latest.getByTestId("run-row-full")).toContainText("PASSED");
  // A run that worked takes back the "cannot run" note.
  await expect(latest.getByText(cannotRun)).toHaveCount(0);
  await page.getByRole("button", { name: /Run edited code/ }).click();
  await expect(page.getByTestId("scratch-result")).toContainText("PASSED", { timeout: 45_000 });
  // After a reload the page knows too.
  await page.reload();
  await expect(page.getByRole("heading", { name: /^Record \d+$/ })).toBeVisible();
  await expect(page.getByText(cannotRun)).toHaveCount(0);
});

test("a client that goes away cancels its run: the program is killed at once", async ({ page }) => {
  expect(recordId).toBeGreaterThan(0);
  await signIn(page, annotator);
  const cookie = (await page.context().cookies()).map((entry) => `${entry.name}=${entry.value}`).join("; ");
  // A unique command line finds the program among everything else on this machine.
  const argv = ["sleep", `29.${process.pid}${Date.now() % 100_000}`];
  const controller = new AbortController();
  const request = fetch(`${base}/api/v1/records/${recordId}/runs`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json", origin: base },
    body: JSON.stringify({
      kind: "scratch",
      solution: `import subprocess\nsubprocess.run(${JSON.stringify(argv)})\n`,
      test: "",
    }),
    signal: controller.signal,
  }).catch((error: unknown) => error);
  await expect(async () => expect((await processesRunning(argv)).length).toBeGreaterThan(0)).toPass({
    timeout: 20_000,
  });
  controller.abort();
  await request;
  // The python timeout is 5 s: a run left alone would keep its program for seconds more.
  await expect(async () => expect(await processesRunning(argv)).toEqual([])).toPass({ timeout: 2_000 });
});
