import { type Browser, expect, type Page, test } from "@playwright/test";

import {
  addPerson,
  admin,
  annotator,
  claimAndLabel,
  createCampaign,
  ensurePeople,
  importRecords,
  invite,
  SAME_ORIGIN,
  signedInPage,
  signIn,
  unique,
} from "./people";

test.beforeAll(async ({ browser }) => ensurePeople(browser));

// Review and agreement. Uses the shared admin and python annotator (ensurePeople); each test brings
// its own dataset, campaign, second annotator and reviewer, named uniquely, and the labels and
// decisions that come before its step of the story, made through the API. That setup (three people
// signed in, two invitations accepted) takes a loaded machine up to half a minute: twice the time.
test.describe.configure({ timeout: 120_000 });

const critic = {
  rule_results: [{ rule: "Other Issues", result: "pass", reason: "Looks consistent." }],
  summary: { overall_pass: true, failed_rules: [], key_points: ["Consistent."] },
};

/** The names of one review story: its record, dataset, campaign and people. */
function story() {
  const run = unique("rv");
  return {
    run,
    dataset: `e2e-review-${run}`,
    campaignName: `Review campaign ${run}`,
    second: { email: `ann2-${run}@example.test`, password: "annotator-password-2", name: `Second ${run}` },
    reviewer: { email: `rev-${run}@example.test`, password: "reviewer-password-1", name: `Rita ${run}` },
    record: {
      question: `# Review ${run}\n\nWrite \`double(x)\` in Python returning twice \`x\`.`,
      canonical_solution: "def double(x):\n    return 2 * x\n",
      demo_test_func: "assert double(2) == 4\n",
      full_test_func: "assert double(3) == 6\nassert double(0) == 0\n",
      language: "python",
      difficulty: "easy",
      critic,
    },
  };
}

/** Imports the story's record into a campaign with overlap 2 and returns its id. */
async function importAndCreate(page: Page, names: ReturnType<typeof story>) {
  await importRecords(page, names.dataset, [names.record]);
  return (await createCampaign(page, { dataset: names.dataset, name: names.campaignName, overlap: 2 })).id;
}

/** Signs the annotator in and labels the campaign's one item through the API with their own session. */
async function label(
  browser: Browser,
  user: { email: string; password: string },
  campaignId: string,
  body: { valid: boolean; categories: string[]; note?: string },
) {
  const page = await signedInPage(browser, user);
  const { itemId } = await claimAndLabel(page, campaignId, { ...body, activeMs: 12_000 });
  await page.context().close();
  return itemId;
}

/** A campaign whose one item two annotators labelled oppositely, with a reviewer to settle it. */
async function disagreement(browser: Browser) {
  const names = story();
  const page = await signedInPage(browser, admin);
  const campaignId = await importAndCreate(page, names);
  await addPerson(page, names.second, "ANNOTATOR");
  await addPerson(page, names.reviewer, "REVIEWER");
  await page.context().close();
  const itemId = await label(browser, annotator, campaignId, { valid: true, categories: [] });
  await label(browser, names.second, campaignId, {
    valid: false,
    categories: ["wrong-expected-output"],
    note: "double(0) should be rejected by the statement.",
  });
  return { ...names, campaignId, itemId };
}

/** The disagreement, settled by the reviewer as invalid (revision 1). */
async function decided(browser: Browser) {
  const state = await disagreement(browser);
  const page = await signedInPage(browser, state.reviewer);
  const decision = await page.request.post(`/api/v1/items/${state.itemId}/adjudication`, {
    headers: SAME_ORIGIN,
    data: {
      valid: false,
      categories: ["wrong-expected-output"],
      reason: "The tests expect behaviour the statement does not give.",
    },
  });
  expect(decision.status()).toBe(201);
  await page.context().close();
  return state;
}

test("the admin sets up a campaign with overlap 2, a second annotator and a reviewer", async ({ page, browser }) => {
  const names = story();
  await signIn(page, admin);
  await importAndCreate(page, names);
  await invite(page, browser, names.second, "ANNOTATOR");
  await invite(page, browser, names.reviewer, "REVIEWER");
});

test("two annotators label the same item oppositely", async ({ browser }) => {
  const names = story();
  const page = await signedInPage(browser, admin);
  const campaignId = await importAndCreate(page, names);
  await addPerson(page, names.second, "ANNOTATOR");
  await page.context().close();
  const itemId = await label(browser, annotator, campaignId, { valid: true, categories: [] });
  const other = await label(browser, names.second, campaignId, {
    valid: false,
    categories: ["wrong-expected-output"],
    note: "double(0) should be rejected by the statement.",
  });
  expect(other).toBe(itemId);
});

test("the reviewer settles the disagreement and the agreement figures move", async ({ page, browser }) => {
  const { run, second, reviewer, campaignId, itemId } = await disagreement(browser);
  await signIn(page, reviewer);
  await page.goto(`/campaigns/${campaignId}/agreement`);
  const overall = page.getByRole("figure", { name: "Human vs critic, Overall" });
  await expect(overall).toContainText("items 0");

  await page.goto(`/campaigns/${campaignId}`);
  await page.getByRole("link", { name: "Review queues" }).click();
  const disagree = page
    .getByRole("navigation", { name: "Review queues" })
    .getByRole("link", { name: /Annotators disagree/ });
  await expect(disagree).toContainText("1");
  await disagree.click();
  await expect(disagree).toHaveAttribute("aria-current", "page");
  const rows = page.getByRole("table", { name: "Items to review" }).getByRole("row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("1 valid vs 1 invalid");
  // The row names the problem and who voted what.
  await expect(rows.nth(1).getByRole("list", { name: "Votes" })).toContainText(
    `${second.name}: invalid (wrong-expected-output)`,
  );
  await expect(rows.nth(1)).toContainText("Python");
  await rows
    .nth(1)
    .getByRole("link", { name: `Review ${run}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/review/${itemId}\\?queue=annotators`));

  // Both labels are shown, with who said what.
  const annotations = page.getByRole("list", { name: "Annotations" });
  await expect(annotations.getByRole("listitem", { name: `Label by ${annotator.email}` })).toContainText("Valid");
  await expect(annotations.getByRole("listitem", { name: `Label by ${second.email}` })).toContainText(
    "double(0) should be rejected",
  );
  await expect(page.getByTestId("current-decision")).toContainText("No reviewer has decided");
  // The labels and notes are read before the decision form, above it in the same column.
  const annotationsTop = (await annotations.boundingBox())!.y;
  expect(annotationsTop).toBeLessThan((await page.getByLabel(/^Reason/).boundingBox())!.y);
  expect(annotationsTop).toBeLessThan((await page.getByTestId("current-decision").boundingBox())!.y);

  // Keyboard: I, then the category's number; the reason is typed and Ctrl+Enter decides.
  const invalid = page.getByRole("radio", { name: "Invalid", exact: true });
  await expect(async () => {
    await page.keyboard.press("i");
    await expect(invalid).toBeChecked({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await page.keyboard.press("4");
  await expect(page.getByRole("checkbox", { name: "Wrong expected output" })).toBeChecked();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Give the reason for the decision.")).toBeVisible();
  await page.getByLabel(/^Reason/).fill("The tests expect behaviour the statement does not give.");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByRole("status")).toContainText("Decision saved (revision 1)");
  await expect(page.getByTestId("current-decision")).toContainText("Decision (revision 1)");
  await expect(page.getByTestId("current-decision")).toContainText(reviewer.email);

  await page.getByRole("navigation", { name: "Queue" }).getByRole("link", { name: "Queue" }).click();
  await expect(
    page.getByRole("navigation", { name: "Review queues" }).getByRole("link", { name: /Annotators disagree/ }),
  ).toContainText("0");
  await expect(page.getByText("Nothing to review here.")).toBeVisible();

  await page.goto(`/campaigns/${campaignId}/agreement`);
  await expect(overall).toContainText("items 1");
  await expect(overall.getByRole("row", { name: /Human invalid/ })).toContainText("1");
});

test("a revision that lost a race shows the decision that stands and keeps the typed reason", async ({
  page,
  browser,
}) => {
  const { reviewer, campaignId, itemId } = await decided(browser);
  await signIn(page, reviewer);
  await page.goto(`/campaigns/${campaignId}/review/${itemId}`);
  await expect(page.getByTestId("current-decision")).toContainText("Decision (revision 1)");

  // Meanwhile the admin revises the decision through the API.
  const adminPage = await (await page.context().browser()!.newContext()).newPage();
  await signIn(adminPage, admin);
  const revised = await adminPage.request.post(`/api/v1/items/${itemId}/adjudication`, {
    headers: SAME_ORIGIN,
    data: { valid: true, categories: [], reason: "On reflection the tests match the statement.", baseRevision: 1 },
  });
  expect(revised.status()).toBe(200);
  await adminPage.context().close();

  const reason = page.getByLabel(/^Reason/);
  await reason.fill("Still invalid: double(0) is not specified.");
  await page.getByRole("button", { name: /Revise decision/ }).click();
  await expect(page.getByRole("alert").filter({ hasText: "already decided" })).toContainText(admin.email);
  await expect(page.getByTestId("current-decision")).toContainText("Decision (revision 2)");
  await expect(page.getByTestId("current-decision")).toContainText("On reflection the tests match the statement.");
  await expect(reason).toHaveValue("Still invalid: double(0) is not specified.");
});

test("the admin finds the decisions in the audit log", async ({ page, browser }) => {
  const { run, reviewer, campaignName, itemId } = await decided(browser);
  await signIn(page, admin);
  // The admin revises the reviewer's decision, as in a lost race.
  const revised = await page.request.post(`/api/v1/items/${itemId}/adjudication`, {
    headers: SAME_ORIGIN,
    data: { valid: true, categories: [], reason: "On reflection the tests match the statement.", baseRevision: 1 },
  });
  expect(revised.status()).toBe(200);
  await page.getByRole("link", { name: "Audit log" }).click();
  await page.getByLabel("Action").selectOption("adjudication.");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=adjudication\./);
  const events = page.getByRole("table", { name: "Audit events" });
  // Entries name the record, the campaign and the people, not ids.
  await expect(
    events
      .getByRole("row")
      .filter({ hasText: `Review ${run}` })
      .filter({ hasText: campaignName }),
  ).toHaveCount(2);
  await expect(
    events.getByRole("row").filter({ hasText: "adjudication.create" }).filter({ hasText: reviewer.email }),
  ).toHaveCount(1);
  await expect(events).not.toContainText(itemId);
});

test("the reviewer reads the campaign's audit log, without people or invitation events", async ({ page, browser }) => {
  const { run, second, reviewer, campaignName } = await disagreement(browser);
  await signIn(page, reviewer);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" }).click();
  await page.getByLabel("Campaign").selectOption({ label: campaignName });
  await page.getByRole("button", { name: "Filter" }).click();
  const events = page.getByRole("table", { name: "Audit events" });
  await expect(
    events.getByRole("row").filter({ hasText: "label.create" }).filter({ hasText: second.name }),
  ).toHaveCount(1);
  await expect(
    events
      .getByRole("row")
      .filter({ hasText: "label.create" })
      .filter({ hasText: `Review ${run}` }),
  ).toHaveCount(2);
  await page.getByLabel("Campaign").selectOption("");
  await page.getByLabel("Action").selectOption("invitation.");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No events match.")).toBeVisible();
});
