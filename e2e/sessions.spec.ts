import { type Browser, expect, type Page, test } from "@playwright/test";

import { signInAsAdmin } from "./people";

// Taking access away works server-side: a session cookie copied before sign-out is refused after
// it, and an admin can disable a person (open session and API tokens stop at once) and revoke a token.

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

/** Invites a new annotator through the admin's Users page and accepts as them; returns their signed-in page. */
async function inviteAnnotator(adminPage: Page, browser: Browser, email: string, password: string): Promise<Page> {
  await adminPage.goto("/admin/users");
  await adminPage.getByLabel("Email").fill(email);
  await adminPage.getByLabel("Role").selectOption("ANNOTATOR");
  await adminPage.getByRole("button", { name: "Create invitation link" }).click();
  const linkField = adminPage.getByLabel("Invitation link");
  await expect(linkField).toHaveValue(/\/invite\/inv_/);
  const link = await linkField.inputValue();
  const page = await newPage(browser);
  await page.goto(link);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText(`${email} · annotator`)).toBeVisible();
  return page;
}

async function signInAs(page: Page, email: string, password: string) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("a session cookie replayed after sign-out is refused", async ({ browser }) => {
  const adminPage = await newPage(browser);
  await signInAsAdmin(adminPage);
  const email = `leaver-${Date.now()}@example.test`;
  const page = await inviteAnnotator(adminPage, browser, email, "leaver-password-1");
  const cookies = await page.context().cookies();

  const replay = await newPage(browser);
  await replay.context().addCookies(cookies);
  expect((await replay.request.get("/api/v1/datasets")).status()).toBe(200);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);

  expect((await replay.request.get("/api/v1/datasets")).status()).toBe(401);
  await replay.goto("/datasets");
  await expect(replay).toHaveURL(/\/signin/);

  // Signing in again works.
  await signInAs(page, email, "leaver-password-1");
  await expect(page).toHaveURL(/\/datasets$/);
});

test("an admin disables a person: their open session and API token stop at once; enabling lets them back; a token can be revoked", async ({
  browser,
}) => {
  const adminPage = await newPage(browser);
  await signInAsAdmin(adminPage);
  const email = `disabled-${Date.now()}@example.test`;
  const page = await inviteAnnotator(adminPage, browser, email, "disabled-password-1");
  await page.goto("/settings/tokens");
  await page.getByLabel("Token name").fill("script");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = await page.getByLabel("New token").inputValue();
  const bearer = { authorization: `Bearer ${token}` };
  expect((await page.request.get("/api/v1/datasets", { headers: bearer })).status()).toBe(200);

  await adminPage.goto("/admin/users");
  await adminPage.getByRole("button", { name: `Disable ${email}` }).click();
  await expect(adminPage.getByRole("button", { name: `Enable ${email}` })).toBeVisible();

  await page.goto("/datasets");
  await expect(page).toHaveURL(/\/signin/);
  expect((await page.request.get("/api/v1/datasets", { headers: bearer })).status()).toBe(401);
  await signInAs(page, email, "disabled-password-1");
  await expect(page.getByText("Wrong email or password.")).toBeVisible();

  await adminPage.getByRole("button", { name: `Enable ${email}` }).click();
  await expect(adminPage.getByRole("button", { name: `Disable ${email}` })).toBeVisible();
  await signInAs(page, email, "disabled-password-1");
  await expect(page).toHaveURL(/\/datasets$/);
  expect((await page.request.get("/api/v1/datasets", { headers: bearer })).status()).toBe(200);

  await adminPage.reload();
  await adminPage.getByRole("button", { name: `Revoke ${email}'s token script` }).click();
  await expect(adminPage.getByRole("button", { name: `Revoke ${email}'s token script` })).toHaveCount(0);
  expect((await page.request.get("/api/v1/datasets", { headers: bearer })).status()).toBe(401);
});
