import { readFile } from "node:fs/promises";

import { type Browser, expect, type Page, test } from "@playwright/test";

import {
  admin,
  annotator,
  claimAndLabel,
  createCampaign,
  ensurePeople,
  importRecords,
  signedInPage,
  signIn,
  unique,
} from "./people";

test.beforeAll(async ({ browser }) => ensurePeople(browser));

// The validity report. Uses the shared admin and python annotator (ensurePeople); each test brings
// its own three-record python dataset and campaign, named uniquely, labelled through the API.

const critic = {
  rule_results: [{ rule: "Other Issues", result: "pass", reason: "Consistent." }],
  summary: { overall_pass: true, failed_rules: [], key_points: ["Consistent."] },
};

function record(run: string, name: string, a: number, b: number) {
  return {
    question: `# Report ${run} ${name}\n\nWrite \`${name}(a, b)\` in Python returning \`a + b\`.`,
    canonical_solution: `def ${name}(a, b):\n    return a + b\n`,
    demo_test_func: `assert ${name}(${a}, ${b}) == ${a + b}\n`,
    full_test_func: `assert ${name}(${b}, ${a}) == ${a + b}\n`,
    language: "python",
    difficulty: "easy",
    critic,
  };
}

/** The admin imports three python records and creates a campaign over them. */
async function campaign(page: Page) {
  const run = unique("rp");
  const dataset = `e2e-report-${run}`;
  const campaignName = `Report campaign ${run}`;
  await importRecords(page, dataset, [
    record(run, "rp_one", 1, 2),
    record(run, "rp_two", 3, 4),
    record(run, "rp_three", 5, 6),
  ]);
  const created = await createCampaign(page, { dataset, name: campaignName });
  return { run, dataset, campaignName, campaignId: created.id, itemCount: created.itemCount };
}

const labels = [
  { valid: true },
  { valid: false, categories: ["wrong-expected-output"], note: "The second test expects the wrong sum." },
  { valid: true },
];

/** A campaign the annotator labelled: two records valid, one invalid. */
async function labelledCampaign(browser: Browser) {
  const page = await signedInPage(browser, admin);
  const state = await campaign(page);
  await page.context().close();
  const annotatorPage = await signedInPage(browser, annotator);
  for (const body of labels) await claimAndLabel(annotatorPage, state.campaignId, body);
  await annotatorPage.context().close();
  return state;
}

test("the admin imports three python records and creates a campaign", async ({ page }) => {
  await signIn(page, admin);
  expect((await campaign(page)).itemCount).toBe(3);
});

test("the annotator labels two records valid and one invalid, and may not open the report", async ({ browser }) => {
  const admins = await signedInPage(browser, admin);
  const { campaignId, campaignName } = await campaign(admins);
  await admins.context().close();
  const page = await signedInPage(browser, annotator);
  for (const body of labels) await claimAndLabel(page, campaignId, body);
  await page.goto(`/campaigns/${campaignId}`);
  await expect(page.getByRole("heading", { name: campaignName })).toBeVisible();
  await expect(page.getByRole("link", { name: "Report", exact: true })).toHaveCount(0);
  const forbidden = await page.goto(`/campaigns/${campaignId}/report`);
  expect(forbidden?.status()).toBe(404);
  await page.context().close();
});

test("the admin reads validity per language with its interval, the totals and the breakdowns", async ({
  page,
  browser,
}) => {
  const { campaignId, campaignName } = await labelledCampaign(browser);
  await signIn(page, admin);
  await page.goto(`/campaigns/${campaignId}`);
  await page.getByRole("link", { name: "Report", exact: true }).click();
  await expect(page.getByRole("heading", { name: `Validity report: ${campaignName}` })).toBeVisible();

  const table = page.getByRole("table", { name: /Validity by language/ });
  const python = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "Python", exact: true }) });
  const cells = python.getByRole("cell");
  // Sampled, labelled, resolved (n), valid, validity [95% Wilson interval].
  await expect(cells.nth(0)).toHaveText("3");
  await expect(cells.nth(1)).toHaveText("3");
  await expect(cells.nth(2)).toHaveText("3");
  await expect(cells.nth(3)).toHaveText("2");
  await expect(cells.nth(4)).toHaveText("66.7% [20.8, 93.9]");
  // Critic pass rests on three records: the rate says so.
  await expect(cells.nth(5)).toHaveText("100.0% (n = 3)");
  await expect(python).toContainText("Wrong expected output (1)");

  const pooled = table
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: "All languages (pooled)" }) });
  await expect(pooled.getByRole("cell").nth(4)).toHaveText("66.7% [20.8, 93.9]");
  const macro = table
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: "Mean over languages (macro)" }) });
  await expect(macro.getByRole("cell").nth(4)).toContainText("66.7%");
  await expect(macro.getByRole("cell").nth(4)).toContainText("No interval");

  await expect(
    page.getByRole("img", { name: /^Validity per language with 95% intervals: Python 66\.7% \[20\.8, 93\.9\], n = 3/ }),
  ).toBeVisible();
  await expect(
    page.getByRole("img", { name: /^Error categories per language: Python: Wrong expected output 1/ }),
  ).toBeVisible();

  const byCategory = page.getByRole("table", { name: "Error categories of invalid items" });
  await expect(byCategory.getByRole("row", { name: /Wrong expected output/ })).toContainText("100.0%");
  const byDifficulty = page.getByRole("table", { name: "Validity by difficulty" });
  await expect(byDifficulty.getByRole("row", { name: /^easy/i })).toContainText("66.7% [20.8, 93.9]");
});

test("the admin downloads the Markdown table and sees it on the page", async ({ page, browser }) => {
  const { campaignId, campaignName } = await labelledCampaign(browser);
  await signIn(page, admin);
  await page.goto(`/campaigns/${campaignId}/report`);
  await expect(page.getByRole("heading", { name: "Downloads" })).toBeVisible();
  await expect(page.getByLabel("Markdown table, paper-ready")).toContainText("| Python | 66.7% [20.8, 93.9] | n = 3 |");

  const downloadPromise = page.waitForEvent("download");
  await page.getByRole("link", { name: "Table as Markdown" }).click();
  const download = await downloadPromise;
  const today = new Date().toISOString().slice(0, 10);
  expect(download.suggestedFilename()).toBe(`${campaignName.replaceAll(" ", "-")}-report-${today}.md`);
  const markdown = await readFile((await download.path()) ?? "", "utf8");
  expect(markdown).toContain("| Python |");
  expect(markdown).toContain("66.7% [20.8, 93.9]");

  const files: Record<string, string> = {
    "Table as CSV": "report",
    "Report as JSON": "report",
    "Annotations as CSV": "annotations",
    "Annotations as JSONL": "annotations",
    "Final labels as CSV": "labels",
    "Final labels as JSONL": "labels",
    "Verified subset as JSONL": "verified",
  };
  for (const [name, what] of Object.entries(files)) {
    const href = await page.getByRole("link", { name }).getAttribute("href");
    const response = await page.request.get(href ?? "");
    expect(response.status(), name).toBe(200);
    expect(response.headers()["content-disposition"], name).toMatch(
      new RegExp(`filename="${campaignName.replaceAll(" ", "-")}-${what}-${today}\\.(csv|json|jsonl)"`),
    );
  }
  // One row per annotation: three records, one annotator each.
  const annotations = await page.request.get(`/api/v1/campaigns/${campaignId}/export?what=annotations&format=csv`);
  expect((await annotations.text()).trim().split("\n")).toHaveLength(4);
});

test("the dataset's report across its campaigns shows the same Python row", async ({ page, browser }) => {
  const { dataset } = await labelledCampaign(browser);
  await signIn(page, admin);
  await page.goto(`/datasets/${dataset}`);
  await page.getByRole("link", { name: "Report across campaigns" }).click();
  await expect(page.getByRole("heading", { name: `Validity report: ${dataset}, all campaigns` })).toBeVisible();
  const python = page
    .getByRole("table", { name: /Validity by language/ })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: "Python", exact: true }) });
  await expect(python.getByRole("cell").nth(4)).toHaveText("66.7% [20.8, 93.9]");
  await expect(page.getByText("| Python | 66.7% [20.8, 93.9] | n = 3 |")).toBeVisible();
  await expect(page.getByText("strongest resolved label").first()).toBeVisible();
  const href = await page.getByRole("link", { name: "Report as JSON" }).getAttribute("href");
  const response = await page.request.get(href ?? "");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-disposition"]).toContain(`filename="${dataset}-report-`);
});

test("the admin adds records to the running campaign and sees the strata before and after", async ({
  page,
  browser,
}) => {
  const { run, dataset, campaignId } = await labelledCampaign(browser);
  await signIn(page, admin);
  await importRecords(page, dataset, [record(run, "rp_four", 7, 8), record(run, "rp_five", 9, 1)]);
  await page.goto(`/campaigns/${campaignId}`);
  const form = page.getByRole("form", { name: "Add records" });
  // The campaign took every record (no size); left empty, it takes every record again.
  await expect(form.getByLabel("Records per language")).toHaveValue("");
  await form.getByRole("button", { name: "Add records" }).click();
  const status = form.getByRole("status");
  await expect(status).toContainText("Added 2 records.");
  await expect(status.getByRole("row", { name: /Python/ })).toHaveText(/Python\s*3\s*5\s*\+2/);
  await page.reload();
  await expect(page.getByText(/^5 items from/)).toBeVisible();
});
