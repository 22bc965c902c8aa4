import { expect, type Page, test } from "@playwright/test";

import { invite, signIn, signInAsAdmin } from "./people";

// Quality control on a blind campaign: the annotator changes one verdict after the critic is shown;
// a reviewer sees the flip on the Agreement page and everyone's progress on the campaign page.
test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const ann = { email: `qc-ann-${run}@example.test`, password: "annotator-password-3", name: `Quinn ${run}` };
const reviewer = { email: `qc-rev-${run}@example.test`, password: "reviewer-password-3", name: `Remy ${run}` };
const dataset = `e2e-qc-${run}`;
let campaignId = "";

const critic = {
  summary: {
    overall_pass: false,
    failed_rules: ["Other Issues"],
    key_points: ["The tests disagree with the statement."],
  },
};
const records = [1, 2, 3].map((n) => ({
  question: `# QC ${run} ${n}\n\nWrite \`triple_${n}(x)\` in Python returning three times \`x\`.`,
  canonical_solution: `def triple_${n}(x):\n    return 3 * x\n`,
  demo_test_func: `assert triple_${n}(1) == 3\n`,
  full_test_func: `assert triple_${n}(2) == 6\n`,
  language: "python",
  difficulty: "easy",
  critic_result: critic,
}));

const writeHeaders = (page: Page) => ({ origin: new URL(page.url()).origin, "content-type": "application/json" });

test("the admin creates a blind campaign, an annotator and a reviewer", async ({ page, browser }) => {
  await signInAsAdmin(page);
  const imported = await page.request.post(`/api/v1/datasets/${dataset}/records`, {
    data: records.map((record) => JSON.stringify(record)).join("\n"),
    headers: { ...writeHeaders(page), "content-type": "application/x-ndjson" },
  });
  expect(imported.status()).toBe(201);
  const created = await page.request.post("/api/v1/campaigns", {
    data: { dataset, name: `QC ${run}`, languages: ["python"], overlap: 1, blind: true, seed: "qc" },
    headers: writeHeaders(page),
  });
  expect(created.status()).toBe(201);
  campaignId = ((await created.json()) as { id: string }).id;
  await invite(page, browser, ann, "ANNOTATOR");
  await invite(page, browser, reviewer, "REVIEWER");
});

test("the annotator flips one verdict after the reveal, keeps another, and holds a third item", async ({ page }) => {
  await signIn(page, ann);
  const headers = writeHeaders(page);
  const claim = async () =>
    (
      (await (await page.request.post(`/api/v1/campaigns/${campaignId}/claim`, { headers })).json()) as {
        item: { id: string };
      }
    ).item.id;
  const annotate = (itemId: string, body: Record<string, unknown>) =>
    page.request.post(`/api/v1/items/${itemId}/annotations`, {
      data: { categories: [], activeMs: 8000, ...body },
      headers,
    });

  const first = await claim();
  expect((await annotate(first, { valid: true })).status()).toBe(201);
  expect(
    (
      await annotate(first, { valid: false, categories: ["other"], note: "The critic is right.", baseRevision: 1 })
    ).status(),
  ).toBe(200);
  const second = await claim();
  expect((await annotate(second, { valid: false, categories: ["other"], note: "The tests are wrong." })).status()).toBe(
    201,
  );
  await claim();
});

test("the reviewer sees the flip on the Agreement page and each person's progress on the campaign page", async ({
  page,
}) => {
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
