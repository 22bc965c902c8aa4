import { expect, type Page, test } from "@playwright/test";

import { admin, createCampaign, ensurePeople, importRecords, listRecords, signedInPage, unique } from "./people";

// Small things a team met in a campaign: the dataset page scrolled sideways on a 390 px phone, and
// the record page showed its code in fixed boxes (a two-line test in a 220 px box, a long test cut
// to 320 px). Each test brings its own dataset.

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
