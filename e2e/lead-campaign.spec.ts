import { type Browser, expect, type Page, test } from "@playwright/test";

import { admin, ensurePeople, signIn } from "./people";

test.beforeAll(async ({ browser }) => ensurePeople(browser));

// What a lead running a campaign for weeks does: invitations (new link, revoke), a campaign made
// over REST with a numeric seed, renamed, paused and resumed, items discussed in comments, the
// review queue naming the problem and who voted, and an unlabelled campaign deleted. Signs in as the
// shared admin (ensurePeople); brings its own dataset, people and campaigns, named per run.
test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const cora = { email: `cora-${run}@example.test`, password: "cora-password-1", name: `Cora ${run}` };
const dataset = `e2e-admin-${run}`;
let campaignId = "";
let campaignName = `Lead campaign ${run}`;
let itemId = "";

const record = {
  question: `# Flaky ${run}\n\nWrite \`pick()\` in Python returning 1.`,
  canonical_solution: "def pick():\n    return 1\n",
  demo_test_func: "assert pick() == 1\n",
  full_test_func: "assert pick() == 1\n",
  language: "python",
  difficulty: "easy",
};

/** Cookie-authenticated REST writes carry the Origin and a JSON content type, as a browser's fetch would. */
function writeHeaders(page: Page, contentType = "application/json") {
  return { origin: new URL(page.url()).origin, "content-type": contentType };
}

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

async function createInvitation(page: Page, email: string): Promise<string> {
  await page.goto("/admin/users");
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Create invitation link" }) });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Role").selectOption("ANNOTATOR");
  await form.getByLabel("Python").check();
  await form.getByRole("button", { name: "Create invitation link" }).click();
  const link = form.getByLabel("Invitation link");
  await expect(link).toHaveValue(/\/invite\/inv_/);
  await expect(form.getByRole("button", { name: "Copy link" })).toBeVisible();
  return link.inputValue();
}

test("invitations: listed as open, a new link replaces the old one, a revoked one leaves the list", async ({
  page,
  browser,
}) => {
  await signIn(page, admin);
  const firstLink = await createInvitation(page, cora.email);
  const list = page.getByRole("list", { name: "Invitations" });
  const row = list.getByRole("listitem", { name: `Invitation for ${cora.email}` });
  await expect(row).toContainText("open · expires");

  await row.getByRole("button", { name: "New link" }).click();
  const fresh = row.getByLabel("Invitation link");
  await expect(fresh).toHaveValue(/\/invite\/inv_/);
  const freshLink = await fresh.inputValue();
  expect(freshLink).not.toBe(firstLink);
  await expect(row).toContainText("the old link no longer works");

  const stale = await newPage(browser);
  await stale.goto(firstLink);
  await expect(stale.getByText("invalid, already used, or expired")).toBeVisible();
  await stale.context().close();

  const invitee = await newPage(browser);
  await invitee.goto(freshLink);
  await invitee.getByLabel("Your name").fill(cora.name);
  await invitee.getByLabel("Password").fill(cora.password);
  await invitee.getByRole("button", { name: "Create account" }).click();
  await expect(invitee.getByText(`${cora.name} · annotator`)).toBeVisible();
  await invitee.context().close();

  // Used: gone from the list. Another one, revoked: gone too, and its link is dead.
  await page.reload();
  await expect(list.getByRole("listitem", { name: `Invitation for ${cora.email}` })).toHaveCount(0);
  const doomed = `doomed-${run}@example.test`;
  const doomedLink = await createInvitation(page, doomed);
  page.once("dialog", (dialog) => void dialog.accept());
  await list
    .getByRole("listitem", { name: `Invitation for ${doomed}` })
    .getByRole("button", { name: "Revoke" })
    .click();
  await expect(list.getByRole("listitem", { name: `Invitation for ${doomed}` })).toHaveCount(0);
  await page.goto(doomedLink);
  await expect(page.getByText("invalid, already used, or expired")).toBeVisible();
});

test("the admin creates a campaign over REST with a numeric seed, renames it, pauses and resumes it", async ({
  page,
  browser,
}) => {
  await signIn(page, admin);
  const imported = await page.request.post(`/api/v1/datasets/${dataset}/records`, {
    data: JSON.stringify(record),
    headers: writeHeaders(page, "application/x-ndjson"),
  });
  expect(imported.status()).toBe(201);
  const created = await page.request.post("/api/v1/campaigns", {
    data: { dataset, name: campaignName, seed: 7 },
    headers: writeHeaders(page),
  });
  expect(created.status()).toBe(201);
  const campaign = (await created.json()) as { id: string; seed: string };
  expect(campaign.seed).toBe("7");
  campaignId = campaign.id;

  await page.goto(`/campaigns/${campaignId}`);
  campaignName = `Lead campaign renamed ${run}`;
  const settings = page.getByRole("form", { name: "Campaign settings" });
  await settings.getByLabel("Name").fill(campaignName);
  await settings.getByLabel("Overlap").fill("2");
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status")).toContainText(`Saved: “${campaignName}”, overlap 2.`);
  await expect(page.getByRole("heading", { name: campaignName })).toBeVisible();

  await page.getByRole("group", { name: "Status" }).getByRole("button", { name: "Pause" }).click();
  await expect(page.getByRole("status")).toContainText("Now paused");
  await expect(page.getByRole("heading", { name: campaignName })).toContainText("paused");

  const annotator = await newPage(browser);
  await signIn(annotator, cora);
  await annotator.goto(`/campaigns/${campaignId}/next`);
  await expect(annotator.getByRole("heading", { name: "This campaign is paused" })).toBeVisible();
  expect(
    (
      await annotator.request.post(`/api/v1/campaigns/${campaignId}/claim`, { headers: writeHeaders(annotator) })
    ).status(),
  ).toBe(409);
  await annotator.context().close();

  await page.getByRole("group", { name: "Status" }).getByRole("button", { name: "Resume" }).click();
  await expect(page.getByRole("status")).toContainText("Now active");
});

test("an annotator asks in the item's comments; the queue row names the problem, the vote and the new comment", async ({
  page,
  browser,
}) => {
  const annotator = await newPage(browser);
  await signIn(annotator, cora);
  await annotator.goto(`/campaigns/${campaignId}/next`);
  await expect(annotator).toHaveURL(/\/items\//);
  itemId = annotator.url().split("/items/")[1].split(/[?#]/)[0];
  await annotator.getByLabel("Comment", { exact: true }).fill("Is this test nondeterministic?");
  await annotator.getByRole("button", { name: "Post comment" }).click();
  await expect(annotator.getByRole("list", { name: "Comments" }).getByRole("listitem")).toContainText([
    "Is this test nondeterministic?",
  ]);
  const saved = await annotator.request.post(`/api/v1/items/${itemId}/annotations`, {
    data: { valid: true, categories: [], needsReview: true },
    headers: writeHeaders(annotator),
  });
  expect(saved.status()).toBe(201);

  await signIn(page, admin);
  await page.goto(`/campaigns/${campaignId}/review?queue=flagged`);
  const row = page.getByRole("table", { name: "Items to review" }).getByRole("row").nth(1);
  await expect(row.getByRole("list", { name: "Votes" })).toContainText(`${cora.name}: valid`);
  await expect(row).toContainText("1 new comment");
  await row.getByRole("link", { name: `Flaky ${run}` }).click();

  const thread = page.getByRole("list", { name: "Comments" });
  const question = thread.getByRole("listitem", { name: `Comment by ${cora.name}` });
  await expect(question).toContainText("Is this test nondeterministic?");
  await expect(question).toContainText("new");
  // The thread and the labels are above the decision form.
  expect((await thread.boundingBox())!.y).toBeLessThan((await page.getByLabel(/^Reason/).boundingBox())!.y);
  await page.getByLabel("Comment", { exact: true }).fill("No: pick() always returns 1.");
  await page.getByRole("button", { name: "Post comment" }).click();
  await expect(thread.getByRole("listitem")).toHaveCount(2);
  // Read now: the mark is gone on the next visit.
  await page.goto(`/campaigns/${campaignId}/review?queue=flagged`);
  await expect(page.getByRole("table", { name: "Items to review" })).not.toContainText("new comment");

  await annotator.goto(`/campaigns/${campaignId}/items/${itemId}`);
  const reply = annotator
    .getByRole("list", { name: "Comments" })
    .getByRole("listitem", { name: /^Comment by / })
    .last();
  await expect(reply).toContainText("No: pick() always returns 1.");
  await expect(reply).toContainText("new");
  await annotator.context().close();
});

test("a labelled campaign cannot be deleted; an unlabelled one can", async ({ page }) => {
  await signIn(page, admin);
  await page.goto(`/campaigns/${campaignId}`);
  await expect(page.getByText("Labelled campaigns cannot be deleted")).toBeVisible();
  await expect(page.getByRole("form", { name: "Campaign settings" }).getByLabel("Overlap")).toBeDisabled();

  // The spare is made with the campaigns page's form.
  const spare = `Spare campaign ${run}`;
  await page.goto("/campaigns");
  await page.getByLabel("Dataset").selectOption(dataset);
  await page.getByLabel("Campaign name").fill(spare);
  await page.getByLabel("Seed").fill("spare");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByRole("status")).toContainText(`Created ${spare} with 1 item. Seed: spare`);
  await page.getByRole("status").getByRole("link", { name: spare }).click();
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Delete campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns$/);
  await expect(page.getByRole("link", { name: spare })).toHaveCount(0);
  await expect(page.getByRole("link", { name: campaignName })).toBeVisible();
});
