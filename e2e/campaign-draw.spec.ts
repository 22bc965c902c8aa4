import { expect, test } from "@playwright/test";

import { RECORDS_DRAWN_IN_REQUEST } from "../lib/campaigns/item-draw";

import { admin, annotator, ensurePeople, importRecords, signedInPage, signIn } from "./people";

// A campaign over a dataset above RECORDS_DRAWN_IN_REQUEST records (issue 36): the form answers at
// once that its items are being drawn, the campaign list and page follow the job without a reload
// until the items are in, the Jobs page lists the draw, and the annotator can then start.
test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const dataset = `e2e-draw-${run}`;
const name = `Large ${run}`;
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
