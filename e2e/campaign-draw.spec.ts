import { expect, test } from "@playwright/test";

import { RECORDS_DRAWN_IN_REQUEST } from "../lib/campaigns/item-draw";

import { admin, annotator, ensurePeople, importRecords, signedInPage, signIn } from "./people";

// A campaign over a dataset above RECORDS_DRAWN_IN_REQUEST records (issue 36): the form answers at
// once that its items are being drawn, the campaign list and page follow the job without a reload
// until the items are in, the Jobs page lists the draw, and the annotator can then start. The same
// dataset's other long work answers at once too and is followed through the pages: records added
// to a campaign, the campaign deleted, a release cut.
test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const dataset = `e2e-draw-${run}`;
const name = `Large ${run}`;
const grown = `Grown ${run}`;
const RECORDS = RECORDS_DRAWN_IN_REQUEST + 50;
const shown = RECORDS.toLocaleString("en-US");

const records = Array.from({ length: RECORDS }, (_, index) => ({
  question: `# Draw ${run} ${index}\n\nWrite \`draw_${index}(a, b)\` in Python returning \`a + b\`.`,
  canonical_solution: `def draw_${index}(a, b):\n    return a + b\n`,
  demo_test_func: `assert draw_${index}(1, 2) == 3\n`,
  full_test_func: `assert draw_${index}(2, 3) == 5\n`,
  language: "python",
}));

test.beforeAll(async ({ browser }) => {
  await ensurePeople(browser);
  const page = await signedInPage(browser, admin);
  await importRecords(page, dataset, records);
  await page.context().close();
});

test("an admin creates a campaign over a large dataset: it answers at once, then its items arrive", async ({
  page,
}) => {
  await signIn(page, admin);
  await page.goto("/campaigns");
  await page.getByLabel("Dataset").selectOption(dataset);
  await page.getByLabel("Campaign name").fill(name);
  await page.getByLabel("Sampling").selectOption("suspicion");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByRole("status")).toContainText(
    `Created ${name}; drawing up to ${shown} items in the background`,
  );
  // The list says "drawing items…" while the job runs (it may be done already), then, refreshing
  // itself, the count.
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(new RegExp(`drawing items…|${shown}`));
  await expect(row).toContainText(shown);

  await page.getByRole("status").getByRole("link", { name }).click();
  await expect(page.getByText(`${shown} items from ${dataset}`)).toBeVisible();
  await expect(page.getByTestId("item-draw")).toHaveCount(0);

  await page.getByRole("link", { name: "Jobs", exact: true }).click();
  const job = page.getByTestId("job-row").filter({ hasText: `Campaign items drawn · ${dataset}` });
  await expect(job).toHaveCount(1);
  await expect(job.getByTestId("job-status")).toHaveText("succeeded");
  await expect(job.getByTestId("job-counts")).toHaveText(`${shown} of ${shown} records`);
  await expect(job).toContainText(`${shown} items drawn`);
});

test("the annotator starts the drawn campaign", async ({ page }) => {
  await signIn(page, annotator);
  await page.goto("/campaigns");
  await page.getByRole("link", { name }).click();
  await page.getByRole("link", { name: "Start" }).click();
  await expect(page).toHaveURL(/\/items\/itm_/);
});

test("records added to a large campaign arrive through a job, and the campaign page follows it", async ({ page }) => {
  await signIn(page, admin);
  await page.goto("/campaigns");
  await page.getByLabel("Dataset").selectOption(dataset);
  await page.getByLabel("Campaign name").fill(grown);
  await page.getByLabel("Records per language").fill("10");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await page.getByRole("status").getByRole("link", { name: grown }).click();
  await expect(page.getByText(`10 items from ${dataset}`)).toBeVisible();

  const form = page.getByRole("form", { name: "Add records" });
  await form.getByLabel("Records per language").fill("");
  await form.getByRole("button", { name: "Add records" }).click();
  // "Adding records…" while the job runs (it may be done already); the page refreshes itself until
  // the items are in, and the notice goes.
  await expect(page.getByText(`${shown} items from ${dataset}`)).toBeVisible();
  await expect(page.getByTestId("extension")).toHaveCount(0);
  await page.reload();
  await expect(page.getByText(`${shown} items from ${dataset}`)).toBeVisible();

  await page.getByRole("link", { name: "Jobs", exact: true }).click();
  const job = page.getByTestId("job-row").filter({ hasText: `Campaign records added · ${dataset}` });
  await expect(job.getByTestId("job-status")).toHaveText("succeeded");
  await expect(job).toContainText(`${(RECORDS - 10).toLocaleString("en-US")} items added`);
});

test("a large campaign deleted leaves the list at once and is removed by a job", async ({ page }) => {
  await signIn(page, admin);
  await page.goto("/campaigns");
  await page.getByRole("link", { name: grown }).click();
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Delete campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns$/);
  await expect(page.getByRole("link", { name: grown })).toHaveCount(0);
  // "… is being deleted…" until the job is done (it may be already), then nothing.
  await expect(page.getByRole("list", { name: "Campaign deletions" }).getByText(grown)).toHaveCount(0);
  await expect(page.getByRole("link", { name })).toBeVisible();

  await page.getByRole("link", { name: "Jobs", exact: true }).click();
  const job = page.getByTestId("job-row").filter({ hasText: `Campaign deleted · ${dataset}` });
  await expect(job.getByTestId("job-status")).toHaveText("succeeded");
  await expect(job).toContainText(`${shown} items removed`);
});

test("a release of a large dataset is cut by a job: listed as being cut, then downloadable", async ({ page }) => {
  await signIn(page, admin);
  await page.goto(`/datasets/${dataset}`);
  const cut = page.getByRole("form", { name: "Cut a release" });
  await cut.getByLabel("Release name").fill("v1");
  await cut.getByRole("button", { name: "Cut a release" }).click();
  await expect(cut.getByRole("status")).toHaveText(
    "Release v1 is being cut in the background: the list below shows it when it is ready.",
  );
  // "being cut…" while the job runs (it may be done already); the list refreshes itself until the
  // archive can be downloaded, and keeps it after a reload.
  const releases = page.getByRole("table", { name: "Releases" });
  await expect(releases.getByRole("link", { name: "v1.tar.gz" })).toBeVisible();
  await page.reload();
  await expect(releases.getByRole("link", { name: "v1.tar.gz" })).toBeVisible();
  await expect(releases.getByText("being cut…")).toHaveCount(0);

  await page.getByRole("link", { name: "Jobs", exact: true }).click();
  const job = page.getByTestId("job-row").filter({ hasText: `Release cut · ${dataset}` });
  await expect(job.getByTestId("job-status")).toHaveText("succeeded");
  await expect(job).toContainText(`0 in · ${shown} out`);
});
