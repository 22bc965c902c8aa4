import { type Browser, expect, type Page, test } from "@playwright/test";

import { admin, annotator, setupCode, signIn, signInThroughPage } from "./people";

// One story, in order: the first admin sets Verity up, invites an annotator, imports data. It stays
// serial on purpose: the order is the product's first run. Only an empty database shows "Create the
// first admin", so the first test can run once per database and every later one starts from the
// account it made; the shared admin and annotator (people.ts) are these same people.
test.describe.configure({ mode: "serial" });

let invitationLink = "";

function record(seed: string, overrides: Record<string, unknown> = {}) {
  return {
    question: `# Add numbers ${seed}\n\nWrite \`add_${seed}(a, b)\` in Python.`,
    canonical_solution: `def add_${seed}(a, b):\n    return a + b\n`,
    demo_test_func: `assert add_${seed}(1, 2) == 3\n`,
    full_test_func: `assert add_${seed}(2, 2) == 4\n`,
    language: "python",
    difficulty: "easy",
    ...overrides,
  };
}

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

test("the operator creates the admin account with the setup code from the console, once", async ({ page }) => {
  await page.goto("/datasets");
  await expect(page).toHaveURL(/\/signin/);
  await expect(page.getByRole("heading", { name: "Create the first admin" })).toBeVisible();
  await page.getByLabel("Setup code").fill("AAAA-BBBB-CCCC-DDDD");
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Name").fill("Ada Admin");
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Create admin account" }).click();
  // A visitor without the code (whoever reaches a fresh install first) cannot become its admin.
  await expect(page.getByText("Copy the setup code from the console")).toBeVisible();
  await page.getByLabel("Setup code").fill(setupCode);
  await page.getByRole("button", { name: "Create admin account" }).click();
  await expect(page.getByRole("heading", { name: "Datasets" })).toBeVisible();
  await expect(page.getByText("Ada Admin · admin")).toBeVisible();

  const other = await newPage(page.context().browser()!);
  await other.goto("/signin");
  await expect(other.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(other.getByRole("heading", { name: "Create the first admin" })).toHaveCount(0);
});

test("the admin invites an annotator who sets a password", async ({ page, browser }) => {
  await signIn(page, admin);
  await page.getByRole("link", { name: "Users" }).click();
  await page.getByLabel("Email").fill(annotator.email);
  await page.getByLabel("Role").selectOption("ANNOTATOR");
  await page.getByLabel("Python").check();
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const linkField = page.getByLabel("Invitation link");
  await expect(linkField).toHaveValue(/\/invite\/inv_/);
  invitationLink = await linkField.inputValue();
  await expect(page.getByText(`${annotator.email} · annotator`)).toBeVisible();

  const invitee = await newPage(browser);
  await invitee.goto(invitationLink);
  await expect(invitee.getByText("You are invited as")).toContainText("annotator");
  await invitee.getByLabel("Your name").fill("Ann Otator");
  await invitee.getByLabel("Password").fill(annotator.password);
  await invitee.getByRole("button", { name: "Create account" }).click();
  await expect(invitee.getByText("Ann Otator · annotator")).toBeVisible();
  // An annotator sees no admin pages.
  await expect(invitee.getByRole("link", { name: "Import" })).toHaveCount(0);

  const reused = await newPage(browser);
  await reused.goto(invitationLink);
  await expect(reused.getByText("invalid, already used, or expired")).toBeVisible();
});

test("a returning user signs in with email and password; a wrong password is refused", async ({ page }) => {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(annotator.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong email or password.")).toBeVisible();
  await signInThroughPage(page, annotator);
  await expect(page.getByText("Ann Otator · annotator")).toBeVisible();
});

test("an upload with one bad line names the line and imports nothing", async ({ page }) => {
  await signIn(page, admin);
  await page.getByRole("link", { name: "Import", exact: true }).click();
  const body = [JSON.stringify(record("one")), '{"question": "broken", ', JSON.stringify(record("three"))].join("\n");
  await page
    .getByLabel("File")
    .setInputFiles({ name: "bad.jsonl", mimeType: "application/json", buffer: Buffer.from(body) });
  await page.getByLabel("Dataset").fill("e2e-bad");
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByText("1 bad line: nothing was imported")).toBeVisible();
  await expect(page.getByRole("cell", { name: "line 2" })).toBeVisible();
  // The recent imports list keeps the outcome after the page is left.
  await expect(
    page.getByRole("table", { name: "Recent imports" }).getByRole("row").filter({ hasText: "e2e-bad" }),
  ).toContainText("1 bad line; nothing was imported.");
  await page.getByRole("link", { name: "Datasets" }).click();
  await expect(page.getByText("No datasets yet")).toBeVisible();
});

test("a HumanEval file previews through its mapping before anything is imported", async ({ page }) => {
  await signIn(page, admin);
  await page.getByRole("link", { name: "Import", exact: true }).click();
  const line = JSON.stringify({
    task_id: "E2E/0",
    prompt: "def twice(n):\n",
    canonical_solution: "    return n * 2\n",
    test: "def check(candidate):\n    assert candidate(2) == 4\n",
    entry_point: "twice",
  });
  await page
    .getByLabel("File")
    .setInputFiles({ name: "humaneval.jsonl", mimeType: "application/json", buffer: Buffer.from(line) });
  await page.getByLabel("Format").selectOption("humaneval");
  await page.getByRole("button", { name: "Preview the first records" }).click();
  const preview = page.getByRole("table", { name: "Preview" });
  await expect(preview).toContainText("python");
  await expect(preview).toContainText("check(twice)");
  await page.getByLabel("Dataset").fill("e2e-humaneval");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("Imported 1 record into e2e-humaneval.");
});

test("a good file imports, and a record opens with its code in Monaco", async ({ page }) => {
  await signIn(page, admin);
  await page.getByRole("link", { name: "Import", exact: true }).click();
  const body = [record("alpha"), record("beta", { language: "py", index: 7 })].map((r) => JSON.stringify(r)).join("\n");
  await page
    .getByLabel("File")
    .setInputFiles({ name: "good.jsonl", mimeType: "application/json", buffer: Buffer.from(body) });
  await page.getByLabel("Dataset").fill("e2e-good");
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toContainText("Imported 2 records");
  await page.getByRole("link", { name: "e2e-good" }).click();
  await expect(page.getByText("2 records match")).toBeVisible();
  await page.getByRole("link", { name: "Add numbers beta" }).click();
  await expect(page.getByRole("heading", { name: "Add numbers beta" })).toBeVisible();
  const solution = page.getByTestId("code-canonical-solution");
  await expect(solution.locator(".monaco-editor")).toBeVisible();
  await expect(solution.locator(".view-lines")).toContainText("def add_beta(a, b):");
  await expect(page.getByText('"index": 7')).toBeVisible();
});
