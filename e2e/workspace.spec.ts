import { type Browser, expect, type Page, test } from "@playwright/test";

import { admin, annotator, createCampaign, ensurePeople, importRecords, signedInPage, signIn, unique } from "./people";

test.beforeAll(async ({ browser }) => ensurePeople(browser));

// The annotation workspace, keyboard first. Uses the shared admin and
// python annotator (ensurePeople); each test brings its own dataset and campaign, named uniquely.

type Slot = "keyboard" | "blind";
const campaignNames = (run: string) => ({ keyboard: `Keyboard campaign ${run}`, blind: `Blind campaign ${run}` });

const critic = {
  rule_results: [{ rule: "Other Issues", result: "pass", reason: "Statement, solution and tests agree." }],
  summary: { overall_pass: true, failed_rules: [], key_points: ["Consistent."] },
};

/** A small python record whose canonical solution really passes both tests. */
function record(name: string, operator: string, a: number, b: number) {
  const value = (x: number, y: number) => (operator === "+" ? x + y : operator === "*" ? x * y : x - y);
  return {
    question: `# Workspace ${name}\n\nWrite \`${name}(a, b)\` in Python returning \`a ${operator} b\`.`,
    canonical_solution: `def ${name}(a, b):\n    return a ${operator} b\n`,
    demo_test_func: `assert ${name}(${a}, ${b}) == ${value(a, b)}\n`,
    full_test_func: `assert ${name}(${b}, ${a}) == ${value(b, a)}\nassert ${name}(0, 0) == 0\n`,
    language: "python",
    difficulty: "easy",
    critic,
  };
}

/** The five python records, imported as the signed-in admin into a fresh dataset. */
async function importDataset(page: Page) {
  const run = unique("ws");
  const dataset = `e2e-workspace-${run}`;
  await importRecords(page, dataset, [
    record("ws_add", "+", 1, 2),
    record("ws_mul", "*", 3, 4),
    record("ws_sub", "-", 9, 4),
    record("ws_add2", "+", 5, 6),
    record("ws_mul2", "*", 2, 7),
  ]);
  return { run, dataset, names: campaignNames(run) };
}

/** Creates the keyboard or the blind campaign over the dataset; returns its id. */
async function createSlot(page: Page, dataset: string, slot: Slot, name: string) {
  const blind = slot === "blind";
  // The keyboard campaign asks for a note on invalid labels (off by default), to exercise N and Ctrl+Enter.
  const created = await createCampaign(page, { dataset, name, blind, requireInvalidNote: !blind });
  expect(created.itemCount).toBe(5);
  return created.id;
}

/** A fresh dataset and one campaign of the slot, made through the API; returns its id and name. */
async function campaignFor(browser: Browser, slot: Slot) {
  const page = await signedInPage(browser, admin);
  const { dataset, names } = await importDataset(page);
  const id = await createSlot(page, dataset, slot, names[slot]);
  await page.context().close();
  return { id, name: names[slot] };
}

/** Waits for the next item's page after the current one (identified by its heading) was left. */
async function expectNextItem(page: Page, previousHeading: string): Promise<string> {
  const heading = page.getByRole("heading", { name: /^Record \d+$/ });
  await expect(heading).not.toHaveText(previousHeading);
  await expect(page).toHaveURL(/\/items\/itm_/);
  return (await heading.textContent()) ?? "";
}

/** Presses a shortcut until it took effect: the first key on a fresh page may land before hydration. */
async function pressUntil(page: Page, key: string, check: () => Promise<void>) {
  await expect(async () => {
    await page.keyboard.press(key);
    await check();
  }).toPass({ timeout: 15_000 });
}

test("the admin imports a python dataset and creates two campaigns", async ({ page }) => {
  await signIn(page, admin);
  const { dataset, names } = await importDataset(page);
  for (const slot of ["keyboard", "blind"] as const) await createSlot(page, dataset, slot, names[slot]);
  await page.getByRole("link", { name: "Campaigns" }).click();
  await expect(page.getByRole("link", { name: names.keyboard })).toBeVisible();
  await expect(page.getByRole("link", { name: names.blind })).toBeVisible();
});

test("an annotator labels three records and skips one by keyboard alone", async ({ page, browser }) => {
  const keyboard = await campaignFor(browser, "keyboard");
  await signIn(page, annotator);
  await page.getByRole("link", { name: "Campaigns" }).click();
  await page.getByRole("link", { name: keyboard.name }).click();
  await page.getByRole("link", { name: "Start" }).click();
  await expect(page).toHaveURL(/\/items\/itm_/);
  let heading = (await page.getByRole("heading", { name: /^Record \d+$/ }).textContent()) ?? "";

  // First record: run the tests (R), probe a scratch copy (E opens, E runs), then Valid and Enter.
  const valid = page.getByRole("radio", { name: "Valid", exact: true });
  await pressUntil(page, "v", () => expect(valid).toBeChecked({ timeout: 1_000 }));
  await page.keyboard.press("r");
  await expect(page.getByTestId("run-row-demo")).toContainText("PASSED", { timeout: 45_000 });
  await expect(page.getByTestId("run-row-full")).toContainText("PASSED");
  await page.keyboard.press("e");
  const runEdited = page.getByRole("button", { name: /Run edited code/ });
  await expect(runEdited).toBeFocused();
  await expect(page.getByTestId("editor-scratch-solution").locator(".view-lines")).toContainText("def ws_");
  await page.keyboard.press("e");
  await expect(page.getByTestId("scratch-result")).toContainText("Scratch run");
  await expect(page.getByTestId("scratch-result")).toContainText("PASSED", { timeout: 45_000 });
  await page.keyboard.press("Enter");
  heading = await expectNextItem(page, heading);

  // Second record: Invalid with two categories and a note, submitted from inside the note.
  const invalid = page.getByRole("radio", { name: "Invalid", exact: true });
  await pressUntil(page, "i", () => expect(invalid).toBeChecked({ timeout: 1_000 }));
  await page.keyboard.press("1");
  await page.keyboard.press("3");
  await expect(page.getByRole("checkbox", { name: "Statement incomplete" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Statement ambiguous" })).toBeChecked();
  await page.keyboard.press("3");
  await expect(page.getByRole("checkbox", { name: "Statement ambiguous" })).not.toBeChecked();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Say why it is invalid.")).toBeVisible();
  await page.keyboard.press("n");
  await expect(page.getByLabel(/^Note/)).toBeFocused();
  await page.keyboard.type("The statement never says what to return for empty input.");
  await page.keyboard.press("Control+Enter");
  heading = await expectNextItem(page, heading);

  // Third record: Valid, Enter.
  await pressUntil(page, "v", () => expect(valid).toBeChecked({ timeout: 1_000 }));
  await page.keyboard.press("Enter");
  heading = await expectNextItem(page, heading);

  // Fourth record: S opens the reason, Enter confirms the skip.
  await pressUntil(page, "s", () => expect(page.getByLabel("Reason for skipping")).toBeFocused({ timeout: 1_000 }));
  await page.keyboard.type("I cannot judge this one");
  await page.keyboard.press("Enter");
  await expectNextItem(page, heading);

  // The shortcut sheet opens with ? and closes with Esc.
  await pressUntil(page, "?", () =>
    expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible({ timeout: 1_000 }),
  );
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeHidden();

  await page.getByRole("link", { name: keyboard.name }).click();
  await expect(page.getByTestId("mine-submitted")).toHaveText("3");
  await expect(page.getByTestId("mine-skipped")).toHaveText("1");
  await expect(page.getByTestId("mine-in-progress")).toHaveText("1");
  await expect(page.getByRole("list", { name: "Your labels" }).getByRole("listitem")).toHaveCount(3);
  await expect(page.getByText("The statement never says what to return for empty input.")).toBeVisible();
});

// Esc closes the sheet, but until the page next renders Chromium can leave focus on the sheet's
// hidden Close button: an Enter pressed in that moment went to the button and did nothing (a reviewer's
// decision in walkthrough.spec.ts was never sent; the moment is rare here, so it is made on purpose:
// the sheet closed and Enter pressed on its button in one task, before any render).
test("Enter pressed on the closed shortcut sheet's button still submits the label", async ({ page, browser }) => {
  const keyboard = await campaignFor(browser, "keyboard");
  await signIn(page, annotator);
  await page.goto(`/campaigns/${keyboard.id}`);
  await page.getByRole("link", { name: "Start" }).click();
  await expect(page).toHaveURL(/\/items\/itm_/);
  const heading = (await page.getByRole("heading", { name: /^Record \d+$/ }).textContent()) ?? "";
  await pressUntil(page, "v", () => expect(page.getByRole("radio", { name: "Valid", exact: true })).toBeChecked());
  const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await page.keyboard.press("?");
  await expect(sheet.getByRole("button", { name: "Close" })).toBeFocused();
  await page.evaluate(() => {
    const dialog = document.querySelector<HTMLDialogElement>("dialog[open]")!;
    const close = dialog.querySelector("button")!;
    dialog.close();
    close.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
  });
  await expectNextItem(page, heading);
});

test("blind mode hides the critic until the first label, then allows a revision", async ({ page, browser }) => {
  const blind = await campaignFor(browser, "blind");
  await signIn(page, annotator);
  await page.goto(`/campaigns/${blind.id}/next`);
  await expect(page).toHaveURL(/\/items\/itm_/);
  const itemUrl = page.url();
  await expect(page.getByText("The critic is hidden until you submit a first label.")).toBeVisible();
  await expect(page.getByText("Overall:")).toHaveCount(0);

  const valid = page.getByRole("radio", { name: "Valid", exact: true });
  await pressUntil(page, "v", () => expect(valid).toBeChecked({ timeout: 1_000 }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toContainText("The critic is now shown");
  await expect(page.getByRole("region", { name: "Critic" }).getByText("Overall:").first()).toBeVisible();
  await expect(page.getByText("The critic is hidden until you submit a first label.")).toHaveCount(0);
  expect(page.url()).toBe(itemUrl);

  // Revise after seeing the critic: Invalid with a category and a note.
  await page.keyboard.press("i");
  await page.keyboard.press("2");
  await page.keyboard.press("n");
  await page.keyboard.type("On second thought the names differ.");
  await page.keyboard.press("Control+Enter");
  await expect(page).not.toHaveURL(itemUrl);

  await page.goto(itemUrl);
  await expect(page.getByText("Your label (revision 2)")).toBeVisible();
  await expect(page.getByRole("radio", { name: "Invalid", exact: true })).toBeChecked();
  const revisions = page.getByRole("list", { name: "Revisions" }).getByRole("listitem");
  await expect(revisions).toHaveCount(2);
  await expect(revisions.first()).toContainText("Name mismatch");
  await expect(page.getByText("Before the critic was shown:")).toContainText(/shown:\s*valid/);
});
