import { expect, type Locator, type Page, test } from "@playwright/test";

import { DEFAULT_CATEGORIES } from "../lib/annotation/categories";

import { admin, annotator, ensurePeople, invite, SAME_ORIGIN, signIn } from "./people";

test.beforeAll(async ({ browser }) => {
  // The first sign-ins of a fresh server are slow on a loaded machine.
  test.setTimeout(120_000);
  await ensurePeople(browser);
});

// The core loop as a benchmark team walked it with four roles (issue 20, items 14–19): a lease that
// ended, adjudication by keyboard, the blind reveal under a slow network, a stored batch failure,
// the admin pages at phone width, the taxonomy order, and the wording around them. Each scenario
// brings its own dataset and campaign; the first test creates them and later tests look them up by
// name (the e2e server starts on an empty database), so one failing scenario does not hide the others.

const LAPTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const reviewer = { email: "wt-reviewer@example.test", password: "reviewer-password-1", name: "Wanda Walkthrough" };

const longReason = (topic: string) =>
  `The statement and the tests disagree about ${topic}: the tests expect a behaviour the statement never names, ` +
  `so a careful solver cannot know it, and a solution written from the statement alone fails this test case.`;
const longCritic = {
  rule_results: [
    "Naming/Signature Inconsistency",
    "Randomness/Non-reproducible",
    "Incorrect Test Target",
    "Improper Precision Handling",
    "Exception Swallowing",
    "Non-executable Tests",
    "Irrelevant Requirements",
    "Other Issues",
  ].map((rule) => ({ rule, result: "fail", reason: longReason(rule.toLowerCase()) })),
  summary: { overall_pass: false, failed_rules: ["Naming/Signature Inconsistency"], key_points: ["Many problems."] },
};

function record(name: string, overrides: Record<string, unknown> = {}) {
  return {
    question: `# Add two numbers ${name}\n\nWrite \`${name}(a, b)\` returning the sum.`,
    canonical_solution: `def ${name}(a, b):\n    return a + b\n`,
    demo_test_func: `assert ${name}(1, 2) == 3\n`,
    full_test_func: `assert ${name}(2, 2) == 4\nassert ${name}(0, 0) == 0\n`,
    language: "python",
    difficulty: "easy",
    critic: {
      rule_results: [{ rule: "Other Issues", result: "fail", reason: "Suspicious." }],
      summary: { overall_pass: false, failed_rules: ["Other Issues"], key_points: [] },
    },
    ...overrides,
  };
}

const datasetOf = (slug: string) => `e2e-wt-${slug}`;
const campaignName = (slug: string) => `WT ${slug}`;

async function setUp(page: Page, slug: string, records: object[], options: Record<string, unknown> = {}) {
  const imported = await page.request.post(`/api/v1/datasets/${datasetOf(slug)}/records`, {
    data: records.map((entry) => JSON.stringify(entry)).join("\n"),
    headers: { ...SAME_ORIGIN, "content-type": "application/x-ndjson" },
  });
  expect(imported.status()).toBe(201);
  const created = await page.request.post("/api/v1/campaigns", {
    data: { dataset: datasetOf(slug), name: campaignName(slug), languages: ["python"], seed: "wt", ...options },
    headers: SAME_ORIGIN,
  });
  expect(created.status()).toBe(201);
}

/** The id of a scenario's campaign, looked up by name as the signed-in user. */
async function campaignId(page: Page, slug: string): Promise<string> {
  const listed = (await (await page.request.get("/api/v1/campaigns")).json()) as { id: string; name: string }[];
  const campaign = listed.find((entry) => entry.name === campaignName(slug));
  if (!campaign) throw new Error(`no campaign ${campaignName(slug)}`);
  return campaign.id;
}

/** Opens the signed-in annotator's next item in a scenario's campaign and waits until it answers keys. */
async function openNext(page: Page, slug: string) {
  await page.goto(`/campaigns/${await campaignId(page, slug)}/next`);
  await expect(page).toHaveURL(/\/items\/itm_/);
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
}

async function asAnnotator(page: Page, viewport = LAPTOP): Promise<Page> {
  const other = await (await page.context().browser()!.newContext({ viewport })).newPage();
  await signIn(other, annotator);
  return other;
}

/** The element lies fully inside the viewport. */
async function expectOnScreen(locator: Locator, viewport: { width: number; height: number }) {
  await expect(locator).toBeVisible();
  const box = (await locator.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height + 0.5);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 0.5);
}

/** At phone width: the page itself does not scroll sideways, and the control can be brought fully into view. */
async function expectReachable(page: Page, control: Locator) {
  await control.scrollIntoViewIfNeeded();
  const box = (await control.boundingBox())!;
  expect(box.x, "left edge in view").toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, "right edge in view").toBeLessThanOrEqual(PHONE.width + 0.5);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

test("the admin sets up the scenarios and a reviewer", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, admin);
  await setUp(page, "pause", [record("wt_p1"), record("wt_p2")]);
  await setUp(page, "adjudicate", [record("wt_a1")]);
  await setUp(page, "blind", [record("wt_b1", { critic: longCritic }), record("wt_b2", { critic: longCritic })], {
    blind: true,
  });
  await setUp(page, "stored", [
    record("wt_fail", { demo_test_func: "assert wt_fail(1, 1) == 2\nassert wt_fail(1, 2) == 4\n" }),
  ]);
  await setUp(page, "order", [record("wt_o1"), record("wt_o2")]);
  await setUp(page, "comments", [record("wt_c1")]);
  // A batch verification stores the failing run before anyone opens the item.
  const started = await page.request.post(`/api/v1/datasets/${datasetOf("stored")}/verifications`, {
    data: {},
    headers: SAME_ORIGIN,
  });
  expect(started.status()).toBe(202);
  const { batchId } = (await started.json()) as { batchId: string };
  await expect(async () => {
    const progress = (await (await page.request.get(`/api/v1/verifications/${batchId}`)).json()) as { status: string };
    expect(progress.status).toBe("SUCCEEDED");
  }).toPass({ timeout: 120_000 });
  await invite(page, browser, reviewer, "REVIEWER");
});

test("after a pause the workspace says the lease ended (not 'labelled') and Skip still works", async ({ page }) => {
  const worker = await asAnnotator(page);
  await openNext(worker, "pause");
  await expect(worker.getByRole("button", { name: /Skip/ })).toBeVisible();

  await signIn(page, admin);
  const pauseId = await campaignId(page, "pause");
  const paused = await page.request.post(`/api/v1/campaigns/${pauseId}/status`, {
    data: { action: "pause" },
    headers: SAME_ORIGIN,
  });
  expect(paused.status()).toBe(200);

  await worker.reload();
  await expect(worker.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await expect(worker.getByText("Lease ended", { exact: false })).toBeVisible();
  await expect(worker.getByText("labelled", { exact: true })).toHaveCount(0);
  await worker.keyboard.press("s");
  await worker.getByLabel("Reason for skipping").fill("Paused before I could finish.");
  await worker.keyboard.press("Enter");
  await expect(worker).toHaveURL(new RegExp(`/campaigns/${pauseId}/next$`));
  await worker.goto(`/campaigns/${pauseId}`);
  await expect(worker.getByTestId("mine-skipped")).toHaveText("1");
  await worker.context().close();
});

test("adjudication is fully keyboard-driven: C finds any category, N writes the reason, ? lists the keys", async ({
  page,
}) => {
  // The annotator labels the item through the API; the reviewer then decides it.
  const labeller = await asAnnotator(page);
  const adjudicateId = await campaignId(labeller, "adjudicate");
  const claim = await labeller.request.post(`/api/v1/campaigns/${adjudicateId}/claim`, { headers: SAME_ORIGIN });
  expect(claim.status()).toBe(200);
  const itemId = ((await claim.json()) as { item: { id: string } }).item.id;
  const saved = await labeller.request.post(`/api/v1/items/${itemId}/annotations`, {
    headers: SAME_ORIGIN,
    data: { valid: true, categories: [], activeMs: 5_000 },
  });
  expect(saved.status()).toBe(201);
  await labeller.context().close();

  await page.setViewportSize(LAPTOP);
  await signIn(page, reviewer);
  await page.goto(`/campaigns/${adjudicateId}/review/${itemId}`);
  const invalid = page.getByRole("radio", { name: "Invalid", exact: true });
  await expect(async () => {
    await page.keyboard.press("i");
    await expect(invalid).toBeChecked({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await page.keyboard.press("c");
  const finder = page.getByRole("combobox", { name: "Find a category" });
  await expect(finder).toBeFocused();
  await page.keyboard.type("oth");
  await page.keyboard.press("Enter");
  // Other is the 14th category: no digit reaches it.
  await expect(page.getByRole("checkbox", { name: /^Other/ })).toBeChecked();
  await expect(finder).toBeHidden();
  await page.keyboard.press("n");
  const reason = page.getByLabel(/^Reason/);
  await expect(reason).toBeFocused();
  await page.keyboard.type("Decided without the mouse.");
  await page.keyboard.press("Escape");
  await expect(reason).not.toBeFocused();
  await page.keyboard.press("?");
  const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  for (const key of ["C", "N", "J / K"]) await expect(sheet.getByText(key, { exact: true })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toContainText("Decision saved (revision 1)");
});

test("blind reveal on a slow network: Enter waits for the critic, and the confirmation stays in view", async ({
  page,
}) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  await openNext(page, "blind");
  const itemUrl = page.url();
  await expect(page.getByTestId("critic-hidden")).toBeVisible();

  // Hold the page's refresh (the request that brings the critic) until the test lets it go.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let labelWrites = 0;
  const isItemPage = (url: URL) => url.pathname.includes("/items/");
  await page.route(isItemPage, async (route) => {
    const request = route.request();
    if (request.method() === "POST" && request.headers()["next-action"]) labelWrites++;
    if (request.method() === "GET" && request.headers()["rsc"]) await released;
    await route.continue();
  });
  await page.keyboard.press("v");
  await page.keyboard.press("Enter");
  await expect(page.getByText(/Saved\. The critic is on its way/)).toBeVisible();
  // A quick Enter while the critic has not arrived does not move on.
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("critic-hidden")).toBeVisible();
  release();

  const critic = page.getByRole("region", { name: "Critic" });
  await expect(critic.getByText("Naming/Signature Inconsistency").first()).toBeVisible();
  await expect(critic).toBeFocused();
  await expectOnScreen(page.getByRole("status").filter({ hasText: "The critic is now shown" }), LAPTOP);
  expect(page.url()).toBe(itemUrl);
  expect(labelWrites).toBe(1);
  await page.keyboard.press("Enter");
  await expect(page).not.toHaveURL(itemUrl);
  await page.unroute(isItemPage);
});

test("a stored batch failure is pointed at when the item opens: its test, its line marked", async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  await openNext(page, "stored");
  const demoRow = page.getByRole("region", { name: "Latest run" }).getByTestId("run-row-demo");
  await expect(demoRow).toContainText("Demo test, line 2");
  await expect(page.getByRole("tab", { name: "Demo test" })).toHaveAttribute("aria-selected", "true");
  // Monaco loads a moment after the page on a busy machine.
  await expect(page.getByTestId("code-test").locator(".view-lines")).toContainText("wt_fail(1, 2)", {
    timeout: 45_000,
  });
  await expect(page.getByTestId("code-test").locator(".failing-line")).toHaveCount(1);
});

test("at 390 wide the Users table and the taxonomy editor can be read and used to their last column", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await signIn(page, admin);
  await page.goto("/admin/users");
  await expectReachable(page, page.getByRole("button", { name: `Edit ${reviewer.email}` }));
  await expectReachable(page, page.getByRole("button", { name: `Disable ${reviewer.email}` }));
  await page.goto("/campaigns");
  await expectReachable(page, page.getByLabel("Critic rule of category 1", { exact: true }));
  await expectReachable(page, page.getByRole("button", { name: "Remove category 1", exact: true }));
  await page.goto(`/campaigns/${await campaignId(page, "order")}`);
  // The last category of the default taxonomy.
  await expectReachable(page, page.getByRole("button", { name: `Move category ${DEFAULT_CATEGORIES.length} up` }));
});

test("the taxonomy can be reordered until the first label, and the workspace keys follow the order", async ({
  page,
}) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, admin);
  await page.goto(`/campaigns/${await campaignId(page, "order")}`);
  const order = page.getByRole("form", { name: "Order of the error categories" });
  await order.getByRole("button", { name: "Move category 2 up" }).click();
  await expect(order.getByRole("listitem").first()).toContainText("Name mismatch");
  await order.getByRole("button", { name: "Save order" }).click();
  await expect(order.getByRole("status")).toContainText("Order saved.");

  const worker = await asAnnotator(page);
  await openNext(worker, "order");
  await worker.keyboard.press("i");
  await worker.keyboard.press("1");
  await expect(worker.getByRole("checkbox", { name: "Name mismatch" })).toBeChecked();
  const itemUrl = worker.url();
  await worker.keyboard.press("Enter");
  await expect(worker).not.toHaveURL(itemUrl);
  await worker.context().close();

  await page.reload();
  await expect(order).toContainText("The order is fixed once items are labelled.");
  await expect(order.getByRole("button", { name: "Move category 1 down" })).toBeDisabled();
});

test("wording: the campaign form speaks plainly, gold file errors are listed once each, counts are plural", async ({
  page,
}) => {
  await signIn(page, admin);
  await page.goto("/campaigns");
  await page.getByLabel("Campaign name").fill("WT nothing");
  const languages = page.getByRole("group", { name: "Languages" });
  for (const box of await languages.getByRole("checkbox", { checked: true }).all()) await box.uncheck();
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByText("Choose at least one language.")).toBeVisible();
  await expect(page.getByText(/Too small|expected array/)).toHaveCount(0);

  await page.goto(`/datasets/${datasetOf("stored")}`);
  await expect(page.getByText("1 record matches.")).toBeVisible();
  await page.getByLabel("Gold file").setInputFiles({
    name: "gold.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(
      '{"id": 2000000001, "verdict": "invalid", "categories": ["no-such-category"]}\n{"id": 2000000002, "verdict": "valid"}\n',
    ),
  });
  await page.getByRole("button", { name: "Import gold" }).click();
  const refusal = page.getByRole("form", { name: "Import gold answers" });
  await expect(refusal.getByText(/Nothing imported/)).toBeVisible();
  await expect(refusal.getByText(/no record with id 2000000001/)).toHaveCount(1);
  await expect(refusal.getByText(/no record with id 2000000002/)).toHaveCount(1);
  await expect(refusal.getByText(/no-such-category/)).toHaveCount(1);
});

test("an annotator sees on the campaign page that a reviewer answered their comment", async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  await openNext(page, "comments");
  const itemUrl = page.url();
  const itemId = itemUrl.split("/items/")[1];
  await page.getByLabel("Comment", { exact: true }).fill("Is the second assert meant to pass?");
  await page.getByRole("button", { name: "Post comment" }).click();
  await expect(page.getByLabel("Comment", { exact: true })).toHaveValue("");
  await expect(page.getByText("Is the second assert meant to pass?")).toBeVisible();
  const commentsId = await campaignId(page, "comments");
  await page.goto(`/campaigns/${commentsId}`);
  await expect(page.getByRole("region", { name: "Answers to your comments" })).toHaveCount(0);

  const reviewerPage = await (await page.context().browser()!.newContext()).newPage();
  await signIn(reviewerPage, reviewer);
  await reviewerPage.goto(`/campaigns/${commentsId}/review/${itemId}`);
  await reviewerPage.getByLabel("Comment", { exact: true }).fill("Yes: 0 + 0 is 0.");
  await reviewerPage.getByRole("button", { name: "Post comment" }).click();
  // The form empties only once the server has stored the comment: closing the tab before that would
  // drop the request, and the annotator would have nothing to see.
  await expect(reviewerPage.getByLabel("Comment", { exact: true })).toHaveValue("");
  await expect(reviewerPage.getByText("Yes: 0 + 0 is 0.")).toBeVisible();
  await reviewerPage.context().close();

  const answers = page.getByRole("region", { name: "Answers to your comments" });
  await expect(async () => {
    await page.reload();
    await expect(answers).toContainText("1 new answer", { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await answers.getByRole("link", { name: /Add two numbers wt_c1/ }).click();
  await expect(page).toHaveURL(itemUrl);
  await expect(page.getByText("Yes: 0 + 0 is 0.")).toBeVisible();
  // Reading the thread marks the answer read (a moment after the page opens).
  await expect(async () => {
    await page.goto(`/campaigns/${commentsId}`);
    await expect(page.getByTestId("mine-in-progress")).toBeVisible({ timeout: 2_000 });
    await expect(answers).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
});
