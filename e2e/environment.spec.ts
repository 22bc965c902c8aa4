import { expect, test } from "@playwright/test";

import { admin, ensureAdmin, importRecords, signedInPage, unique } from "./people";

// An admin gives a dataset an environment through the pages: from the dataset, the Environment link;
// a pinned PyPI package builds (its log shows, then the version is in use, with what it resolved);
// an unpinned one is refused under its own text area, and nothing typed is lost; a package npm does
// not have fails the build, which says the version in use stays. The builds reach PyPI and npm, as a
// team's server reaches its registries.
test("an admin builds a dataset's environment and is told which entry is not pinned", async ({ browser }) => {
  test.setTimeout(180_000);
  await ensureAdmin(browser);
  const page = await signedInPage(browser, admin);
  const dataset = unique("e2e-env");
  await importRecords(page, dataset, [
    {
      question: "Prints a table.",
      canonical_solution: "def f():\n    return 1\n",
      demo_test_func: "assert f() == 1\n",
      full_test_func: "assert f() == 1\n",
      language: "python",
    },
  ]);

  await page.goto("/datasets");
  await page.getByRole("link", { name: dataset, exact: true }).click();
  await expect(page.getByRole("heading", { name: dataset })).toBeVisible();
  await page.getByRole("link", { name: "Environment →" }).click();
  await expect(page.getByRole("heading", { name: "Environment", exact: true })).toBeVisible();
  await expect(page.getByTestId("environment-in-use")).toContainText("None yet");

  const python = page.getByLabel("Python packages (PyPI wheels)");
  await expect(python).toHaveAttribute("placeholder", "numpy==1.26.4");
  await python.fill("tabulate==0.9.0");
  await page.getByRole("button", { name: "Build new version" }).click();
  await expect(page.getByRole("log", { name: "Build log of version 1" })).toContainText("tabulate");
  const versionOne = page.getByTestId("environment-version-1");
  await expect(versionOne).toContainText("in use", { timeout: 120_000 });
  await expect(versionOne).toContainText("ready");
  await expect(page.getByTestId("environment-in-use")).toContainText("Version 1");
  await expect(page.getByTestId("environment-in-use")).toContainText("tabulate==0.9.0");
  await expect(page.getByText("Version 1 is ready and in use.")).toBeVisible();

  // An unpinned entry: its error under the Python field, every field as typed, nothing declared.
  const npm = page.getByLabel("npm packages");
  await npm.fill("js-md5@0.8.3");
  await python.fill("tabulate==0.9.0\nnumpy");
  await page.getByRole("button", { name: "Build new version" }).click();
  await expect(page.getByText(/"numpy" is not name==version \(e\.g\. numpy==1\.26\.4\)/)).toBeVisible();
  await expect(python).toHaveValue("tabulate==0.9.0\nnumpy");
  await expect(npm).toHaveValue("js-md5@0.8.3");
  await expect(page.getByTestId("environment-version-2")).toHaveCount(0);

  // A package the registry does not have: the build fails with npm's words, version 1 stays in use.
  await python.fill("tabulate==0.9.0");
  await npm.fill("verity-no-such-package-for-tests@1.0.0");
  await page.getByRole("button", { name: "Build new version" }).click();
  const versionTwo = page.getByTestId("environment-version-2");
  await expect(versionTwo).toContainText("failed", { timeout: 120_000 });
  await expect(versionTwo).toContainText("404");
  await expect(versionTwo).toContainText("Version 1 stays in use.");
  await expect(page.getByText(/^Version 2 failed: npm install failed .* Version 1 stays in use\.$/)).toBeVisible();
  await expect(versionOne).toContainText("in use");

  // Reloaded, the form starts from the version in use.
  await page.reload();
  await expect(page.getByLabel("Python packages (PyPI wheels)")).toHaveValue("tabulate==0.9.0");
  await page.context().close();
});
