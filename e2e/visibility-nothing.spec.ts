import { type Browser, expect, test } from "@playwright/test";

import {
  addPerson,
  admin,
  createCampaign,
  ensurePeople,
  importRecords,
  invite,
  SAME_ORIGIN,
  signedInPage,
  signIn,
  signInAsAdmin,
  unique,
  verifyDataset,
} from "./people";

test.beforeAll(async ({ browser }) => ensurePeople(browser));

// Runs in a full run or alone (ensurePeople makes the shared people). A campaign created with the
// form's "Nothing" level keeps even the run results from an annotator before their first label: no
// run badge, no latest run, no evidence rows, on the workspace, the record page and over REST — and
// shows them once the label is in. Each test sets up everything it needs, through the API for the
// steps before its own.

/** The names of one story: its dataset, campaign and annotator. */
function story() {
  const run = unique("no");
  return {
    dataset: `e2e-nothing-${run}`,
    campaignName: `Nothing shown ${run}`,
    annotator: { email: `nothing-ann-${run}@example.test`, password: "annotator-password-9", name: `Plain ${run}` },
    record: {
      question: `# Nothing ${run}\n\nWrite \`same(a)\` in Python returning \`a\`.`,
      canonical_solution: "def same(a):\n    return a\n",
      demo_test_func: "assert same(1) == 1\n",
      full_test_func: "assert same(2) == 2\n",
      language: "python",
    },
  };
}

/** Through the API: the record verified, a campaign showing nothing before the first label, its annotator. */
async function nothingCampaign(browser: Browser) {
  const names = story();
  const page = await signedInPage(browser, admin);
  await importRecords(page, names.dataset, [names.record]);
  await verifyDataset(page, names.dataset);
  const { id } = await createCampaign(page, {
    dataset: names.dataset,
    name: names.campaignName,
    visibility: "nothing",
    seed: undefined,
  });
  await addPerson(page, names.annotator, "ANNOTATOR");
  await page.context().close();
  return { ...names, campaignId: id };
}

test("the admin verifies a record and creates a campaign showing nothing with the form", async ({ page, browser }) => {
  const { dataset, campaignName, annotator, record } = story();
  await signInAsAdmin(page);
  await importRecords(page, dataset, [record]);
  await verifyDataset(page, dataset);

  await page.goto("/campaigns");
  await page.getByLabel("Dataset").selectOption(dataset);
  await page.getByLabel("Campaign name").fill(campaignName);
  const level = page.getByLabel("Before their first label, annotators see");
  await expect(level).toHaveValue("all");
  await level.selectOption({ label: "Nothing" });
  await expect(page.getByTestId("visibility-explanation")).toContainText("no run results");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByRole("status")).toContainText(`Created ${campaignName} with 1 item.`);
  await page.getByRole("status").getByRole("link", { name: campaignName }).click();
  await expect(page).toHaveURL(/\/campaigns\/[^/]+$/);
  // The settings show the level, and may still change it: nobody has claimed an item.
  const settings = page.getByRole("form", { name: "Campaign settings" });
  await expect(settings.getByLabel("Before their first label, annotators see")).toHaveValue("nothing");
  await expect(settings.getByLabel("Before their first label, annotators see")).toBeEnabled();
  await invite(page, browser, annotator, "ANNOTATOR");
});

test("before labelling, the annotator sees no run result anywhere; after, they see it", async ({ page, browser }) => {
  const { dataset, annotator, campaignId } = await nothingCampaign(browser);
  await signIn(page, annotator);
  await page.goto(`/campaigns/${campaignId}/next`);
  await expect(page).toHaveURL(/\/items\//);
  const itemId = page.url().split("/items/")[1];
  const recordId = ((await page.getByRole("heading", { name: /^Record \d+$/ }).textContent()) ?? "").replace(
    "Record ",
    "",
  );
  await expect(page.getByText("execution hidden", { exact: true })).toBeVisible();
  await expect(page.getByTestId("evidence-execution")).toContainText("hidden until your first label");
  await expect(page.getByTestId("evidence-mutation")).toContainText("hidden until your first label");
  await expect(page.getByText("passes", { exact: true })).toHaveCount(0);

  await page.goto(`/records/${recordId}`);
  await expect(page.getByText("execution hidden", { exact: true })).toBeVisible();
  await expect(page.getByTestId("evidence-execution")).toContainText("hidden until your first label");
  await expect(page.getByText("passes", { exact: true })).toHaveCount(0);
  const rest = (await (await page.request.get(`/api/v1/records/${recordId}`)).json()) as Record<string, unknown>;
  expect(rest).toMatchObject({ executableValid: null, verificationOutcome: null, isExecutionHidden: true });
  await page.goto(`/datasets/${dataset}?executable=valid`);
  await expect(page.getByText("No records match.")).toBeVisible();

  expect(
    (
      await page.request.post(`/api/v1/items/${itemId}/annotations`, {
        data: { valid: true, categories: [] },
        headers: SAME_ORIGIN,
      })
    ).status(),
  ).toBe(201);
  await page.goto(`/records/${recordId}`);
  await expect(page.getByTestId("evidence-execution").getByText("passes", { exact: true })).toBeVisible();
  const after = (await (await page.request.get(`/api/v1/records/${recordId}`)).json()) as Record<string, unknown>;
  expect(after).toMatchObject({ executableValid: true, verificationOutcome: "PASSED", isExecutionHidden: false });
});
