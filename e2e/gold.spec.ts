import { expect, type Page, test } from "@playwright/test";

import { invite, SAME_ORIGIN, signIn, signInAsAdmin } from "./people";

// Gold items: the admin marks a record's known verdict on the record page, creates a campaign with a
// gold share, an annotator labels every item without any visible difference, and the campaign page
// shows the annotator's gold accuracy. No page the annotator sees may name gold (the data, the
// dataset and the campaign are named so that the word appears nowhere else).
test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const ann = { email: `mix-ann-${run}@example.test`, password: "annotator-password-7", name: `Mika ${run}` };
const dataset = `e2e-mix-${run}`;
const campaignName = `Mixed ${run}`;
let campaignId = "";

// Ten sample records and one gold: at share 0.5 the gold item comes before the sample runs out
// unless ten draws in a row miss (1 in 1,024).
const SAMPLE = 10;
const records = ["gd", ...Array.from({ length: SAMPLE }, (_, n) => `s${n}`)].map((n) => ({
  question: `# Mix ${run} ${n}\n\nWrite \`double_${n}(x)\` in Python returning twice \`x\`.`,
  canonical_solution: `def double_${n}(x):\n    return 2 * x\n`,
  demo_test_func: `assert double_${n}(1) == 2\n`,
  full_test_func: `assert double_${n}(3) == 6\n`,
  language: "python",
  difficulty: "easy",
}));

/** Presses a shortcut until it took effect: the first key on a fresh page may land before hydration. */
async function pressUntil(page: Page, key: string, check: () => Promise<void>) {
  await expect(async () => {
    await page.keyboard.press(key);
    await check();
  }).toPass({ timeout: 15_000 });
}

test("the admin marks a record as gold on its page and creates a campaign with a gold share", async ({ page }) => {
  await signInAsAdmin(page);
  const imported = await page.request.post(`/api/v1/datasets/${dataset}/records`, {
    data: records.map((record) => JSON.stringify(record)).join("\n"),
    headers: { ...SAME_ORIGIN, "content-type": "application/x-ndjson" },
  });
  expect(imported.status()).toBe(201);
  const listed = (await (await page.request.get(`/api/v1/datasets/${dataset}/records`)).json()) as {
    records: { id: number; question: string }[];
  };
  const target = listed.records.find((record) => record.question.includes(`${run} gd`))!;

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
  campaignId = new URL(page.url()).pathname.split("/").pop()!;
});

test("the admin invites a Python annotator", async ({ page, browser }) => {
  await signInAsAdmin(page);
  await invite(page, browser, ann, "ANNOTATOR");
});

test("the annotator labels every item and nothing tells the gold one apart", async ({ page }) => {
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
}) => {
  await signInAsAdmin(page);
  await page.goto(`/campaigns/${campaignId}`);
  // The annotator said Valid where the known verdict is Invalid: 0 of 1, flagged as a small n.
  const cell = page.getByTestId(`gold-accuracy-${ann.email}`);
  await expect(cell).toContainText("0.0% (n = 1)");
  await expect(cell).toContainText("Python");
  const row = page.getByRole("table", { name: "Annotator progress" }).getByRole("row", { name: new RegExp(ann.name) });
  await expect(row.getByRole("cell").first()).toHaveText(String(SAMPLE + 1));
  // Progress counts the sample only.
  await expect(page.getByText(`${SAMPLE} of ${SAMPLE} items complete`)).toBeVisible();
});
