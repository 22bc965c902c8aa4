import { execFile } from "node:child_process";
import { promisify } from "node:util";

import { expect, type Locator, type Page, test } from "@playwright/test";

import { admin, annotator, E2E_SECRET, ensurePeople, invite, signIn } from "./people";

// The evidence panel as people use it, in the real sandbox: an admin imports one small record,
// verifies it, checks it for flaky tests on the record page, uploads two models' outputs on the
// Solver results page and collects its test strength, then reads every signal in the panel of the
// record page. A campaign showing "execution only" keeps all but the run result from an annotator
// until their first label; the adjudication page shows a reviewer everything.
test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const dataset = `e2e-panel-${run}`;
const title = `Adult age ${run}`;
const campaignName = `Panel ${run}`;
const reviewer = { email: `panel-rev-${run}@example.test`, password: "reviewer-password-7", name: `Remo ${run}` };

// Four mutants (lib/evidence/mutation): `return False`, `>=` → `>`, 18 → 19 and 18 → 17. The demo
// test (30 only) rejects only `return False`: 1 of 4. The full test (18 and 5) rejects all but
// 18 → 17, which it accepts, as does the demo test: 3 of 4, and 18 → 17 is the strongest survivor.
const record = {
  question: `# ${title}\n\nWrite \`is_adult(age)\` in Python: whether someone of that age (18 or more) is an adult.`,
  canonical_solution: "def is_adult(age):\n    return age >= 18\n",
  demo_test_func: "assert is_adult(30)\n",
  full_test_func: "assert is_adult(18)\nassert not is_adult(5)\n",
  language: "python",
  difficulty: "easy",
  critic: {
    rule_results: [{ rule: "Incorrect test target", result: "fail", reason: "Age 17 is never tested." }],
    summary: { overall_pass: false, failed_rules: ["Incorrect test target"], key_points: ["17 is untested."] },
  },
};

// AutoCodeBench result lines (the record's own fields and the model's raw reply in `output`), one
// model right, one off by one at 18 (the full test catches it).
const solutions = [
  {
    ...record,
    model: "careful-model",
    output: "Here it is:\n```python\ndef is_adult(age):\n    return age >= 18\n```\n",
  },
  { ...record, model: "hasty-model", output: "```python\ndef is_adult(age):\n    return age > 18\n```" },
];

const HIDDEN = "hidden until your first label";
const CAVEAT = "A surviving mutant may be equivalent to the solution";
let recordId = "";
let campaignId = "";
let itemId = "";

/** The panel's rows, by what they show. */
function rows(page: Page) {
  const panel = page.getByTestId("evidence-panel");
  return {
    panel,
    execution: panel.getByTestId("evidence-execution"),
    stability: panel.getByTestId("evidence-stability"),
    mutation: panel.getByTestId("evidence-mutation"),
    solvers: panel.getByTestId("evidence-solvers"),
    critic: panel.getByTestId("evidence-critic"),
  };
}

/** Every signal of the record, as collected below, in one panel. */
async function expectFullEvidence(panel: ReturnType<typeof rows>) {
  await expect(panel.execution).toContainText("passes");
  await expect(panel.stability).toHaveText(/stable\s*repeated runs gave the same outcome/);
  await expect(panel.mutation).toContainText("75%");
  // A mutant stops at its first failing test, demo first: the full test's share counts the mutants
  // the demo let through, so the two shares add up to the score.
  await expect(panel.mutation).toContainText("3 of 4 mutants rejected · demo 25%, full 50%");
  const survivor: Locator = panel.mutation.getByTestId("strongest-survivor");
  await expect(survivor).toContainText("The full test accepts 18 → 17 on line 2:");
  await expect(survivor.locator("pre")).toHaveText(/- return age >= 18\s*\+ return age >= 17/);
  await expect(survivor).toContainText("2 more surviving.");
  await expect(panel.mutation).toContainText(CAVEAT);
  await expect(panel.solvers).toHaveText(/1 of 2\s*solved by careful-model$/);
  await expect(panel.critic).toHaveText(/fails\s*Incorrect test target/);
}

// The shared admin and Python annotator (people.ts); the annotator labels this campaign's one item.
test.beforeAll(async ({ browser }) => ensurePeople(browser));

test("the admin collects each signal and the record page's panel shows it", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, admin);
  await page.getByRole("link", { name: "Import", exact: true }).click();
  await page.getByLabel("File").setInputFiles({
    name: "adult.jsonl",
    mimeType: "application/json",
    buffer: Buffer.from(`${JSON.stringify(record)}\n`),
  });
  await page.getByLabel("Dataset").fill(dataset);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toContainText("Imported 1 record");

  // Execution: batch verification from the dataset page.
  await page.goto(`/datasets/${dataset}`);
  await page.getByRole("button", { name: "Verify records" }).click();
  await expect(page.getByText("1/1 verified · 1 pass · 0 fail · 0 unavailable here")).toBeVisible({
    timeout: 90_000,
  });
  await page.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(/\/records\/\d+$/);
  recordId = new URL(page.url()).pathname.split("/").pop()!;
  const panel = rows(page);
  await expect(panel.execution).toContainText("passes");
  for (const row of [panel.stability, panel.mutation, panel.solvers]) await expect(row).toHaveText(/not collected$/);
  await expect(panel.critic).toHaveText(/fails\s*Incorrect test target/);

  // Stability: the record page's button runs both tests three times, alone.
  await page.getByRole("button", { name: "Check for flaky tests (3 runs)" }).click();
  await expect(page.getByTestId("flaky-outcomes")).toHaveText(
    "Demo/full outcomes per run: PASSED/PASSED · PASSED/PASSED · PASSED/PASSED",
    { timeout: 90_000 },
  );
  await expect(panel.stability).toHaveText(/stable\s*repeated runs gave the same outcome/);

  // Solvers: the model outputs uploaded on the Solver results page, run by the workers.
  await page.goto(`/datasets/${dataset}`);
  await page.getByRole("link", { name: "Solver results" }).click();
  await page.getByLabel("Model outputs file").setInputFiles({
    name: "outputs.jsonl",
    mimeType: "application/json",
    buffer: Buffer.from(solutions.map((line) => JSON.stringify(line)).join("\n")),
  });
  await page.getByRole("button", { name: "Import and run" }).click();
  await expect(page.getByText("Imported 2 solutions from 2 models; 2 queued to run.")).toBeVisible();
  await expect(page.getByTestId("solution-run").getByRole("status")).toHaveText(
    "Finished: 2 of 2 solutions · 1 pass both tests · 1 fail",
    { timeout: 90_000 },
  );

  // Test strength: no page starts mutation analysis; the documented path is the CLI
  // (`npx verity evidence`, docs/features.md), run here against the e2e server's own database and sandbox.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["scripts/verity.mjs", "evidence", "--dataset", dataset, "--repeat", "0", "--json"],
    {
      timeout: 150_000,
      env: {
        ...process.env,
        VERITY_DATA_DIR: ".data/e2e",
        VERITY_DB_PORT: process.env.VERITY_E2E_DB_PORT ?? "54359",
        VERITY_DEMO: "0",
        NEXTAUTH_SECRET: E2E_SECRET,
      },
    },
  );
  const summary = JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, unknown>;
  expect(summary).toMatchObject({ dataset, mutantsPerRecord: 8, repeat: 0, errored: 0, measured: 1, weak: 0 });

  await page.goto(`/records/${recordId}`);
  await expectFullEvidence(rows(page));
  // REST carries the same evidence (the interface).
  const rest = (await (await page.request.get(`/api/v1/records/${recordId}`)).json()) as {
    evidence: { mutation: Record<string, unknown>; flaky: boolean; solvers: Record<string, unknown> };
  };
  expect(rest.evidence.mutation).toMatchObject({ score: 0.75, viable: 4, killed: 3, stillborn: 0, generated: 4 });
  expect(rest.evidence.flaky).toBe(false);
  expect(rest.evidence.solvers).toMatchObject({ solved: 1, total: 2 });
});

test("the admin creates a campaign showing execution only and invites a reviewer", async ({ page, browser }) => {
  await signIn(page, admin);
  await page.goto("/campaigns");
  await page.getByLabel("Dataset").selectOption(dataset);
  await page.getByLabel("Campaign name").fill(campaignName);
  await page.getByLabel("Before their first label, annotators see").selectOption({ label: "Execution only" });
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByRole("status")).toContainText(`Created ${campaignName} with 1 item.`);
  await page.getByRole("status").getByRole("link", { name: campaignName }).click();
  await expect(page).toHaveURL(/\/campaigns\/[^/]+$/);
  campaignId = new URL(page.url()).pathname.split("/")[2];
  await invite(page, browser, reviewer, "REVIEWER");
});

test("the annotator's workspace shows only the run result before the first label, and everything after", async ({
  page,
}) => {
  await signIn(page, annotator);
  await page.goto(`/campaigns/${campaignId}/next`);
  await expect(page).toHaveURL(/\/items\/itm_/);
  const itemUrl = page.url();
  itemId = itemUrl.split("/items/")[1];
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  const panel = rows(page);
  await expect(panel.execution).toContainText("passes");
  for (const row of [panel.stability, panel.mutation, panel.solvers, panel.critic])
    await expect(row).toHaveText(new RegExp(`${HIDDEN}$`));
  await expect(panel.panel).not.toContainText("75%");
  await expect(panel.panel).not.toContainText("careful-model");
  await expect(panel.panel).not.toContainText(CAVEAT);

  await page.getByRole("radio", { name: "Valid", exact: true }).check();
  await page.getByRole("button", { name: "Submit and next (Enter)" }).click();
  await expect(panel.critic).toHaveText(/fails\s*Incorrect test target/);
  expect(page.url()).toBe(itemUrl);
  await expectFullEvidence(panel);
});

test("the adjudication page shows the reviewer the whole panel", async ({ page }) => {
  await signIn(page, reviewer);
  await page.goto(`/campaigns/${campaignId}/review/${itemId}`);
  await expectFullEvidence(rows(page));
});
