import { expect, test } from "@playwright/test";

import { admin, signInAsAdmin } from "./people";

// A link opened while signed out (e.g. a review item sent in chat) survives the sign-in.
test("a deep link opened signed out lands on that page, query included, after sign-in", async ({ page, context }) => {
  await signInAsAdmin(page);
  await context.clearCookies();
  const deepLink = "/admin/audit?action=campaign.create";
  await page.goto(deepLink);
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === deepLink);
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
});
