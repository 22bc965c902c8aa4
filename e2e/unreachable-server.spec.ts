import { expect, type Page, test } from "@playwright/test";

import { importRecords, invite, signInAsAdmin, unique } from "./people";

// A form whose call never reaches the server (the connection drops, the server restarts) says so and
// can be sent again; it never stays on "Saving…". The browser's own network layer drops the calls:
// server actions are POSTs carrying a `Next-Action` header.
const UNREACHABLE = "The server could not be reached — nothing was saved. Check the connection and try again.";

async function dropServerActions(page: Page) {
  await page.route("**/*", (route) =>
    route.request().method() === "POST" && route.request().headers()["next-action"]
      ? route.abort("connectionreset")
      : route.fallback(),
  );
}

test("a token form sent while the server is unreachable says so, keeps the name and works once it is back", async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto("/settings/tokens");
  await dropServerActions(page);
  await page.getByLabel("Token name").fill("nightly export");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByText(UNREACHABLE)).toBeVisible();
  await expect(page.getByRole("button", { name: "Create token" })).toBeEnabled();
  await expect(page.getByLabel("Token name")).toHaveValue("nightly export");

  await page.unrouteAll();
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByLabel("New token")).toHaveValue(/\S{20,}/);
  await expect(page.getByText(UNREACHABLE)).toBeHidden();
});

test("the invitation form checks its input in the browser with the server's schema", async ({ page, browser }) => {
  await signInAsAdmin(page);
  await page.goto("/admin/users");
  // Refused before any call: nothing reaches the server, so dropping the calls changes nothing.
  await dropServerActions(page);
  await page.getByLabel("Email").fill("not-an-address@");
  const send = page.getByRole("button", { name: "Create invitation link" });
  // The browser's own check of type="email" would stop the form first.
  await send.evaluate((button) => button.closest("form")?.setAttribute("novalidate", ""));
  await send.click();
  await expect(page.getByText("Enter an email address.")).toBeVisible();
  await page.unrouteAll();
  await invite(page, browser, { email: "seam@example.test", password: "seam-password-1", name: "Seam" }, "ANNOTATOR");
});

test("a campaign form sent while the server is unreachable says so and can be sent again", async ({ page }) => {
  const dataset = `e2e-seam-${unique("c")}`;
  await signInAsAdmin(page);
  await importRecords(page, dataset, [
    {
      question: "Write `one()` in Python returning 1.",
      canonical_solution: "def one():\n    return 1\n",
      demo_test_func: "assert one() == 1\n",
      full_test_func: "assert one() == 1\n",
      language: "python",
    },
  ]);
  await page.goto("/campaigns");
  await dropServerActions(page);
  await page.getByLabel("Dataset").selectOption(dataset);
  await page.getByLabel("Campaign name").fill("Unreachable campaign");
  await page.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByText(UNREACHABLE)).toBeVisible();
  await expect(page.getByRole("button", { name: "Create campaign" })).toBeEnabled();
  await expect(page.getByLabel("Campaign name")).toHaveValue("Unreachable campaign");
});
