import { expect, type Page, type Request, test } from "@playwright/test";

import { admin, annotator, createCampaign, ensurePeople, importRecords, signedInPage, unique } from "./people";

// What a person types is what the app keeps: the repair's diff editor and the scratch editor (E)
// propose and run every character typed at Playwright's default speed, and a note typed straight
// after N (even while the next item is still on its way) holds every letter and fires no shortcut.
// Each test brings its own dataset and campaign.

test.beforeAll(async ({ browser }) => ensurePeople(browser));

/** A python record whose solution passes both tests. */
function record(name: string) {
  return {
    question: `# Typing ${name}\n\nWrite \`${name}(a, b)\` in Python returning \`a + b\`.`,
    canonical_solution: `def ${name}(a, b):\n    return a + b\n`,
    demo_test_func: `assert ${name}(1, 2) == 3\n`,
    full_test_func: `assert ${name}(2, 1) == 3\nassert ${name}(0, 0) == 0\n`,
    language: "python",
    difficulty: "easy",
  };
}

/** A fresh dataset of `count` records and an open campaign over it; returns the campaign's id. */
async function campaignOf(page: Page, count: number) {
  const run = unique("typing");
  const dataset = `e2e-typing-${run}`;
  await importRecords(
    page,
    dataset,
    Array.from({ length: count }, (_, index) => record(`ty_${index}_${run.replaceAll("-", "_")}`)),
  );
  const created = await createCampaign(page, { dataset, name: `Typing ${run}` });
  expect(created.itemCount).toBe(count);
  return created.id;
}

/** The annotator's page on the campaign's first item, hydrated. */
async function annotatorOnItem(page: Page, campaignId: string) {
  const work = await signedInPage(page.context().browser()!, annotator);
  await work.goto(`/campaigns/${campaignId}/next`);
  await expect(work).toHaveURL(/\/items\/itm_/);
  await expect(work.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  return work;
}

/** The body of the next server action the page posts whose arguments contain `marker`. */
function actionCarrying(page: Page, marker: string): Promise<Request> {
  return page.waitForRequest(
    (request) =>
      request.method() === "POST" &&
      Boolean(request.headers()["next-action"]) &&
      (request.postData() ?? "").includes(marker),
  );
}

// 53 characters, no brackets or quotes (which Monaco would close by itself).
const typedLine = "assert 7 * 6 == 42 and 9 * 9 == 81 and 2 + 2 == 4  # ok";

test("every character typed into the repair's diff editor is proposed", async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await signedInPage(browser, admin);
  const work = await annotatorOnItem(page, await campaignOf(page, 1));
  const repair = work.getByRole("region", { name: "Repair this record" });
  await repair.getByRole("button", { name: "Propose a revision" }).click();
  const edited = repair.getByTestId("diff-revise-full-test").locator(".editor.modified .view-lines:not(.line-delete)");
  await expect(edited).toContainText("== 3");
  await edited.click();
  await work.keyboard.press("ControlOrMeta+End");
  await work.keyboard.type(typedLine);

  await repair.getByLabel("Reason").fill("A stronger full test.");
  await repair.getByRole("checkbox", { name: "Wrong expected output" }).check();
  const proposed = actionCarrying(work, "A stronger full test.");
  await repair.getByRole("button", { name: "Submit revision" }).click();
  const body = (await proposed).postData() ?? "";
  expect(body).toContain(`== 0\\n${typedLine}`);
  await expect(repair.getByRole("status")).toContainText("Revision 2 proposed", { timeout: 90_000 });
});

test("every character typed into the scratch editor is run", async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await signedInPage(browser, admin);
  const work = await annotatorOnItem(page, await campaignOf(page, 1));
  await work.getByRole("button", { name: /Edit & run/ }).click();
  const solution = work.getByTestId("editor-scratch-full-test").locator(".view-lines");
  await expect(solution).toContainText("== 0");
  await solution.click();
  await work.keyboard.press("ControlOrMeta+End");
  await work.keyboard.type(typedLine);

  const ran = actionCarrying(work, "# ok");
  await work.getByRole("button", { name: /Run edited code/ }).click();
  const body = (await ran).postData() ?? "";
  expect(body).toContain(`== 0\\n${typedLine}`);
  await expect(work.getByTestId("scratch-result")).toContainText("PASSED", { timeout: 60_000 });
});

test("a note typed straight after N, while the next item loads, keeps every letter and runs nothing", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const page = await signedInPage(browser, admin);
  const work = await annotatorOnItem(page, await campaignOf(page, 3));
  const heading = work.getByRole("heading", { name: /^Record \d+$/ });
  const first = await heading.textContent();
  await work.keyboard.press("v");
  await expect(work.getByRole("radio", { name: "Valid", exact: true })).toBeChecked();

  // Enter saves and opens the next item; N and the note follow at once, as a fast typist would.
  const note = "rerun: every edge case ends in error, never in a reason";
  await work.keyboard.press("Enter");
  await work.keyboard.press("n");
  await work.keyboard.type(note);

  await expect(heading).not.toHaveText(first ?? "");
  await expect(work.getByLabel(/^Note/)).toHaveValue(note);
  await expect(work.getByLabel(/^Note/)).toBeFocused();
  await expect(work.getByRole("button", { name: /Run both/ })).toBeEnabled();
  await expect(work.getByText("Not run yet.")).toBeVisible();
  await expect(work.getByRole("button", { name: /Run edited code/ })).toHaveCount(0);
});
