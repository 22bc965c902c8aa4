import { type Browser, expect, type Page, test } from "@playwright/test";

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
} from "./people";

test.beforeAll(async ({ browser }) => ensurePeople(browser));

// Runs in a full run or alone (ensurePeople makes the shared people).
// Blind mode holds on every page, not only in the workspace: an annotator with an unlabelled blind
// item reads no critic on the record page, in the dataset browser or through its critic filter,
// and sees nothing of a dataset with no campaign in their languages. Each test sets up everything
// it needs, through the API for the steps before its own.

/** The names of one story: two datasets, the critic's reasoning and an annotator. */
function story() {
  const run = unique("bl");
  return {
    run,
    dataset: `e2e-blind-${run}`,
    elsewhere: `e2e-elsewhere-${run}`,
    reasoning: reasoningOf(run),
    annotator: { email: `blind-ann-${run}@example.test`, password: "annotator-password-9", name: `Blind ${run}` },
  };
}

const reasoningOf = (run: string) => `Reasoning ${run}: the tests print output the statement never mentions.`;

/** The admin imports both datasets and creates the blind campaign over the first; returns its id. */
async function importAndCreate(page: Page, { run, dataset, elsewhere }: ReturnType<typeof story>) {
  await importRecords(page, dataset, [record(run, `b1_${run}`), record(run, `b2_${run}`)]);
  await importRecords(page, elsewhere, [record(run, `e1_${run}`)]);
  return (await createCampaign(page, { dataset, name: `Blind reads ${run}`, blind: true, seed: undefined })).id;
}

/** The story set up through the API, with its annotator. */
async function blindCampaign(browser: Browser) {
  const names = story();
  const page = await signedInPage(browser, admin);
  const campaignId = await importAndCreate(page, names);
  await addPerson(page, names.annotator, "ANNOTATOR");
  await page.context().close();
  return { ...names, campaignId };
}

function record(run: string, name: string) {
  return {
    question: `# Blind ${name}\n\nWrite \`${name}(a)\` in Python returning \`a\`.`,
    canonical_solution: `def ${name}(a):\n    return a\n`,
    demo_test_func: `assert ${name}(1) == 1\n`,
    full_test_func: `assert ${name}(2) == 2\n`,
    language: "python",
    critic_result: {
      summary: { overall_pass: false, failed_rules: ["Irrelevant Requirements"], key_points: [`Key point ${run}`] },
    },
    critic_reasoning: reasoningOf(run),
  };
}

test("the admin sets up a blind campaign, a dataset without campaign and an annotator", async ({ page, browser }) => {
  const names = story();
  await signInAsAdmin(page);
  await importAndCreate(page, names);
  await invite(page, browser, names.annotator, "ANNOTATOR");
});

test("an annotator holding a blind item reads no critic on the record page or in the dataset browser", async ({
  page,
  browser,
}) => {
  const { run, dataset, elsewhere, reasoning, annotator, campaignId } = await blindCampaign(browser);
  await signIn(page, annotator);
  await page.goto(`/campaigns/${campaignId}/next`);
  await expect(page).toHaveURL(/\/items\//);
  await expect(page.getByText("The critic is hidden until you submit a first label.")).toBeVisible();
  const recordId = ((await page.getByRole("heading", { name: /^Record \d+$/ }).textContent()) ?? "").replace(
    "Record ",
    "",
  );

  await page.goto(`/records/${recordId}`);
  await expect(page.getByTestId("critic-hidden")).toBeVisible();
  await expect(page.getByText("Overall:")).toHaveCount(0);
  // Nothing of the verdict reaches the browser, not even in the page's data.
  expect(await page.content()).not.toContain(reasoning);
  expect(await page.content()).not.toContain(`Key point ${run}`);

  await page.goto(`/datasets/${dataset}`);
  const rows = page.getByRole("row").filter({ hasText: `Blind b` });
  await expect(rows).toHaveCount(2);
  await expect(rows.getByText("hidden", { exact: true })).toHaveCount(2);
  await expect(rows.getByText("fail", { exact: true })).toHaveCount(0);
  await page.goto(`/datasets/${dataset}?critic=fail`);
  await expect(page.getByText("No records match.")).toBeVisible();

  const listed = await page.request.get(`/api/v1/datasets/${dataset}/records`);
  expect(listed.status()).toBe(200);
  expect(((await listed.json()) as { records: { critic: unknown }[] }).records.map((r) => r.critic)).toEqual([
    null,
    null,
  ]);

  // A dataset with no campaign in the annotator's languages does not exist for them.
  expect((await page.goto(`/datasets/${elsewhere}`))?.status()).toBe(404);
  await page.goto("/datasets");
  await expect(page.getByText(dataset, { exact: true })).toBeVisible();
  await expect(page.getByText(elsewhere)).toHaveCount(0);
});

test("once labelled, the record page shows the annotator the critic", async ({ page, browser }) => {
  const { reasoning, annotator, campaignId } = await blindCampaign(browser);
  await signIn(page, annotator);
  const claim = await page.request.post(`/api/v1/campaigns/${campaignId}/claim`, { headers: SAME_ORIGIN });
  expect(claim.status()).toBe(200);
  const { item, record: claimed } = (await claim.json()) as { item: { id: string }; record: { id: number } };
  expect(
    (
      await page.request.post(`/api/v1/items/${item.id}/annotations`, {
        data: { valid: true, categories: [] },
        headers: SAME_ORIGIN,
      })
    ).status(),
  ).toBe(201);
  await page.goto(`/records/${claimed.id}`);
  await expect(page.getByText("Overall:")).toBeVisible();
  await page.getByText("Reasoning", { exact: true }).click();
  await expect(page.getByText(reasoning)).toBeVisible();
});
