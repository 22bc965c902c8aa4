import { expect, type Page } from "@playwright/test";

// The accounts the foundation spec creates first; the later specs sign in as them.
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
