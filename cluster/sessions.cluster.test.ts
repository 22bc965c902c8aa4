// Sessions across instances: both sign with the same NEXTAUTH_SECRET and re-read the user from the
// shared database on every request, so a session made on A works on B, and a user an admin
// disables on B is refused on A at its very next request (no instance keeps a stale copy).
import { chromium } from "@playwright/test";
import { describe, expect, it } from "vitest";

import { testChromiumPath } from "@/lib/testing/chromium";

import { callApi, instanceA, instanceB, makePerson, PASSWORD, signIn } from "./support";

async function campaignsWithCookie(base: string, cookie: string): Promise<number> {
  return (await fetch(`${base}/api/v1/campaigns`, { headers: { cookie } })).status;
}

describe("sessions across instances", () => {
  it("a session made on A is accepted by B; a user disabled on B is refused on A at the next request", async () => {
    const annotator = await makePerson("ANNOTATOR", { hasPassword: true });
    const admin = await makePerson("ADMIN", { languages: [], hasPassword: true });
    const session = await signIn(instanceA, annotator.email, PASSWORD);
    if (!("cookie" in session)) throw new Error(`sign-in on A failed: ${session.error}`);

    const onB = (await (
      await fetch(`${instanceB}/api/auth/session`, { headers: { cookie: session.cookie } })
    ).json()) as { userId?: string };
    expect(onB.userId).toBe(annotator.id);
    expect(await campaignsWithCookie(instanceB, session.cookie)).toBe(200);
    expect(await campaignsWithCookie(instanceA, session.cookie)).toBe(200);
    expect((await callApi(instanceA, annotator.token, "GET", "/campaigns")).status).toBe(200);

    // The admin disables the annotator in the browser, on B.
    const browser = await chromium.launch({
      executablePath: testChromiumPath(),
      args: ["--no-sandbox", "--disable-gpu"],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${instanceB}/signin`);
      await page.getByLabel("Email").fill(admin.email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/datasets$/);
      await page.goto(`${instanceB}/admin/users`);
      await page.getByRole("button", { name: `Disable ${annotator.email}` }).click();
      await page.getByText("Disabled: signed out everywhere").waitFor();
    } finally {
      await browser.close();
    }

    expect(await campaignsWithCookie(instanceA, session.cookie)).toBe(401);
    expect((await callApi(instanceA, annotator.token, "GET", "/campaigns")).status).toBe(401);
    expect(await campaignsWithCookie(instanceB, session.cookie)).toBe(401);
  });
});
