import { type Browser, expect, type Page } from "@playwright/test";

import { setupCodeFor } from "../lib/auth/setup-code";

/** The e2e server's session secret (playwright.config.ts); the first-admin setup code derives from it. */
export const E2E_SECRET = "e2e-only-secret-not-for-production";
export const setupCode = setupCodeFor(E2E_SECRET);

// The accounts the foundation spec creates first; a later spec calls ensurePeople so that it also
// runs alone, on a fresh database.
export const admin = { email: "admin@example.test", password: "admin-password-1" };
export const annotator = { email: "ann@example.test", password: "annotator-password-1" };

// A browser marks its own same-origin requests (Sec-Fetch-Site); Playwright's API client sends no
// such header, and the API refuses session-cookie writes that do not show they come from Verity.
export const SAME_ORIGIN = { "sec-fetch-site": "same-origin" };

export async function signIn(page: Page, user: { email: string; password: string }) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/datasets$/);
}

/** Signs in as the admin, creating the admin first on an empty database, so a spec can run alone. */
export async function signInAsAdmin(page: Page) {
  await page.goto("/signin");
  const firstAdmin = page.getByRole("heading", { name: "Create the first admin" });
  await expect(firstAdmin.or(page.getByRole("heading", { name: "Sign in" }))).toBeVisible();
  if (!(await firstAdmin.isVisible())) return signIn(page, admin);
  await page.getByLabel("Setup code").fill(setupCode);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Create admin account" }).click();
  await expect(page.getByRole("heading", { name: "Datasets" })).toBeVisible();
}

/** The admin invites someone (Python) on the Users page; the invitee sets a name and password in a fresh browser. */
export async function invite(
  page: Page,
  browser: Browser,
  user: { email: string; password: string; name: string },
  role: "ANNOTATOR" | "REVIEWER",
) {
  await page.goto("/admin/users");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Role").selectOption(role);
  await page.getByLabel("Python").check();
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const link = page.getByLabel("Invitation link");
  await expect(link).toHaveValue(/\/invite\/inv_/);
  const invitee = await (await browser.newContext()).newPage();
  await invitee.goto(await link.inputValue());
  await invitee.getByLabel("Your name").fill(user.name);
  await invitee.getByLabel("Password").fill(user.password);
  await invitee.getByRole("button", { name: "Create account" }).click();
  await expect(invitee.getByText(`${user.name} · ${role.toLowerCase()}`)).toBeVisible();
  await invitee.context().close();
}

/**
 * Makes sure the shared admin and Python annotator exist, creating them through the UI (first admin,
 * invitation) when the spec runs on a fresh database, so that no spec depends on another one.
 */
export async function ensurePeople(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAsAdmin(page);
  const probe = await (await browser.newContext()).newPage();
  await probe.goto("/signin");
  await probe.getByLabel("Email").fill(annotator.email);
  await probe.getByLabel("Password").fill(annotator.password);
  await probe.getByRole("button", { name: "Sign in" }).click();
  const refused = probe.getByText("Wrong email or password.");
  await expect(refused.or(probe.getByRole("heading", { name: "Datasets" }))).toBeVisible();
  if (await refused.isVisible()) await invite(page, browser, { ...annotator, name: "Ann Otator" }, "ANNOTATOR");
  await probe.context().close();
  await context.close();
}
