import { expect, type Page, test } from "@playwright/test";

import { importThroughPage } from "./import-page";
import { admin, ensurePeople, signIn } from "./people";

// Batch verification in an admin's hands, on the dataset page: it pauses (the workers leave its
// records), resumes, and a cancel ends it where it is, also after a reload and on its own page.
const run = Date.now().toString(36);
const dataset = `e2e-verify-pause-${run}`;
const RECORDS = 12;

// Each test sleeps, so the batch lasts long enough to pause it and cancel it in the middle.
const records = Array.from({ length: RECORDS }, (_, index) => ({
  question: `# Add ${index} ${run}\n\nWrite \`add_${index}(a, b)\` in Python.`,
  canonical_solution: `def add_${index}(a, b):\n    return a + b\n`,
  demo_test_func: `import time\ntime.sleep(0.5)\nassert add_${index}(2, 3) == 5\n`,
  full_test_func: `import time\ntime.sleep(0.5)\nassert add_${index}(-1, 1) == 0\n`,
  language: "python",
  difficulty: "easy",
}));

/** How many records the batch's progress line says are verified ("done/total verified · …"). */
async function doneOf(page: Page): Promise<number> {
  const text = await page.getByTestId("verification-progress").innerText();
  const found = /^(\d+)\/\d+ verified/.exec(text.trim());
  if (!found) throw new Error(`unexpected progress: ${text}`);
  return Number(found[1]);
}

test.beforeAll(async ({ browser }) => ensurePeople(browser));

test("an admin verifies a dataset, pauses, resumes and cancels it from the dataset page", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, admin);
  await importThroughPage(page, dataset, records);

  await page.goto(`/datasets/${dataset}`);
  await page.getByRole("button", { name: "Verify records" }).click();
  const progress = page.getByTestId("verification-progress");
  const pausedNote = page.getByTestId("verification-paused");
  await expect(progress).toContainText(`/${RECORDS} verified`);
  await expect.poll(() => doneOf(page), { timeout: 90_000 }).toBeGreaterThan(0);

  await page.getByRole("button", { name: "Pause" }).click();
  await expect(pausedNote).toBeVisible();
  await expect(page.getByRole("button", { name: "Paused" })).toBeDisabled();
  // A record being verified when it paused finishes; then nothing moves until it resumes.
  await page.waitForTimeout(4_000);
  const paused = await doneOf(page);
  await page.waitForTimeout(3_000);
  expect(await doneOf(page)).toBe(paused);
  expect(paused).toBeLessThan(RECORDS);

  await page.getByRole("button", { name: "Resume" }).click();
  await expect(pausedNote).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Verifying…" })).toBeDisabled();
  await expect.poll(() => doneOf(page), { timeout: 90_000 }).toBeGreaterThan(paused);

  // Paused again (so the end cannot come first), then cancelled.
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(pausedNote).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("verification-stopped")).toContainText("Cancelled by");
  await expect(pausedNote).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Pause" })).toHaveCount(0);
  const cancelled = await doneOf(page);
  expect(cancelled).toBeLessThan(RECORDS);

  // After a reload, and on its own page, it stays where the cancel left it.
  await page.waitForTimeout(2_000);
  await page.reload();
  await expect(progress).toContainText(`${cancelled}/${RECORDS} verified`);
  await expect(page.getByTestId("verification-stopped")).toContainText("Cancelled by");
  await page.getByRole("link", { name: "Run details" }).click();
  await expect(page.getByRole("heading", { name: "Verification cancelled" })).toBeVisible();
});
