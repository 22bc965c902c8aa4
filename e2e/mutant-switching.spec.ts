import { expect, test } from "@playwright/test";

import { importThroughPage } from "./import-page";
import { admin, ensurePeople, signIn } from "./people";

// Test strength of a C++ record as an admin measures it: the dataset page's "Measure test strength"
// form runs the mutants through the workers, switched in one program per test, and the record page
// says so; a change the optimiser compiles away survives as likely equivalent, apart from the real
// survivors, and the weak-tests filter counts the real ones only.
const run = Date.now().toString(36);
const dataset = `e2e-switch-${run}`;
const title = `Add with a spare ${run}`;

// `spare` is never read: its literal's mutants (7 → 8, 7 → 6) change nothing the compiled program
// does. Both tests reject the `+` → `-` and `return 0` mutants.
const record = {
  question: `# ${title}\n\nWrite \`int add(int a, int b)\` in C++.`,
  canonical_solution: "int add(int a, int b) {\n    int spare = 7;\n    (void)spare;\n    return a + b;\n}\n",
  demo_test_func: "#include <cassert>\nint main() {\n    assert(add(1, 2) == 3);\n    return 0;\n}\n",
  full_test_func:
    "#include <cassert>\nint main() {\n    assert(add(2, 2) == 4);\n    assert(add(-1, 1) == 0);\n    return 0;\n}\n",
  language: "cpp",
  difficulty: "easy",
};

test.beforeAll(async ({ browser }) => ensurePeople(browser));

test("switched mutants and a likely-equivalent survivor, measured from the dataset page", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, admin);
  await importThroughPage(page, dataset, [record]);

  await page.goto(`/datasets/${dataset}`);
  const form = page.getByTestId("evidence-button");
  await form.getByLabel("Flaky check runs").fill("0");
  await form.getByRole("button", { name: "Measure test strength" }).click();
  await expect(form.getByTestId("evidence-progress")).toContainText("1/1 record task · succeeded", {
    timeout: 150_000,
  });

  await page.getByRole("link", { name: title }).click();
  const mutation = page.getByTestId("evidence-panel").getByTestId("evidence-mutation");
  await expect(mutation.getByTestId("mutant-switching")).toContainText(
    "compiled once per test in one switched program",
  );
  await expect(mutation.getByTestId("likely-equivalent")).toContainText(
    "likely equivalent to the solution: over the real survivors the score is 100%",
  );
  await expect(mutation.getByTestId("strongest-survivor")).toContainText(
    "Likely equivalent: optimised, it compiles to exactly the solution's code",
  );

  // The weak-tests filter reads the score over real survivors: this record is not weak.
  await page.goto(`/datasets/${dataset}`);
  await expect(page.getByRole("link", { name: title })).toBeVisible();
  await page.getByLabel("Look at").selectOption("weak_tests");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("0 records match these filters")).toBeVisible();
  await expect(page.getByRole("link", { name: title })).toHaveCount(0);
});
