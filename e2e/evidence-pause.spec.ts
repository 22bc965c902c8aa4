import { expect, type Page, test } from "@playwright/test";

import { importThroughPage } from "./import-page";
import { admin, ensurePeople, signIn } from "./people";

// Long evidence work in an admin's hands, on the dataset page: mutation analysis started there shows
// its progress, keeps showing it after a reload, pauses (the workers leave it), resumes, and ends
// with every record's score in place.
const run = Date.now().toString(36);
const dataset = `e2e-pause-${run}`;
const RECORDS = 6;

// Each test sleeps, so the batch lasts long enough to pause it in the middle.
const records = Array.from({ length: RECORDS }, (_, index) => ({
  question: `# Add ${index} ${run}\n\nWrite \`add_${index}(a, b)\` in Python.`,
  canonical_solution: `def add_${index}(a, b):\n    return a + b\n`,
  demo_test_func: `import time\ntime.sleep(0.4)\nassert add_${index}(2, 3) == 5\n`,
  full_test_func: `import time\ntime.sleep(0.4)\nassert add_${index}(2, 3) == 5\nassert add_${index}(-1, 1) == 0\n`,
  language: "python",
  difficulty: "easy",
}));

/** The batch's progress line: "done/total record tasks · state · …". */
async function progressOf(page: Page): Promise<{ done: number; state: string }> {
  const text = await page.getByTestId("evidence-progress").innerText();
  const found = /^(\d+)\/\d+ record tasks? · (\w+)/.exec(text.trim());
  if (!found) throw new Error(`unexpected progress: ${text}`);
  return { done: Number(found[1]), state: found[2] };
}

test.beforeAll(async ({ browser }) => ensurePeople(browser));

test("an admin starts mutation analysis, reloads, pauses, resumes, and the scores land", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, admin);
  await importThroughPage(page, dataset, records);

  await page.goto(`/datasets/${dataset}`);
  const form = page.getByTestId("evidence-button");
  await form.getByRole("button", { name: "Measure test strength" }).click();
  const progress = form.getByTestId("evidence-progress");
  await expect(progress).toContainText(`/${RECORDS} record tasks · running`);
  await expect.poll(async () => (await progressOf(page)).done, { timeout: 90_000 }).toBeGreaterThan(0);

  // A reload shows the same batch, still running.
  await page.reload();
  await expect(form.getByTestId("evidence-progress")).toContainText("running");

  await form.getByRole("button", { name: "Pause" }).click();
  await expect(progress).toContainText("· paused");
  // A record being measured when it paused finishes; then nothing moves until it resumes.
  await page.waitForTimeout(6_000);
  const paused = await progressOf(page);
  await page.waitForTimeout(4_000);
  expect(await progressOf(page)).toEqual(paused);
  expect(paused.done).toBeLessThan(RECORDS);

  await form.getByRole("button", { name: "Resume" }).click();
  await expect(progress).toContainText(`${RECORDS}/${RECORDS} record tasks · succeeded`, { timeout: 150_000 });

  // Every record's score landed: the first record's panel shows its test strength.
  await page.getByRole("link", { name: `Add 0 ${run}` }).click();
  await expect(page.getByTestId("evidence-panel").getByTestId("evidence-mutation")).toContainText("mutants rejected");
});
