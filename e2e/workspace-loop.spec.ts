import { expect, type Locator, type Page, test } from "@playwright/test";

import { admin, annotator, ensurePeople, SAME_ORIGIN, signIn } from "./people";

test.beforeAll(async ({ browser }) => ensurePeople(browser));

// The annotator's loop — read, run, decide — at a laptop's 1440×900 and a phone's 390 width.
// Uses the shared admin and python annotator (ensurePeople). Each scenario gets its
// own small dataset and campaign, so the item on screen is known; the first test creates them and
// later tests look them up by name, so one failing scenario does not hide the others.
const LAPTOP = { width: 1440, height: 900 };

const failingCritic = {
  rule_results: [
    {
      rule: "Naming/Signature Inconsistency",
      result: "fail",
      reason: "The statement asks for `loop_add` but the tests call `loop_add` with **three** arguments.",
    },
    { rule: "Other Issues", result: "pass", reason: "Nothing else." },
  ],
  summary: { overall_pass: false, failed_rules: ["Naming/Signature Inconsistency"], key_points: ["Arity differs."] },
};

type RecordSpec = { question: string; canonical_solution: string; demo_test_func: string; full_test_func: string };

function record(name: string, overrides: Partial<RecordSpec> = {}) {
  return {
    question: `# Add **two** numbers ${name}\n\nWrite \`${name}(a, b)\` returning the sum.`,
    canonical_solution: `def ${name}(a, b):\n    return a + b\n`,
    demo_test_func: `assert ${name}(1, 2) == 3\n`,
    full_test_func: `assert ${name}(2, 2) == 4\nassert ${name}(0, 0) == 0\n`,
    language: "python",
    difficulty: "easy",
    critic: failingCritic,
    ...overrides,
  };
}

const campaignName = (slug: string) => `Loop ${slug}`;

/** Imports records as a new dataset and creates a campaign over it, unless it exists already. */
async function ensureCampaign(page: Page, slug: string, records: object[], options: Record<string, unknown> = {}) {
  if (await findCampaign(page, slug).catch(() => null)) return;
  const dataset = `e2e-loop-${slug}`;
  const imported = await page.request.post(`/api/v1/datasets/${dataset}/records`, {
    data: records.map((r) => JSON.stringify(r)).join("\n"),
    headers: { ...SAME_ORIGIN, "content-type": "application/x-ndjson" },
  });
  expect(imported.status()).toBe(201);
  const created = await page.request.post("/api/v1/campaigns", {
    data: { dataset, name: campaignName(slug), languages: ["python"], seed: "loop", ...options },
    headers: SAME_ORIGIN,
  });
  expect(created.status()).toBe(201);
}

/** The id of a scenario's campaign, looked up by name as the signed-in user. */
async function findCampaign(page: Page, slug: string): Promise<string> {
  const response = await page.request.get("/api/v1/campaigns");
  const campaign = ((await response.json()) as { id: string; name: string }[]).find(
    (entry) => entry.name === campaignName(slug),
  );
  if (!campaign) throw new Error(`no campaign ${campaignName(slug)}`);
  return campaign.id;
}

const longSolution = `def loop_long(a, b):\n${Array.from({ length: 2000 }, (_, i) => `    x${i} = ${i}`).join("\n")}\n    return a + b\n`;

/** Opens the annotator's next item in a campaign and waits until the page answers keys. */
async function openNext(page: Page, slug: string) {
  await page.goto(`/campaigns/${await findCampaign(page, slug)}/next`);
  await expect(page).toHaveURL(/\/items\/itm_/);
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
}

/** The element lies fully inside the viewport, so it is seen without scrolling. */
async function expectOnScreen(locator: Locator, viewport: { width: number; height: number }) {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  expect(box, "has a box").not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height + 0.5);
}

async function pageOverflow(page: Page) {
  return page.evaluate(() => ({
    x: document.documentElement.scrollWidth - window.innerWidth,
    y: document.documentElement.scrollHeight - window.innerHeight,
  }));
}

test("the admin sets up one campaign per scenario", async ({ page }) => {
  await signIn(page, admin);
  await ensureCampaign(page, "layout", [record("loop_add")]);
  await ensureCampaign(page, "long", [record("loop_long", { canonical_solution: longSolution })]);
  await ensureCampaign(page, "blind", [record("loop_blind"), record("loop_blind2")], { blind: true });
  await ensureCampaign(page, "drafts", [record("loop_d1"), record("loop_d2"), record("loop_d3")]);
  await ensureCampaign(page, "guidelines", [record("loop_g")]);
  await ensureCampaign(page, "strict", [record("loop_s")], { requireInvalidNote: true });
  await ensureCampaign(page, "failing", [
    record("loop_fail", { full_test_func: "assert loop_fail(2, 2) == 4\nassert loop_fail(1, 1) == 3\n" }),
  ]);
  await ensureCampaign(page, "timeout", [
    record("loop_slow", { canonical_solution: "def loop_slow(a, b):\n    while True:\n        pass\n" }),
  ]);
  await ensureCampaign(page, "next", [record("loop_n1"), record("loop_n2"), record("loop_n3")]);
});

test("at 1440×900 the statement, code, verdict, critic and latest run are all on screen without scrolling", async ({
  page,
}) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  await openNext(page, "layout");

  await expectOnScreen(
    page.getByRole("region", { name: "Statement" }).getByRole("heading", { name: /Add two numbers/ }),
    LAPTOP,
  );
  await expectOnScreen(page.getByTestId("code-solution"), LAPTOP);
  await expectOnScreen(page.getByTestId("code-test"), LAPTOP);
  await expectOnScreen(page.getByRole("radio", { name: "Valid", exact: true }), LAPTOP);
  await expectOnScreen(page.getByRole("radio", { name: "Invalid", exact: true }), LAPTOP);
  const critic = page.getByRole("region", { name: "Critic" });
  await expectOnScreen(critic.getByText("fail", { exact: true }).first(), LAPTOP);
  await expectOnScreen(critic.getByText("Naming/Signature Inconsistency").first(), LAPTOP);
  await expectOnScreen(page.getByRole("region", { name: "Latest run" }), LAPTOP);
  await expectOnScreen(page.getByRole("button", { name: /Submit/ }), LAPTOP);
  expect((await pageOverflow(page)).y).toBeLessThanOrEqual(0);

  // A two-line solution gets a small editor, not a fixed 320 px box.
  const solutionBox = await page.getByTestId("code-solution").locator(".monaco-editor").boundingBox();
  expect(solutionBox!.height).toBeLessThan(120);

  // Running puts each test's outcome, exit code and time in the latest-run area, still on screen.
  await page.keyboard.press("r");
  const latest = page.getByRole("region", { name: "Latest run" });
  await expect(latest.getByTestId("run-row-demo")).toContainText("PASSED", { timeout: 45_000 });
  await expect(latest.getByTestId("run-row-full")).toContainText("PASSED", { timeout: 45_000 });
  await expect(latest.getByTestId("run-row-full")).toContainText(/exit 0/);
  await expect(latest.getByTestId("run-row-full")).toContainText(/\d+ ms/);
  await expectOnScreen(latest.getByTestId("run-row-full"), LAPTOP);
  expect((await pageOverflow(page)).y).toBeLessThanOrEqual(0);
});

test("at 1440×900 the evidence panel is on screen beside the label, without scrolling", async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  await openNext(page, "layout");
  const evidence = page.getByRole("region", { name: "Evidence" });
  await expectOnScreen(evidence.getByRole("heading", { name: "Evidence" }), LAPTOP);
  for (const row of [
    "evidence-execution",
    "evidence-stability",
    "evidence-mutation",
    "evidence-solvers",
    "evidence-critic",
  ])
    await expectOnScreen(evidence.getByTestId(row), LAPTOP);
  // What decides a label stays on screen beside it.
  await expectOnScreen(page.getByRole("radio", { name: "Invalid", exact: true }), LAPTOP);
  await expectOnScreen(page.getByRole("button", { name: /Submit/ }), LAPTOP);
  await expectOnScreen(page.getByRole("region", { name: "Latest run" }), LAPTOP);
  expect((await pageOverflow(page)).y).toBeLessThanOrEqual(0);
});

test("the code is on screen as text at once, and the editor takes its place without moving it", async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  // Monaco's files are held back: the page shows what it shows before an editor is built.
  let releaseMonaco = () => {};
  const monacoHeld = new Promise<void>((resolve) => (releaseMonaco = resolve));
  await page.route("**/monaco/vs/**", async (route) => {
    await monacoHeld;
    await route.continue();
  });
  await openNext(page, "layout");
  const solution = page.getByTestId("code-solution");
  const asText = solution.getByTestId("code-solution-text");
  await expect(asText).toContainText("def loop_add(a, b):");
  await expect(page.getByTestId("code-test-text")).toContainText("assert loop_add(2, 2) == 4");
  await expect(solution.locator(".view-lines")).toHaveCount(0);
  const textStart = await firstCharacterBox(asText);

  releaseMonaco();
  await expect(solution.locator(".view-lines")).toContainText("def loop_add(a, b):");
  await expect(asText).toHaveCount(0);
  // Monaco lays its lines out again once its font is measured: the place is polled until it settles.
  const firstLine = solution.locator(".view-line").filter({ hasText: "def loop_add" });
  await expect
    .poll(async () => {
      const editorStart = await firstCharacterBox(firstLine);
      return Math.max(Math.abs(editorStart.x - textStart.x), Math.abs(editorStart.y - textStart.y));
    }, "the text starts where the editor's does (px)")
    .toBeLessThanOrEqual(2);
});

/** Where the first character of an element's text is drawn. */
async function firstCharacterBox(locator: Locator): Promise<{ x: number; y: number }> {
  return locator.evaluate((element) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    let node = walker.nextNode();
    while (node && !node.textContent?.trim()) node = walker.nextNode();
    if (!node) throw new Error("no text");
    const range = document.createRange();
    const offset = node.textContent!.search(/\S/);
    range.setStart(node, offset);
    range.setEnd(node, offset + 1);
    const box = range.getBoundingClientRect();
    return { x: box.x, y: box.y };
  });
}

test("a 2,000-line solution scrolls inside its editor and opens full screen", async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  await openNext(page, "long");
  const editor = page.getByTestId("code-solution");
  await expect(editor.locator(".view-lines")).toContainText("def loop_long");
  await expectOnScreen(editor, LAPTOP);
  expect((await pageOverflow(page)).y).toBeLessThanOrEqual(0);
  const small = (await editor.boundingBox())!;

  await page.keyboard.press("f");
  const dialog = page.getByRole("dialog", { name: "Code" });
  await expect(dialog).toBeVisible();
  const full = dialog.getByTestId("code-solution");
  await expect(full.locator(".view-lines")).toContainText("def loop_long");
  await expect
    .poll(async () => (await full.boundingBox())!.height)
    .toBeGreaterThan(Math.max(small.height, LAPTOP.height * 0.7));
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test("at 390 wide the workspace stacks: nothing is cut and every control is reachable", async ({ page }) => {
  const phone = { width: 390, height: 844 };
  await page.setViewportSize(phone);
  await signIn(page, annotator);
  await openNext(page, "layout");
  expect((await pageOverflow(page)).x).toBeLessThanOrEqual(0);
  for (const target of [
    page.getByRole("region", { name: "Statement" }),
    page.getByTestId("code-solution"),
    page.getByTestId("code-test"),
    page.getByRole("radio", { name: "Invalid", exact: true }),
    page.getByRole("region", { name: "Critic" }),
    page.getByRole("button", { name: /Submit/ }),
  ]) {
    await target.scrollIntoViewIfNeeded();
    const box = (await target.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(phone.width + 0.5);
  }
});

test("blind: after Ctrl+Enter from the note the critic comes into view with focus, and Enter goes on", async ({
  page,
}) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  await openNext(page, "blind");
  const itemUrl = page.url();
  await expect(page.getByText("The critic is hidden until you submit a first label.")).toBeVisible();
  await page.keyboard.press("v");
  await page.keyboard.press("n");
  await page.keyboard.type("Looks right to me.");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByRole("status")).toContainText("The critic is now shown");
  const critic = page.getByRole("region", { name: "Critic" });
  await expect(critic).toBeFocused();
  await expectOnScreen(critic.getByText("Naming/Signature Inconsistency").first(), LAPTOP);
  await expect(page.getByLabel(/^Note/)).not.toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).not.toHaveURL(itemUrl);

  await page.goto(itemUrl);
  await expect(page.getByLabel(/^Note/)).toHaveValue("Looks right to me.");
});

test("submitting a label opens the next item with one write request that also claims it", async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  await openNext(page, "next");
  const heading = page.getByRole("heading", { name: /^Record \d+$/ });
  const first = (await heading.textContent()) ?? "";
  // The app's own requests from here on: page data and writes, not scripts, Monaco files or link prefetches.
  const requests: { method: string; path: string }[] = [];
  page.on("request", (request) => {
    if (!["fetch", "xhr", "document"].includes(request.resourceType()) || request.headers()["next-router-prefetch"])
      return;
    requests.push({ method: request.method(), path: new URL(request.url()).pathname });
  });
  await page.keyboard.press("v");
  await page.keyboard.press("Enter");
  await expect(heading).not.toHaveText(first);
  await expect(page).toHaveURL(/\/items\/itm_/);
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await expect(page.getByRole("radio", { name: "Valid", exact: true })).not.toBeChecked();

  const writes = requests.filter((request) => request.method !== "GET");
  expect(writes, JSON.stringify(requests)).toHaveLength(1);
  // The write claimed the next item: no separate trip through /next, at most the next item's page after it.
  expect(
    requests.filter((request) => request.path.endsWith("/next")),
    JSON.stringify(requests),
  ).toHaveLength(0);
  expect(requests.length, JSON.stringify(requests)).toBeLessThanOrEqual(2);
});

test("the admin reorders the taxonomy of a new campaign with move up and down", async ({ page }) => {
  await signIn(page, admin);
  await page.goto("/campaigns");
  await page.getByRole("button", { name: "Move category 2 up" }).click();
  await expect(page.getByLabel("Label of category 1", { exact: true })).toHaveValue("Name mismatch");
  await expect(page.getByLabel("Label of category 2", { exact: true })).toHaveValue("Statement incomplete");
  await page.getByRole("button", { name: "Move category 1 down" }).click();
  await expect(page.getByLabel("Label of category 1", { exact: true })).toHaveValue("Statement incomplete");
  await expect(page.getByRole("button", { name: "Move category 1 up" })).toBeDisabled();
});

test("every category is reachable from the keyboard and the sheet lists the keys", async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  await openNext(page, "drafts");
  await page.keyboard.press("i");
  await page.keyboard.press("c");
  const filter = page.getByRole("combobox", { name: "Find a category" });
  await expect(filter).toBeFocused();
  await page.keyboard.type("environ");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("checkbox", { name: /Environment dependence/ })).toBeChecked();
  await expect(filter).toBeHidden();
  // Other, the 14th, by arrow keys.
  await page.keyboard.press("c");
  await page.keyboard.type("oth");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("checkbox", { name: /^Other/ })).toBeChecked();

  await page.keyboard.press("?");
  const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  for (const key of ["C", "G", "F", "1 – 9"]) await expect(sheet.getByText(key, { exact: true })).toBeVisible();
  await page.keyboard.press("Escape");
});

test("a reload mid-label restores the draft; Back after submit shows the saved label and revising it works", async ({
  page,
}) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  await openNext(page, "drafts");
  // The previous test left Invalid with two categories on this item; start over from a clear form.
  await page.keyboard.press("i");
  await page.keyboard.press("2");
  await page.keyboard.press("n");
  await page.keyboard.type("Half-written thought");
  await page.keyboard.press("Escape");
  await page.reload();
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await expect(page.getByRole("radio", { name: "Invalid", exact: true })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Name mismatch" })).toBeChecked();
  await expect(page.getByLabel(/^Note/)).toHaveValue("Half-written thought");

  const itemUrl = page.url();
  await page.getByRole("button", { name: /Submit/ }).click();
  await expect(page).not.toHaveURL(itemUrl);
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await page.goBack();
  await expect(page).toHaveURL(itemUrl);
  await expect(page.getByText("Your label (revision 1)")).toBeVisible();
  await expect(page.getByRole("radio", { name: "Invalid", exact: true })).toBeChecked();
  await expect(page.getByLabel(/^Note/)).toHaveValue("Half-written thought");

  // Revise the saved label: no "changed since you opened it".
  await page.getByRole("radio", { name: "Valid", exact: true }).check();
  await page.getByRole("button", { name: /Save revision/ }).click();
  await expect(page.getByText(/changed since you opened it/)).toHaveCount(0);
  await expect(page).not.toHaveURL(itemUrl);
  await page.goto(itemUrl);
  await expect(page.getByText("Your label (revision 2)")).toBeVisible();
  // The submitted draft is gone: a reload shows the saved label, not the old draft.
  await expect(page.getByRole("radio", { name: "Valid", exact: true })).toBeChecked();
});

test("Markdown renders in the record browser's question column and in critic reasons", async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  await page.goto("/datasets/e2e-loop-layout");
  const title = page.getByRole("link", { name: /Add two numbers loop_add/ });
  await expect(title).toBeVisible();
  await expect(title).not.toContainText("**");
  await expect(title.locator("strong")).toHaveText("two");

  await openNext(page, "layout");
  const reason = page
    .getByRole("region", { name: "Critic" })
    .getByRole("list", { name: "Failed rules" })
    .getByText(/The statement asks for/);
  await expect(reason).not.toContainText("`");
  await expect(reason.locator("code").first()).toHaveText("loop_add");
});

test("campaign guidelines: the admin writes them, the annotator opens them with G", async ({ page, browser }) => {
  await signIn(page, admin);
  await page.goto(`/campaigns/${await findCampaign(page, "guidelines")}`);
  await page
    .getByLabel("Guidelines (Markdown)")
    .fill("## How we judge\n\nA test that prints instead of asserting is **invalid**.");
  await page.getByRole("button", { name: "Save guidelines" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();

  const annotatorPage = await (await browser.newContext({ viewport: LAPTOP })).newPage();
  await signIn(annotatorPage, annotator);
  await openNext(annotatorPage, "guidelines");
  const panel = annotatorPage.getByRole("region", { name: "Guidelines" });
  await expect(panel).toBeHidden();
  await annotatorPage.keyboard.press("g");
  await expect(panel).toBeVisible();
  await expect(panel.getByRole("heading", { name: "How we judge" })).toBeVisible();
  await expect(panel.locator("strong")).toHaveText("invalid");
  await annotatorPage.keyboard.press("g");
  await expect(panel).toBeHidden();
});

test("a note is required for invalid labels only where the campaign says so", async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  await openNext(page, "layout");
  const itemUrl = page.url();
  await page.keyboard.press("i");
  await page.keyboard.press("2");
  await page.keyboard.press("Enter");
  await expect(page).not.toHaveURL(itemUrl);

  await openNext(page, "strict");
  const strictUrl = page.url();
  await expect(page.getByText("(required)")).toHaveCount(0);
  await page.keyboard.press("i");
  await expect(page.getByText("(required)")).toBeVisible();
  await page.keyboard.press("2");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Say why it is invalid.")).toBeVisible();
  expect(page.url()).toBe(strictUrl);
  const rejected = await page.request.post(`/api/v1/items/${strictUrl.split("/items/")[1]}/annotations`, {
    data: { valid: false, categories: ["name-mismatch"] },
    headers: SAME_ORIGIN,
  });
  expect(rejected.status()).toBe(422);
});

test("a failing test points at its line, and the spliced program is shown on demand", async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  await openNext(page, "failing");
  await page.keyboard.press("r");
  const full = page.getByRole("region", { name: "Latest run" }).getByTestId("run-row-full");
  await expect(full).toContainText("RUNTIME_ERROR", { timeout: 45_000 });
  await expect(full).toContainText("exit 1");
  await expect(full).toContainText("Full test, line 2");
  await full.getByRole("button", { name: "Show the program that ran" }).click();
  const program = page.getByRole("dialog", { name: "Program that ran (full test)" });
  await expect(program).toContainText("assert loop_fail(1, 1) == 3");
  await expect(program.locator(".failing-line")).toContainText("assert loop_fail(1, 1) == 3");
});

// The run switches the code pane to the full test, whose editor mounts afresh: the mark must survive the
// editor wrapper setting the read-only value again after mounting (it used to be wiped by that).
test("after a run, the failing line is also marked in the test's editor", async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  await openNext(page, "failing");
  await page.keyboard.press("r");
  await expect(page.getByRole("region", { name: "Latest run" }).getByTestId("run-row-full")).toContainText(
    "Full test, line 2",
    { timeout: 45_000 },
  );
  await expect(page.getByTestId("code-test").locator(".failing-line")).toHaveCount(1);
});

test("a time-out says so in words, with the limit", async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  await signIn(page, annotator);
  await openNext(page, "timeout");
  await page.keyboard.press("r");
  const demo = page.getByRole("region", { name: "Latest run" }).getByTestId("run-row-demo");
  await expect(demo).toContainText(/stopped after \d+ s/, { timeout: 60_000 });
});
