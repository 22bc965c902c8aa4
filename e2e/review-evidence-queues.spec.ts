import { readFileSync } from "node:fs";
import { join } from "node:path";

import { expect, type Page, test } from "@playwright/test";
import pg from "pg";

import { admin, annotator, ensurePeople, invite, signIn } from "./people";

// Where people should look, through the real UI: a reviewer filters a dataset's records to weak tests
// and to flaky ones and walks the "weak tests" evidence queue of a campaign; a lead creates a
// suspicion-ordered campaign and the annotator's first item is the most suspicious record.
//
// The evidence is written straight into the e2e database in the setup below: collecting it through
// the app (mutation analysis runs up to 8 mutants × 2 tests per record in the sandbox, flakiness 3
// runs, solver results a run per model) is what the sandbox-tier and integration tests cover, and
// would make this spec minutes long on a loaded machine. Everything after the setup is the UI.
test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const dataset = `e2e-look-${run}`;
const reviewer = { email: `rita-${run}@example.test`, password: "reviewer-password-1", name: `Rita ${run}` };

/** The records, each with the evidence the setup gives it; scores by lib/evidence/suspicion.ts. */
const RECORDS = [
  { title: `Steady sum ${run}`, mutationScore: 0.9, flaky: false, solvers: null }, // 0.05
  { title: `Weak parity ${run}`, mutationScore: 0.25, flaky: false, solvers: null }, // 2.375
  { title: `Flaky shuffle ${run}`, mutationScore: 0.8, flaky: true, solvers: null }, // 4.1
  { title: `Weak and flaky ${run}`, mutationScore: 0.1, flaky: true, solvers: null }, // 6.45, the most suspicious
  { title: `Nobody solves ${run}`, mutationScore: null, flaky: false, solvers: { total: 2, solved: 0 } }, // 3.5
  { title: `Plain ${run}`, mutationScore: null, flaky: null, solvers: null }, // 0
] as const;

function recordOf(title: string, index: number) {
  const name = `f_${run}_${index}`;
  return {
    question: `# ${title}\n\nWrite \`${name}(x)\` in Python returning x.`,
    canonical_solution: `def ${name}(x):\n    return x\n`,
    demo_test_func: `assert ${name}(1) == 1\n`,
    full_test_func: `assert ${name}(2) == 2\n`,
    language: "python",
    difficulty: "easy",
  };
}

/** The e2e server's own database (playwright.config.ts: .data/e2e), as the app's role. */
async function database(): Promise<pg.Client> {
  const dataDir = join(process.cwd(), ".data/e2e");
  const passwords = JSON.parse(readFileSync(join(dataDir, "postgres-passwords.json"), "utf8")) as { app: string };
  const client = new pg.Client({
    host: join(dataDir, "postgres"),
    port: Number(process.env.VERITY_E2E_DB_PORT ?? 54359),
    user: "verity_app",
    password: passwords.app,
    database: "verity",
  });
  await client.connect();
  return client;
}

test.beforeAll(async ({ browser }) => ensurePeople(browser));

test("setup: the admin imports the records and invites a reviewer; the evidence is stored", async ({
  page,
  browser,
}) => {
  await signIn(page, admin);
  const imported = await page.request.post(`/api/v1/datasets/${dataset}/records`, {
    data: RECORDS.map((record, index) => JSON.stringify(recordOf(record.title, index))).join("\n"),
    headers: { "content-type": "application/x-ndjson", origin: new URL(page.url()).origin },
  });
  expect(imported.status()).toBe(201);
  await invite(page, browser, reviewer, "REVIEWER");
  const client = await database();
  try {
    for (const record of RECORDS) {
      const { rows } = await client.query<{ id: number }>(
        `SELECT r.id FROM "Record" r JOIN "Dataset" d ON d.id = r."datasetId" WHERE d.name = $1 AND r.question LIKE $2`,
        [dataset, `# ${record.title}\n%`],
      );
      const id = rows[0].id;
      await client.query(`UPDATE "Record" SET "mutationScore" = $2, flaky = $3 WHERE id = $1`, [
        id,
        record.mutationScore,
        record.flaky,
      ]);
      if (record.solvers)
        for (let model = 0; model < record.solvers.total; model += 1)
          await client.query(
            `INSERT INTO "Solution" (id, "recordId", model, code, outcome, passed) VALUES ($1, $2, $3, '', 'WRONG_ANSWER', false)`,
            [`sol_${run}_${id}_${model}`, id, `model-${model}`],
          );
    }
  } finally {
    await client.end();
  }
});

/** The titles in the dataset's record table, top to bottom. */
async function listedTitles(page: Page): Promise<string[]> {
  return (await page.locator("tbody tr td:nth-child(4)").allInnerTexts()).map((text) => text.trim());
}

test("a reviewer filters the dataset's records to weak tests, to a stricter threshold, and to flaky ones", async ({
  page,
}) => {
  await signIn(page, reviewer);
  await page.goto(`/datasets/${dataset}`);
  await expect(page.getByText(`${RECORDS.length} records match`)).toBeVisible();

  await page.getByLabel("Look at").selectOption("weak_tests");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("2 records match these filters")).toBeVisible();
  expect(await listedTitles(page)).toEqual([`Weak parity ${run}`, `Weak and flaky ${run}`]);
  await expect(page.getByLabel("Look at")).toHaveValue("weak_tests");

  // A stricter threshold also finds the 0.8 score (not the 0.9 one).
  await page.getByLabel("Weak tests below mutation score").fill("0.85");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("3 records match these filters")).toBeVisible();
  expect(await listedTitles(page)).toContain(`Flaky shuffle ${run}`);

  await page.getByLabel("Weak tests below mutation score").fill("0.5");
  await page.getByLabel("Look at").selectOption("flaky");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("2 records match these filters")).toBeVisible();
  expect(await listedTitles(page)).toEqual([`Flaky shuffle ${run}`, `Weak and flaky ${run}`]);

  await page.getByLabel("Look at").selectOption("unsolved");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("1 record matches these filters")).toBeVisible();
  expect(await listedTitles(page)).toEqual([`Nobody solves ${run}`]);
});

let campaignId = "";

test("a lead creates a suspicion-ordered campaign in the campaign form", async ({ page }) => {
  await signIn(page, admin);
  await page.goto("/campaigns");
  await page.getByLabel("Dataset").selectOption(dataset);
  await page.getByLabel("Campaign name").fill(`Cleaning ${run}`);
  await page.getByLabel("Sampling").selectOption("suspicion");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByRole("status")).toContainText(`Created Cleaning ${run} with ${RECORDS.length} items.`);
  await page
    .getByRole("status")
    .getByRole("link", { name: `Cleaning ${run}` })
    .click();
  await expect(page).toHaveURL(/\/campaigns\/[^/?]+$/);
  campaignId = new URL(page.url()).pathname.split("/").pop()!;
});

test("the annotator's first item is the most suspicious record", async ({ page }) => {
  await signIn(page, annotator);
  await page.goto(`/campaigns/${campaignId}/next`);
  await expect(page).toHaveURL(/\/items\/itm_/);
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  await expect(page.getByText(`Weak and flaky ${run}`).first()).toBeVisible();
});

test("a reviewer opens the weak-tests queue of the campaign and walks it", async ({ page }) => {
  await signIn(page, reviewer);
  await page.goto(`/campaigns/${campaignId}/review`);
  const tabs = page.getByRole("navigation", { name: "Evidence queues" });
  await expect(tabs.getByTestId("evidence-count-weak_tests")).toHaveText("2");
  await expect(tabs.getByTestId("evidence-count-flaky")).toHaveText("2");
  await expect(tabs.getByTestId("evidence-count-unsolved")).toHaveText("1");
  await tabs.getByRole("link", { name: /Weak tests/ }).click();
  await expect(tabs.getByRole("link", { name: /Weak tests/ })).toHaveAttribute("aria-current", "page");
  const table = page.getByRole("table", { name: "Items the evidence points at" });
  // Campaign order, which here is suspicion order: the weak and flaky record first.
  const links = table.getByRole("link");
  await expect(links).toHaveText([`Weak and flaky ${run}`, `Weak parity ${run}`]);
  await expect(table).toContainText("The tests reject 10% of the mutants of the canonical solution.");

  await links.first().click();
  const stepper = page.getByRole("navigation", { name: "Queue" });
  await expect(stepper.getByTestId("queue-position")).toHaveText("1 of 2");
  await expect(page.getByText(`Weak and flaky ${run}`).first()).toBeVisible();
  await stepper.getByRole("link", { name: /Next/ }).click();
  await expect(stepper.getByTestId("queue-position")).toHaveText("2 of 2");
  await expect(page.getByText(`Weak parity ${run}`).first()).toBeVisible();
});
