import { expect, type Page, test } from "@playwright/test";

import { admin, ensurePeople, importRecords, listRecords, signedInPage, signIn, unique, verifyDataset } from "./people";

// Batch verification as an annotator inspects it: a record page shows the run's outcome, exit code,
// times and output; a language with no toolchain here (Swift) is "unavailable here", on the record
// page, the batch page, the dataset filter and the admin's sandbox page. Signs in as the
// shared admin (ensurePeople). Needs bubblewrap and Python (npm run sandbox:install). The file
// imports and verifies one dataset that the tests only read; the tests that verify bring their own.
const records = [
  {
    question: "Return one.",
    canonical_solution: "def f():\n    return 1\n",
    demo_test_func: "assert f() == 1\n",
    full_test_func: "assert f() == 1\n",
    language: "python",
  },
  {
    question: "Return two (the test is wrong).",
    canonical_solution: "def f():\n    return 2\n",
    demo_test_func: "assert f() == 3, 'wrong expectation'\n",
    full_test_func: "assert f() == 3\n",
    language: "python",
  },
  {
    question: "Swift has no toolchain here.",
    canonical_solution: "func f() -> Int { 1 }\n",
    demo_test_func: "assert(f() == 1)\n",
    full_test_func: "assert(f() == 1)\n",
    language: "swift",
  },
];
const shared = { dataset: "", batchId: "", ids: {} as Record<string, number> };

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  await ensurePeople(browser);
  const page = await signedInPage(browser, admin);
  Object.assign(shared, await verifiedDataset(page));
  await page.context().close();
});

/** Imports the three records into a dataset of their own and verifies them; returns the batch and record ids. */
async function verifiedDataset(page: Page) {
  const dataset = unique("e2e-verify");
  await importRecords(page, dataset, records);
  const batchId = await verifyDataset(page, dataset);
  const ids: Record<string, number> = {};
  for (const record of await listRecords(page, dataset)) ids[record.question] = record.id;
  return { dataset, batchId, ids };
}

async function post(page: Page, path: string, data: string | object, contentType = "application/json") {
  return page.request.post(path, {
    data,
    headers: { "content-type": contentType, origin: new URL(page.url()).origin },
  });
}

test("the admin imports three records and verifies them", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, admin);
  const dataset = unique("e2e-verify");
  expect(
    (
      await post(
        page,
        `/api/v1/datasets/${dataset}/records`,
        records.map((record) => JSON.stringify(record)).join("\n"),
        "application/x-ndjson",
      )
    ).status(),
  ).toBe(201);
  const started = await post(page, `/api/v1/datasets/${dataset}/verifications`, {});
  expect(started.status()).toBe(202);
  const batchId = ((await started.json()) as { batchId: string }).batchId;
  await expect(async () => {
    const progress = (await (await page.request.get(`/api/v1/verifications/${batchId}`)).json()) as { status: string };
    expect(progress.status).toBe("SUCCEEDED");
  }).toPass({ timeout: 90_000 });
  const page1 = (await (await page.request.get(`/api/v1/datasets/${dataset}/records`)).json()) as {
    records: { id: number; question: string; verificationOutcome: string | null }[];
  };
  expect(page1.records.map((record) => record.verificationOutcome)).toEqual(["PASSED", "RUNTIME_ERROR", "UNAVAILABLE"]);
});

test("a failing record's page shows the run: outcome, exit code, run time, stderr", async ({ page }) => {
  await signIn(page, admin);
  const { ids } = shared;
  await page.goto(`/records/${ids["Return two (the test is wrong)."]}`);
  // The record's badge and the evidence panel's execution row.
  await expect(page.getByText("fails · runtime error")).toHaveCount(2);
  await expect(page.getByTestId("evidence-execution")).toContainText("fails · runtime error");
  const demo = page.getByTestId("verification-run").first();
  await expect(demo).toContainText("Demo test");
  await expect(demo).toContainText("RUNTIME_ERROR");
  await expect(demo).toContainText("exit 1");
  await expect(demo).toContainText(/run \d+ ms/);
  await expect(demo).toContainText(/Python 3\./);
  await expect(demo).toContainText("AssertionError: wrong expectation");
});

test("the record page's Run demo runs the record in the sandbox and shows the result", async ({ page }) => {
  await signIn(page, admin);
  const { ids } = shared;
  await page.goto(`/records/${ids["Return two (the test is wrong)."]}`);
  await page.getByRole("button", { name: "Run demo" }).click();
  const run = page.getByTestId("run-result");
  await expect(run).toContainText("Demo test", { timeout: 45_000 });
  await expect(run).toContainText("RUNTIME_ERROR");
  await expect(run).toContainText("AssertionError: wrong expectation");
  await expect(page.getByRole("button", { name: /Run both/ })).toBeEnabled();
});

test("the dataset page's Re-verify all starts a new batch and follows its progress to the end", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, admin);
  const { dataset, batchId } = await verifiedDataset(page);
  await page.goto(`/datasets/${dataset}`);
  const details = page.getByRole("link", { name: "Run details" });
  await expect(details).toHaveAttribute("href", `/verifications/${batchId}`);
  await page.getByRole("button", { name: "Re-verify all" }).click();
  await expect(details).not.toHaveAttribute("href", `/verifications/${batchId}`);
  await expect(page.getByText("3/3 verified · 1 pass · 1 fail · 1 unavailable here")).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole("button", { name: "Verify records" })).toBeEnabled();
});

test("a Swift record is unavailable here, not failed nor pending", async ({ page }) => {
  await signIn(page, admin);
  const { ids } = shared;
  await page.goto(`/records/${ids["Swift has no toolchain here."]}`);
  // The record's badge and the evidence panel's execution row.
  await expect(page.getByText("unavailable here", { exact: true })).toHaveCount(2);
  await expect(page.getByTestId("evidence-execution")).toContainText("unavailable here");
  await expect(page.getByTestId("verification-unavailable")).toContainText("This is not a failure.");
  await expect(page.getByText("not run", { exact: true })).toHaveCount(0);

  await page.goto(`/datasets/${shared.dataset}`);
  await page.getByLabel("Verification outcome").selectOption("unavailable");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("1 record matches these filters")).toBeVisible();
  await expect(page.locator("tbody tr")).toContainText("Swift");

  await page.goto(`/verifications/${shared.batchId}`);
  await expect(page.getByTestId("batch-runs")).toContainText("unavailable here");
  await expect(page.getByTestId("batch-runs")).toContainText("RUNTIME_ERROR");
});

test("the admin's sandbox page says why Swift cannot run; /api/health does not", async ({ page }) => {
  await signIn(page, admin);
  await page.getByRole("link", { name: "Sandbox" }).click();
  const swift = page.getByTestId("sandbox-languages").locator("tr", { hasText: "Swift" });
  await expect(swift).toContainText("unavailable here");
  await expect(swift).toContainText("toolchain not found");
  await expect(page.getByTestId("sandbox-languages").locator("tr", { hasText: "Python" })).toContainText("can run");
  await page.getByRole("button", { name: "Check again" }).click();
  await expect(page.getByRole("button", { name: "Check again" })).toBeEnabled();

  const health = (await (await page.request.get("/api/health")).json()) as { sandbox: { unavailable: string[] } };
  expect(health.sandbox.unavailable).toContain("swift");
  expect(JSON.stringify(health)).not.toContain("toolchain not found");
});
