import { type Browser, expect, type Page, test } from "@playwright/test";

import {
  addPerson,
  admin,
  claimAndLabel,
  createCampaign,
  ensureAdmin,
  importRecords,
  invite,
  listRecords,
  SAME_ORIGIN,
  signedInPage,
  signIn,
  signInAsAdmin,
  unique,
} from "./people";

test.beforeAll(async ({ browser }) => ensureAdmin(browser));

// Gold items: the admin marks a record's known verdict on the record page, creates a campaign with a
// gold share, an annotator labels every item without any visible difference, and the campaign page
// shows the annotator's gold accuracy. No page the annotator sees may name gold (the data, the
// dataset and the campaign are named so that the word appears nowhere else). Each test brings its own
// records, campaign and annotator, made through the API for the steps before its own.

/** The names of one story: ten sample records and one gold, a dataset, a campaign and an annotator. */
function story() {
  const run = unique("gd");
  return {
    run,
    ann: { email: `mix-ann-${run}@example.test`, password: "annotator-password-7", name: `Mika ${run}` },
    dataset: `e2e-mix-${run}`,
    campaignName: `Mixed ${run}`,
    // Ten sample records and one gold: at share 0.5 the gold item comes before the sample runs out
    // unless ten draws in a row miss (1 in 1,024).
    records: ["gd", ...Array.from({ length: SAMPLE }, (_, n) => `s${n}`)].map((n) => ({
      question: `# Mix ${run} ${n}\n\nWrite \`double_${n}(x)\` in Python returning twice \`x\`.`,
      canonical_solution: `def double_${n}(x):\n    return 2 * x\n`,
      demo_test_func: `assert double_${n}(1) == 2\n`,
      full_test_func: `assert double_${n}(3) == 6\n`,
      language: "python",
      difficulty: "easy",
    })),
  };
}
const SAMPLE = 10;

/** The admin imports the records and finds the one meant as gold. */
async function importStory(page: Page, names: ReturnType<typeof story>) {
  await importRecords(page, names.dataset, names.records);
  return (await listRecords(page, names.dataset)).find((record) => record.question.includes(`${names.run} gd`))!;
}

/** Through the API: the gold answer (invalid, name mismatch), a campaign at gold share 0.5 and its annotator. */
async function goldCampaign(browser: Browser) {
  const names = story();
  const page = await signedInPage(browser, admin);
  const target = await importStory(page, names);
  const gold = await page.request.post(`/api/v1/datasets/${names.dataset}/gold`, {
    headers: { ...SAME_ORIGIN, "content-type": "application/x-ndjson" },
    data: JSON.stringify({
      id: target.id,
      valid: false,
      categories: ["name-mismatch"],
      note: "The tests call another name.",
    }),
  });
  expect(gold.status()).toBe(201);
  const created = await createCampaign(page, {
    dataset: names.dataset,
    name: names.campaignName,
    goldShare: 0.5,
    seed: names.run,
  });
  expect(created.itemCount).toBe(SAMPLE);
  await addPerson(page, names.ann, "ANNOTATOR");
  await page.context().close();
  return { ...names, campaignId: created.id };
}

/** Presses a shortcut until it took effect: the first key on a fresh page may land before hydration. */
async function pressUntil(page: Page, key: string, check: () => Promise<void>) {
  await expect(async () => {
    await page.keyboard.press(key);
    await check();
  }).toPass({ timeout: 15_000 });
}

test("the admin marks a record as gold on its page and creates a campaign with a gold share", async ({ page }) => {
  const names = story();
  const { dataset, campaignName } = names;
  await signInAsAdmin(page);
  const target = await importStory(page, names);

  await page.goto(`/records/${target.id}`);
  const form = page.getByRole("form", { name: "Gold answer" });
  await form.getByRole("radio", { name: "Invalid" }).check();
  await form.getByRole("checkbox", { name: "Name mismatch" }).check();
  await form.getByLabel("Note").fill("The tests call another name.");
  await form.getByRole("button", { name: "Mark as gold" }).click();
  await expect(form.getByRole("status")).toHaveText("Gold answer saved.");
  await page.reload();
  await expect(page.getByRole("form", { name: "Gold answer" }).getByRole("radio", { name: "Invalid" })).toBeChecked();

  await page.goto("/campaigns");
  await page.getByLabel("Dataset").selectOption(dataset);
  await page.getByLabel("Campaign name").fill(campaignName);
  await page.getByLabel("Gold share").fill("0.5");
  await page.getByRole("button", { name: "Create campaign" }).click();
  // The gold record is left out of the sample, and mixed in while the sample lasts.
  await expect(page.getByRole("status")).toContainText(`Created ${campaignName} with ${SAMPLE} items.`);
  await page.getByRole("status").getByRole("link", { name: campaignName }).click();
  await expect(page.getByRole("form", { name: "Campaign settings" }).getByLabel("Gold share")).toHaveValue("0.5");
});

test("the admin invites a Python annotator", async ({ page, browser }) => {
  await signInAsAdmin(page);
  await invite(page, browser, story().ann, "ANNOTATOR");
});

test("the annotator labels every item and nothing tells the gold one apart", async ({ page, browser }) => {
  // Eleven items through the workspace after a person is invited: 47–48 s on two workers at a
  // 1-minute load of 20–30, and 60 s once, at the last assertion, against the 60 s default.
  test.setTimeout(120_000);
  const { ann, campaignId, dataset } = await goldCampaign(browser);
  await signIn(page, ann);
  await page.goto(`/campaigns/${campaignId}`);
  // Still available counts the gold item the queue will mix in: the sample and one more.
  await expect(page.getByTestId("mine-still-available")).toHaveText(String(SAMPLE + 1));
  await expect(page.getByText(`${SAMPLE + 1} items from ${dataset}`)).toBeVisible();
  await expect(page.locator("body")).not.toContainText(/gold|seed/i);
  await page.getByRole("link", { name: "Start" }).click();

  const seen = new Set<string>();
  for (let index = 0; index < SAMPLE + 1; index += 1) {
    await expect(page).toHaveURL(/\/campaigns\/[^/]+\/items\/itm_[0-9a-f]{32}$/);
    const heading = page.getByRole("heading", { name: /^Record \d+$/ });
    const title = (await heading.textContent()) ?? "";
    seen.add(title);
    // The same workspace every time: no word, attribute or payload names gold.
    await expect(page.getByRole("radio", { name: "Valid", exact: true })).toBeVisible();
    expect(await page.content()).not.toMatch(/gold/i);
    const valid = page.getByRole("radio", { name: "Valid", exact: true });
    await pressUntil(page, "v", () => expect(valid).toBeChecked({ timeout: 1_000 }));
    await page.keyboard.press("Enter");
    if (index < SAMPLE) await expect(heading).not.toHaveText(title);
  }
  await expect(page.getByRole("heading", { name: "You're done with this campaign" })).toBeVisible();
  expect(seen.size).toBe(SAMPLE + 1);
  await page.goto(`/campaigns/${campaignId}`);
  await expect(page.getByTestId("mine-submitted")).toHaveText(String(SAMPLE + 1));
  await expect(page.getByTestId("mine-still-available")).toHaveText("0");
  await expect(page.locator("body")).not.toContainText(/gold/i);
});

test("the campaign page shows the annotator's gold accuracy to the admin, and the gold label counts nowhere else", async ({
  page,
  browser,
}) => {
  const { ann, campaignId } = await goldCampaign(browser);
  // The annotator labels every item, the gold one too, Valid.
  const annotatorPage = await signedInPage(browser, ann);
  for (let index = 0; index < SAMPLE + 1; index += 1) await claimAndLabel(annotatorPage, campaignId, { valid: true });
  await annotatorPage.context().close();
  await signInAsAdmin(page);
  await page.goto(`/campaigns/${campaignId}`);
  // The annotator said Valid where the known verdict is Invalid: 0 of 1, flagged as a small n.
  const cell = page.getByTestId(`gold-accuracy-${ann.email}`);
  await expect(cell).toContainText("0.0% (n = 1)");
  await expect(cell).toContainText("Python");
  const row = page.getByRole("table", { name: "Annotator progress" }).getByRole("row", { name: new RegExp(ann.name) });
  await expect(row.getByRole("cell").first()).toHaveText(String(SAMPLE));
  // Progress counts the sample only.
  await expect(page.getByText(`${SAMPLE} of ${SAMPLE} items complete`)).toBeVisible();
});
