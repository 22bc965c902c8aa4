import { expect, test } from "@playwright/test";

import { criticAnswer, type FakeOpenAI, startFakeOpenAI } from "../lib/testing/fake-openai";

import { admin, annotator, ensurePeople, importRecords, signedInPage, signIn } from "./people";

// The Jobs page: an admin starts a verification from the dataset page and watches it on /jobs (a
// progress bar, the page refreshing itself until the batch ends, its rate, who started it, its
// result and a link to its page); then starts a critic run against a slow fake endpoint and pauses,
// resumes and cancels it from /jobs. An annotator's Jobs page holds no import and no critic run.
// Needs bubblewrap and Python (npm run sandbox:install) for the verification.
test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const dataset = `e2e-jobs-${run}`;
const criticName = `jobs-judge-${run}`;
let fake: FakeOpenAI;

const records = Array.from({ length: 6 }, (_, index) => ({
  question: `# Jobs ${run} ${index}\n\nWrite \`jobs_${index}(a, b)\` in Python returning \`a + b\`.`,
  canonical_solution: `def jobs_${index}(a, b):\n    return a + b\n`,
  demo_test_func: `assert jobs_${index}(1, 2) == 3\n`,
  full_test_func: `assert jobs_${index}(2, 3) == 5\n`,
  language: "python",
}));

test.beforeAll(async ({ browser }) => {
  await ensurePeople(browser);
  // Three seconds a reply, one at a time: the run lasts long enough to be paused by hand.
  fake = await startFakeOpenAI(() => ({ content: criticAnswer({ pass: true }), delayMs: 3000 }));
  const page = await signedInPage(browser, admin);
  await importRecords(page, dataset, records);
  await page.context().close();
});

test.afterAll(async () => {
  await fake?.close();
});

test("an admin starts a verification and watches it to its end on the Jobs page", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, admin);
  await page.goto(`/datasets/${dataset}`);
  await page.getByRole("button", { name: "Verify records" }).click();
  await expect(page.getByRole("progressbar", { name: "Verification progress" })).toBeVisible();

  await page.getByRole("link", { name: "Jobs", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Jobs", exact: true })).toBeVisible();
  const row = page.getByTestId("job-row").filter({ hasText: `Verification · ${dataset}` });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("progressbar", { name: "Verification progress" })).toBeVisible();
  // Who started it: the admin's name (foundation.spec.ts names them), or their email when unnamed.
  await expect(row).toContainText(/Ada Admin|admin@example\.test/);
  // No reload by hand: the page refreshes itself while the batch runs.
  await expect(row.getByTestId("job-status")).toHaveText("succeeded", { timeout: 90_000 });
  await expect(row.getByTestId("job-counts")).toHaveText("6 of 6 records");
  await expect(row).toContainText("6 pass · 0 fail");
  await expect(row).toContainText(/\d+ records\/(min|h)/);
  await expect(row.getByRole("button")).toHaveCount(0);
  // The import that made the dataset is a job too.
  await expect(page.getByTestId("job-row").filter({ hasText: `Import · ${dataset}` })).toContainText(
    "6 records imported",
  );

  await row.getByRole("link", { name: `Verification · ${dataset}` }).click();
  await expect(page).toHaveURL(/\/verifications\//);
});

test("an admin pauses, resumes and cancels a critic run from the Jobs page", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, admin);
  await page.goto("/critics");
  const form = page.getByRole("form", { name: "Critic" });
  await form.getByLabel("Name").fill(criticName);
  await form.getByLabel("Base URL").fill(fake.baseUrl);
  await form.getByLabel("Model").fill("fake-judge");
  await form.getByLabel("Requests at once").fill("1");
  await form.getByRole("button", { name: "Save critic" }).click();
  await expect(form.getByRole("status")).toHaveText(`Saved ${criticName}, version 1.`);
  const runForm = page.getByRole("form", { name: "Start a critic run" });
  await runForm.getByLabel("Critic").selectOption(criticName);
  await runForm.getByLabel("Dataset").selectOption(dataset);
  await runForm.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/critics\/runs\//);

  await page.goto("/jobs?kind=critic");
  const row = page.getByTestId("job-row").filter({ hasText: `${criticName} version 1` });
  await expect(row.getByTestId("job-status")).toHaveText("running");
  await expect(row.getByRole("progressbar", { name: "Critic run progress" })).toBeVisible();
  await row.getByRole("button", { name: "Pause" }).click();
  await expect(row.getByTestId("job-status")).toHaveText("paused");
  await expect(row.getByRole("button", { name: "Pause" })).toHaveCount(0);
  await row.getByRole("button", { name: "Resume" }).click();
  await expect(row.getByTestId("job-status")).toHaveText("running");
  await row.getByRole("button", { name: "Cancel" }).click();
  await expect(row.getByTestId("job-status")).toHaveText("cancelled");
  await expect(row.getByRole("button")).toHaveCount(0);
  // Fewer than every record was asked: the cancel stopped it.
  await expect(row.getByTestId("job-counts")).not.toHaveText("6 of 6 records");

  // The run's own page agrees.
  await row.getByRole("link", { name: `Critic run · ${dataset}` }).click();
  await expect(page.getByTestId("run-status")).toHaveText("cancelled");
});

// An annotator reads the kinds of long work on the datasets and campaigns they see: verification,
// evidence and solution runs, and the item draws, extensions and deletions of large campaigns (no
// release cuts: releases are not theirs to read).
test("an annotator's Jobs page holds no import and no critic run", async ({ page }) => {
  await signIn(page, annotator);
  await page.getByRole("link", { name: "Jobs", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Jobs", exact: true })).toBeVisible();
  await expect(page.locator('[data-kind="critic"], [data-kind="import"]')).toHaveCount(0);
  await expect(page.getByRole("combobox", { name: "Kind" }).locator("option")).toHaveText([
    "every kind",
    "Verification",
    "Evidence (mutants, flaky reruns)",
    "Solution run",
    "Campaign items drawn",
    "Campaign records added",
    "Campaign deleted",
  ]);
});
