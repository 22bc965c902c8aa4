import { expect, test } from "@playwright/test";

import { admin, ensureAdmin, importRecords, listRecords, signedInPage, unique, verifyDataset } from "./people";

// A record whose run fails because the sandbox lacks a module is "not run: environment", not
// failed: on its page, and on the batch page, which groups such records by what is missing and says
// how to fix it. Needs bubblewrap and Python (npm run sandbox:install).
const records = [
  {
    question: "Needs a module that is not installed.",
    canonical_solution:
      "import networkx_verity_absent as nx\n\ndef f():\n    return nx.path_graph(3).number_of_edges()\n",
    demo_test_func: "assert f() == 2\n",
    full_test_func: "assert f() == 2\n",
    language: "python",
  },
  {
    question: "Fails on its own.",
    canonical_solution: "def f():\n    return 2\n",
    demo_test_func: "assert f() == 3\n",
    full_test_func: "assert f() == 3\n",
    language: "python",
  },
];

test("a missing module is the environment's failure, grouped on the batch page with its fix", async ({ browser }) => {
  test.setTimeout(180_000);
  await ensureAdmin(browser);
  const page = await signedInPage(browser, admin);
  const dataset = unique("e2e-environment");
  await importRecords(page, dataset, records);
  const batchId = await verifyDataset(page, dataset);
  const ids = Object.fromEntries((await listRecords(page, dataset)).map((record) => [record.question, record.id]));

  await page.goto(`/verifications/${batchId}`);
  const causes = page.getByTestId("failure-causes");
  await expect(causes).toContainText("the record: 1");
  await expect(causes).toContainText("environment: 1");
  const missing = page.getByTestId("environment-failures");
  await expect(missing).toContainText("module networkx_verity_absent");
  await expect(missing.getByRole("link", { name: "line 1" })).toHaveAttribute(
    "href",
    `/records/${ids["Needs a module that is not installed."]}`,
  );
  const fix = page.getByTestId("environment-fix");
  await expect(fix).toContainText("add what is missing, pinned, to the dataset’s environment");
  await expect(fix.getByRole("link", { name: "the dataset’s environment" })).toHaveAttribute(
    "href",
    /\/datasets\/[^/]+\/environment$/,
  );
  // The runs keep the reference sandbox's outcome, with what was missing beside it.
  await expect(page.getByTestId("batch-runs")).toContainText("missing module networkx_verity_absent");

  await page.goto(`/records/${ids["Needs a module that is not installed."]}`);
  await expect(page.getByTestId("verification-environment")).toContainText("module networkx_verity_absent");
  await expect(page.getByText(/^fails/)).toHaveCount(0);
  await page.context().close();
});
