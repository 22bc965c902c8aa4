import { expect, test } from "@playwright/test";

// The app has its own icon, served from the tracked public/ folder and named by every page.
test("pages name the app's icons and the server serves them", async ({ page }) => {
  await page.goto("/signin");
  await expect(page.locator('link[rel="icon"][href="/icon.svg"]')).toHaveCount(1);
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute("href", "/apple-touch-icon.png");
  for (const [path, type] of [
    ["/icon.svg", "image/svg+xml"],
    ["/favicon.ico", "image/"],
    ["/apple-touch-icon.png", "image/png"],
  ]) {
    const response = await page.request.get(path);
    expect(response.status(), path).toBe(200);
    expect(response.headers()["content-type"], path).toContain(type);
  }
});
