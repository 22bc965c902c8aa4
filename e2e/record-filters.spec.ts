import { readFileSync } from "node:fs";

import { expect, type Page, test } from "@playwright/test";

import { admin, ensurePeople, importRecords, signedInPage, signIn, unique } from "./people";

// The record browser's filter form as a person uses it: choose values, press Filter, read the table.
// Signs in as the shared admin (ensurePeople); the file imports the demo dataset once under a name of
// its own, which the tests only read.
const dataset = unique("e2e-filters");

test.beforeAll(async ({ browser }) => {
  await ensurePeople(browser);
  const page = await signedInPage(browser, admin);
  await importRecords(page, dataset, readFileSync("prisma/demo/demo.jsonl"));
  await page.context().close();
});

const demo = readFileSync("prisma/demo/demo.jsonl", "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as { language: string; difficulty?: string; question: string });
const count = (keep: (record: (typeof demo)[number]) => boolean) => demo.filter(keep).length;
/** The page's count line for n records under a filter. */
const matchLine = (n: number) => `${n} ${n === 1 ? "record matches" : "records match"} these filters`;

/** The table's cells of one column, as text. */
async function column(page: Page, index: number): Promise<string[]> {
  return page.locator("tbody tr").locator(`td:nth-child(${index})`).allInnerTexts();
}

async function openDataset(page: Page) {
  await signIn(page, admin);
  await page.goto(`/datasets/${dataset}`);
  await expect(page.getByText(`${demo.length} records match`)).toBeVisible();
}

test("the admin imports the demo dataset", async ({ page }) => {
  await signIn(page, admin);
  const response = await page.request.post(`/api/v1/datasets/${unique("e2e-filters")}/records`, {
    data: readFileSync("prisma/demo/demo.jsonl"),
    headers: { "content-type": "application/x-ndjson", origin: new URL(page.url()).origin },
  });
  expect(response.status()).toBe(201);
});

test("Language = Python shows only Python records and keeps the choice in the form", async ({ page }) => {
  await openDataset(page);
  await page.getByLabel("Language").selectOption("python");
  await page.getByRole("button", { name: "Filter" }).click();
  const expected = count((record) => record.language === "python");
  await expect(page.getByText(matchLine(expected))).toBeVisible();
  expect(new Set(await column(page, 2))).toEqual(new Set(["Python"]));
  await expect(page.getByLabel("Language")).toHaveValue("python");
  await expect(page.getByLabel("Difficulty")).toHaveValue("");
});

test("Difficulty = hard shows only hard records", async ({ page }) => {
  await openDataset(page);
  await page.getByLabel("Difficulty").selectOption("hard");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText(matchLine(count((record) => record.difficulty === "hard")))).toBeVisible();
  expect(new Set(await column(page, 3))).toEqual(new Set(["hard"]));
  await expect(page.getByLabel("Difficulty")).toHaveValue("hard");
});

test("Critic = Failed shows only records the critic failed", async ({ page }) => {
  await openDataset(page);
  await page.getByLabel("Critic verdict").selectOption("fail");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText(/\d+ (records match|record matches) these filters/)).toBeVisible();
  const verdicts = await column(page, 5);
  expect(verdicts.length).toBeGreaterThan(0);
  expect(verdicts.length).toBeLessThan(demo.length);
  expect(new Set(verdicts)).toEqual(new Set(["fail"]));
  await expect(page.getByLabel("Critic verdict")).toHaveValue("fail");
});

test("Executable = Not verified matches every record of a dataset never verified", async ({ page }) => {
  await openDataset(page);
  await page.getByLabel("Executable-valid").selectOption("unknown");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText(matchLine(demo.length))).toBeVisible();
  await page.getByLabel("Executable-valid").selectOption("valid");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("0 records match these filters")).toBeVisible();
  await expect(page.getByText("No records match.")).toBeVisible();
});

test("search in questions narrows by text", async ({ page }) => {
  await openDataset(page);
  await page.getByLabel("Search in questions").fill("LRU");
  await page.getByRole("button", { name: "Filter" }).click();
  const expected = count((record) => record.question.toLowerCase().includes("lru"));
  expect(expected).toBeGreaterThan(0);
  await expect(page.getByText(matchLine(expected))).toBeVisible();
});

test("filters combine: Python and easy", async ({ page }) => {
  await openDataset(page);
  await page.getByLabel("Language").selectOption("python");
  await page.getByLabel("Difficulty").selectOption("easy");
  await page.getByRole("button", { name: "Filter" }).click();
  const expected = count((record) => record.language === "python" && record.difficulty === "easy");
  await expect(page.getByText(matchLine(expected))).toBeVisible();
  expect(new Set(await column(page, 2))).toEqual(new Set(["Python"]));
  expect(new Set(await column(page, 3))).toEqual(new Set(["easy"]));
});

test("an invalid value is shown as an error while the valid filters still apply", async ({ page }) => {
  await openDataset(page);
  await page.goto(`/datasets/${dataset}?language=python&difficulty=impossible`);
  await expect(page.getByRole("alert").filter({ hasText: "Difficulty" })).toContainText(
    "Difficulty: “impossible” is not a value this filter knows",
  );
  await expect(page.getByText(matchLine(count((record) => record.language === "python")))).toBeVisible();
  await expect(page.getByLabel("Language")).toHaveValue("python");
});
