import { expect, type Page, test } from "@playwright/test";

import {
  admin,
  annotator,
  claimAndLabel,
  createCampaign,
  ensurePeople,
  importRecords,
  listRecords,
  signedInPage,
  unique,
} from "./people";

// Small things a team met in a campaign: the dataset page and "Which critic to trust" scrolled
// sideways on a 390 px phone, and the record page showed its code, and its repair editor, in fixed
// boxes (a two-line test in a 220 px box, a long test cut to 320 px, every field's diff in 260 px).
// Each test brings its own dataset.

test.beforeAll(async ({ browser }) => ensurePeople(browser));

const longTest = Array.from({ length: 60 }, (_, n) => `assert f(${n}) == ${n}`).join("\n") + "\n";

/** A fresh dataset of one python record (with a 2-line demo test and a 60-line full test) and a campaign. */
async function datasetWithRecord(page: Page) {
  const dataset = unique("narrow");
  await importRecords(page, dataset, [
    {
      question: `# Identity ${dataset}\n\nWrite \`f(a)\` in Python returning \`a\`.`,
      canonical_solution: "def f(a):\n    return a\n",
      demo_test_func: "assert f(1) == 1\nassert f(2) == 2\n",
      full_test_func: longTest,
      language: "python",
    },
  ]);
  await createCampaign(page, { dataset, name: `Narrow ${dataset}` });
  return dataset;
}

test("the dataset page does not scroll sideways at 390 px", async ({ browser }) => {
  const page = await signedInPage(browser, admin);
  const dataset = await datasetWithRecord(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/datasets/${dataset}`);
  await expect(page.getByRole("heading", { name: dataset })).toBeVisible();
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
});

test("the record page's editors are as tall as their code, up to the window", async ({ browser }) => {
  const page = await signedInPage(browser, admin);
  const dataset = await datasetWithRecord(page);
  const [record] = await listRecords(page, dataset);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/records/${record.id}`);
  const demo = page.getByTestId("code-demo-test");
  const full = page.getByTestId("code-full-test");
  await expect(demo.locator(".view-lines")).toContainText("f(2) == 2");
  await expect(full.locator(".view-lines")).toContainText("f(0) == 0");
  // Two lines of 19 px and the padding; sixty lines up to 70% of the 900 px window.
  await expect.poll(async () => (await demo.boundingBox())?.height ?? 0).toBeLessThan(80);
  await expect.poll(async () => (await full.boundingBox())?.height ?? 0).toBeGreaterThan(500);
});

/** Whether the page scrolls sideways: its scrolling element is wider than the window. */
async function scrollsSideways(page: Page) {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { scroll: root.scrollWidth, client: root.clientWidth };
  });
}

test("Which critic to trust does not scroll sideways at 390 px", async ({ browser }) => {
  const page = await signedInPage(browser, admin);
  const dataset = unique("narrow-critics");
  await importRecords(page, dataset, [
    {
      question: `# Identity ${dataset}\n\nWrite \`f(a)\` in Python returning \`a\`.`,
      canonical_solution: "def f(a):\n    return a\n",
      demo_test_func: "assert f(1) == 1\n",
      full_test_func: "assert f(2) == 2\n",
      language: "python",
      critic: {
        rule_results: [{ rule: "Other Issues", result: "fail", reason: "A reason long enough to wrap twice." }],
        summary: { overall_pass: false, failed_rules: ["Other Issues"], key_points: [] },
      },
    },
  ]);
  const campaign = await createCampaign(page, { dataset, name: `Narrow critics ${dataset}`, overlap: 1 });
  // One final label, so the ranking has a critic version to rank.
  const labeller = await signedInPage(browser, annotator);
  await claimAndLabel(labeller, campaign.id, { valid: false, categories: ["other"], note: "Wrong." });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/datasets/${dataset}/critics`);
  await expect(page.getByRole("heading", { name: "Which critic to trust" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Critic ranking" })).toBeVisible();
  const widths = await scrollsSideways(page);
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  // The dataset page, measured the same way.
  await page.goto(`/datasets/${dataset}`);
  await expect(page.getByRole("heading", { name: dataset })).toBeVisible();
  const datasetWidths = await scrollsSideways(page);
  expect(datasetWidths.scroll).toBeLessThanOrEqual(datasetWidths.client);
});

test("the repair editor on the record page is as tall as the field it edits, up to the window", async ({ browser }) => {
  const page = await signedInPage(browser, admin);
  const dataset = await datasetWithRecord(page);
  const [record] = await listRecords(page, dataset);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/records/${record.id}`);
  const repair = page.getByRole("form", { name: "Propose a revision" });
  await page.getByRole("button", { name: "Propose a revision" }).click();
  await expect(repair.getByRole("tab", { name: "Full test" })).toHaveAttribute("aria-selected", "true");
  const full = repair.getByTestId("diff-revise-full-test");
  await expect(full.locator(".editor.modified .view-lines")).toContainText("f(0) == 0");
  // Sixty lines: most of the 900 px window, not a 260 px box.
  await expect.poll(async () => (await full.boundingBox())?.height ?? 0).toBeGreaterThan(500);
  await repair.getByRole("tab", { name: "Demo test" }).click();
  const demo = repair.getByTestId("diff-revise-demo-test");
  await expect(demo.locator(".editor.modified .view-lines")).toContainText("f(2) == 2");
  // Two lines, and room for a few more while editing.
  await expect.poll(async () => (await demo.boundingBox())?.height ?? 0).toBeLessThan(160);
});
