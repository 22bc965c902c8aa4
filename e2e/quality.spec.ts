import { type Browser, expect, type Page, test } from "@playwright/test";

import {
  addPerson,
  admin,
  ensureAdmin,
  invite,
  SAME_ORIGIN,
  signedInPage,
  signIn,
  signInAsAdmin,
  unique,
} from "./people";

test.beforeAll(async ({ browser }) => ensureAdmin(browser));

// Quality control on a blind campaign: the annotator changes one verdict after the critic is shown;
// a reviewer sees the flip on the Agreement page and everyone's progress on the campaign page. Each
// test brings its own campaign and people, and the labels before its step, made through the API.

/** The names of one story: a dataset, an annotator and a reviewer. */
function story() {
  const run = unique("qc");
  return {
    run,
    ann: { email: `qc-ann-${run}@example.test`, password: "annotator-password-3", name: `Quinn ${run}` },
    reviewer: { email: `qc-rev-${run}@example.test`, password: "reviewer-password-3", name: `Remy ${run}` },
    dataset: `e2e-qc-${run}`,
  };
}

const critic = {
  summary: {
    overall_pass: false,
    failed_rules: ["Other Issues"],
    key_points: ["The tests disagree with the statement."],
  },
};
const records = (run: string) =>
  [1, 2, 3].map((n) => ({
    question: `# QC ${run} ${n}\n\nWrite \`triple_${n}(x)\` in Python returning three times \`x\`.`,
    canonical_solution: `def triple_${n}(x):\n    return 3 * x\n`,
    demo_test_func: `assert triple_${n}(1) == 3\n`,
    full_test_func: `assert triple_${n}(2) == 6\n`,
    language: "python",
    difficulty: "easy",
    critic_result: critic,
  }));

const writeHeaders = { ...SAME_ORIGIN, "content-type": "application/json" };

/** The admin imports the story's records and creates a blind campaign over them; returns its id. */
async function blindCampaign(page: Page, { run, dataset }: ReturnType<typeof story>) {
  const imported = await page.request.post(`/api/v1/datasets/${dataset}/records`, {
    data: records(run)
      .map((record) => JSON.stringify(record))
      .join("\n"),
    headers: { ...writeHeaders, "content-type": "application/x-ndjson" },
  });
  expect(imported.status()).toBe(201);
  const created = await page.request.post("/api/v1/campaigns", {
    data: { dataset, name: `QC ${run}`, languages: ["python"], overlap: 1, blind: true, seed: "qc" },
    headers: writeHeaders,
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** The annotator's work through the API: one verdict flipped after the reveal, one kept, a third item held. */
async function annotate(page: Page, campaignId: string) {
  const headers = writeHeaders;
  const claim = async () =>
    (
      (await (await page.request.post(`/api/v1/campaigns/${campaignId}/claim`, { headers })).json()) as {
        item: { id: string };
      }
    ).item.id;
  const label = (itemId: string, body: Record<string, unknown>) =>
    page.request.post(`/api/v1/items/${itemId}/annotations`, {
      data: { categories: [], activeMs: 8000, ...body },
      headers,
    });

  const first = await claim();
  expect((await label(first, { valid: true })).status()).toBe(201);
  expect(
    (
      await label(first, { valid: false, categories: ["other"], note: "The critic is right.", baseRevision: 1 })
    ).status(),
  ).toBe(200);
  const second = await claim();
  expect((await label(second, { valid: false, categories: ["other"], note: "The tests are wrong." })).status()).toBe(
    201,
  );
  await claim();
}

/** A blind campaign with its annotator and reviewer, created through the API. */
async function campaignWithPeople(browser: Browser) {
  const names = story();
  const page = await signedInPage(browser, admin);
  const campaignId = await blindCampaign(page, names);
  await addPerson(page, names.ann, "ANNOTATOR");
  await addPerson(page, names.reviewer, "REVIEWER");
  await page.context().close();
  return { ...names, campaignId };
}

test("the admin creates a blind campaign, an annotator and a reviewer", async ({ page, browser }) => {
  const names = story();
  await signInAsAdmin(page);
  await blindCampaign(page, names);
  await invite(page, browser, names.ann, "ANNOTATOR");
  await invite(page, browser, names.reviewer, "REVIEWER");
});

test("the annotator flips one verdict after the reveal, keeps another, and holds a third item", async ({
  browser,
  page,
}) => {
  const { ann, campaignId } = await campaignWithPeople(browser);
  await signIn(page, ann);
  await annotate(page, campaignId);
});

test("the reviewer sees the flip on the Agreement page and each person's progress on the campaign page", async ({
  page,
  browser,
}) => {
  const { ann, reviewer, campaignId } = await campaignWithPeople(browser);
  const annotatorPage = await signedInPage(browser, ann);
  await annotate(annotatorPage, campaignId);
  await annotatorPage.context().close();
  await signIn(page, reviewer);
  await page.goto(`/campaigns/${campaignId}`);
  const progress = page.getByRole("table", { name: "Annotator progress" });
  const row = progress.getByRole("row", { name: new RegExp(ann.name) });
  // Labelled 2, skipped 0, one item held; median of 16 s (8 s + 8 s for the revision) and 8 s.
  // No gold items in this campaign: gold accuracy is undefined (—).
  await expect(row.getByRole("cell")).toHaveText(["2", "0", "1", "12.0 s", /—/]);

  await page.goto(`/campaigns/${campaignId}/agreement`);
  const reveal = page.getByRole("table", { name: "Critic reveal" });
  // Labels 2, flipped 1 (50%), toward the critic 1, agreement with the critic 50% before, 100% after.
  await expect(reveal.getByRole("row", { name: new RegExp(ann.name) }).getByRole("cell")).toHaveText([
    "Python",
    "2",
    "1 (50.00%)",
    "1",
    "50.00%",
    "100.00%",
    "0.000",
    /—/,
  ]);
  // Nothing was run, so there is nothing to compare with execution.
  const execution = page.getByRole("figure", { name: "Human vs execution, Overall" });
  await expect(execution).toContainText("items 0");
  await expect(execution).toContainText("2 not run, left out");
});
