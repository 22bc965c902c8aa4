import { expect, test } from "@playwright/test";

import {
  addPerson,
  admin,
  annotator,
  createCampaign,
  ensurePeople,
  importRecords,
  SAME_ORIGIN,
  signedInPage,
  signIn,
  unique,
} from "./people";

const WITH_OTHERS = "1 item is with another annotator; it comes back here if the lease runs out.";

// The end of a campaign: the one item left for the annotator is leased by someone else. They are
// told it may come back, on the campaign page and on the next-item page, not that they are done.
test("an annotator whose last item is with another annotator is told it may come back", async ({ page, browser }) => {
  // Two people set up through invitations (password hashing) before the pages are read.
  test.setTimeout(150_000);
  await ensurePeople(browser);
  const lead = await signedInPage(browser, admin);
  const dataset = unique("e2e-tail");
  const seed = dataset.replaceAll("-", "_");
  await importRecords(lead, dataset, [
    {
      question: `Write add_${seed}(a, b).`,
      canonical_solution: `def add_${seed}(a, b):\n    return a + b\n`,
      demo_test_func: `assert add_${seed}(1, 2) == 3\n`,
      full_test_func: `assert add_${seed}(-1, 1) == 0\n`,
      language: "python",
      difficulty: "easy",
    },
  ]);
  const { id } = await createCampaign(lead, { dataset, name: unique("Tail"), overlap: 1 });
  const other = { email: `${unique("bea")}@example.test`, password: "bea-password-1", name: "Bea Other" };
  await addPerson(lead, other, "ANNOTATOR");
  const bea = await signedInPage(browser, other);
  const claimed = await bea.request.post(`/api/v1/campaigns/${id}/claim`, { headers: SAME_ORIGIN });
  expect(claimed.status()).toBe(200);

  await signIn(page, annotator);
  await page.goto(`/campaigns/${id}`);
  await expect(page.getByText(WITH_OTHERS)).toBeVisible();
  await expect(page.getByText("Nothing left for you here")).toHaveCount(0);
  await page.goto(`/campaigns/${id}/next`);
  await expect(page.getByRole("heading", { name: "Nothing to hand you right now" })).toBeVisible();
  await expect(page.getByText(WITH_OTHERS)).toBeVisible();
  await expect(page.getByRole("heading", { name: "You're done with this campaign" })).toHaveCount(0);
});
