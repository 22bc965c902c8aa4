import { expect, test } from "@playwright/test";

import {
  admin,
  annotator,
  createCampaign,
  ensurePeople,
  importRecords,
  listRecords,
  SAME_ORIGIN,
  signedInPage,
  unique,
} from "./people";

// The blind check of a repair is labelled as the workspace is: the evidence recomputed on the
// revised record in the evidence panel, R runs the revised tests, V/I and Enter decide, ? lists the
// keys. The annotator proposes the repair over REST; the admin checks it.

test.beforeAll(async ({ browser }) => ensurePeople(browser));

test("the blind check has the evidence panel, a run key and the verdict keys", async ({ browser }) => {
  test.setTimeout(180_000);
  const lead = await signedInPage(browser, admin);
  const dataset = unique("check-keys");
  await importRecords(lead, dataset, [
    {
      question: `# Double ${dataset}\n\nWrite \`double(a)\` in Python returning \`2 * a\`.`,
      canonical_solution: "def double(a):\n    return 2 * a\n",
      demo_test_func: "assert double(1) == 2\n",
      full_test_func: "assert double(2) == 4\nassert double(5) == 11\n",
      language: "python",
    },
  ]);
  await createCampaign(lead, { dataset, name: `Check keys ${dataset}` });
  const [record] = await listRecords(lead, dataset);

  const fixer = await signedInPage(browser, annotator);
  const proposed = await fixer.request.post(`/api/v1/records/${record.id}/revisions`, {
    data: {
      full_test_func: "assert double(2) == 4\nassert double(5) == 10\n",
      reason: "5 doubled is 10",
      categories: ["wrong-expected-output"],
    },
    headers: SAME_ORIGIN,
  });
  expect(proposed.status()).toBe(201);
  const { id } = (await proposed.json()) as { id: string };

  await lead.setViewportSize({ width: 1440, height: 900 });
  await lead.goto(`/repairs/${id}`);
  await expect(lead.getByRole("heading", { name: /Check record \d+, revision 2/ })).toBeVisible();
  await expect(lead.getByTestId("check-page")).toHaveAttribute("data-ready", "true");

  // The evidence of the revised record, in the panel the workspace shows.
  const evidence = lead.getByRole("region", { name: "Evidence" });
  await expect(evidence.getByTestId("evidence-execution")).toContainText("passes");

  // ? lists the keys; Esc closes the sheet.
  await lead.keyboard.press("?");
  const sheet = lead.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(sheet).toBeVisible();
  await expect(sheet).toContainText("Run the revised demo and full test");
  await lead.keyboard.press("Escape");
  await expect(sheet).toBeHidden();

  // R runs the revised solution against the revised tests.
  await lead.keyboard.press("r");
  const runs = lead.getByRole("region", { name: "Latest run" });
  await expect(runs.getByTestId("run-row-demo")).toContainText("PASSED", { timeout: 90_000 });
  await expect(runs.getByTestId("run-row-full")).toContainText("PASSED", { timeout: 90_000 });

  // V sets the verdict, Enter submits it.
  await lead.keyboard.press("v");
  await expect(lead.getByRole("radio", { name: "Valid", exact: true })).toBeChecked();
  await lead.keyboard.press("Enter");
  await expect(lead.getByRole("status")).toContainText("Revision accepted: the record now holds it");
});
