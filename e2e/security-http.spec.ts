import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { expect, test } from "@playwright/test";

import { admin, annotator, ensurePeople, SAME_ORIGIN, signIn } from "./people";

test.beforeAll(async ({ browser }) => ensurePeople(browser));

// The HTTP edge seen from a browser: a form on another port of the same host posting with the
// admin's session cookie, a sign-in link that tries to leave the site, ids no record can have, and a
// question too long to render whole.

function record(seed: string, question = `# Record ${seed}\n\nWrite \`f_${seed}()\`.`) {
  return {
    question,
    canonical_solution: `def f_${seed}():\n    return 1\n`,
    demo_test_func: `assert f_${seed}() == 1\n`,
    full_test_func: `assert f_${seed}() == 1\n`,
    language: "python",
  };
}

/** Serves one HTML page from a port of its own on this host: same site as Verity, another origin. */
async function serveOnOtherPort(html: string): Promise<{ server: Server; url: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "localhost", resolve));
  return { server, url: `http://localhost:${(server.address() as AddressInfo).port}/` };
}

test("a form on another port of the same host cannot create a campaign with the admin's session", async ({
  page,
  baseURL,
}) => {
  await signIn(page, admin);
  const dataset = `csrf-${Date.now()}`;
  const imported = await page.request.post(`/api/v1/datasets/${dataset}/records`, {
    data: JSON.stringify(record(dataset.replace("-", "_"))),
    headers: { ...SAME_ORIGIN, "content-type": "application/x-ndjson" },
  });
  expect(imported.status()).toBe(201);

  // enctype=text/plain sends `name=value`: with this name and value the body is valid JSON.
  const name = `forged-${Date.now()}`;
  const target = `${baseURL}/api/v1/campaigns`;
  const { server, url } = await serveOnOtherPort(
    `<!doctype html><form method="POST" action="${target}" enctype="text/plain"><input name='{"dataset":"${dataset}","name":"${name}","pad":"' value='"}'></form><script>document.forms[0].submit()</script>`,
  );
  try {
    const answer = page.waitForResponse(
      (response) => response.url() === target && response.request().method() === "POST",
    );
    await page.goto(url);
    expect((await answer).status()).toBe(403);
  } finally {
    server.close();
  }
  const campaigns = (await (await page.request.get("/api/v1/campaigns")).json()) as { name: string }[];
  expect(campaigns.map((campaign) => campaign.name)).not.toContain(name);

  // The app's own pages still write: the same campaign created from the campaigns form works.
  await page.goto("/campaigns");
  const own = await page.evaluate(
    async (body) =>
      (await fetch("/api/v1/campaigns", { method: "POST", headers: { "content-type": "application/json" }, body }))
        .status,
    JSON.stringify({ dataset, name }),
  );
  expect(own).toBe(201);
});

test("sign-in ignores a callback address that leaves the site", async ({ browser, baseURL }) => {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`/signin?callbackUrl=${encodeURIComponent("/.//evil.example")}`);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${baseURL}/datasets`);
});

test("a record id beyond PostgreSQL's integer shows the not-found page", async ({ page }) => {
  await signIn(page, admin);
  const response = await page.goto("/records/99999999999");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  const api = await page.request.post("/api/v1/records/99999999999/runs", {
    headers: SAME_ORIGIN,
    data: { kind: "demo" },
  });
  expect(api.status()).toBe(404);
});

test("a 1 MB question (the most a field may hold) renders its head, with the rest behind Show all", async ({
  page,
}) => {
  await signIn(page, admin);
  const dataset = `long-${Date.now()}`;
  const paragraph = "Return the **sum** of the first n numbers for each n given.\n\n";
  const question = `# Long ${dataset}\n\n${paragraph.repeat(Math.ceil(1_000_000 / paragraph.length))}The very last line ${dataset}.`;
  const imported = await page.request.post(`/api/v1/datasets/${dataset}/records`, {
    data: JSON.stringify(record(dataset.replace("-", "_"), question)),
    headers: { ...SAME_ORIGIN, "content-type": "application/x-ndjson" },
  });
  expect(imported.status()).toBe(201);
  await page.goto(`/datasets/${dataset}`);
  await page.getByRole("link", { name: `Long ${dataset}` }).click();
  await expect(page.getByRole("heading", { name: `Long ${dataset}` })).toBeVisible();
  await expect(page.getByText(`The very last line ${dataset}.`, { exact: false })).toBeHidden();
  await page.getByText(/^Show all: [\d,]+ more characters/).click();
  await expect(page.getByText(`The very last line ${dataset}.`, { exact: false })).toBeVisible();
});

test("an <img> on another port of the same host takes no lease; the app's own Start button claims", async ({
  page,
  browser,
  baseURL,
}) => {
  await signIn(page, admin);
  const dataset = `getclaim-${Date.now()}`;
  const imported = await page.request.post(`/api/v1/datasets/${dataset}/records`, {
    data: JSON.stringify(record(dataset.replace("-", "_"))),
    headers: { ...SAME_ORIGIN, "content-type": "application/x-ndjson" },
  });
  expect(imported.status()).toBe(201);
  const created = await page.request.post("/api/v1/campaigns", {
    data: { dataset, name: `GET claim ${Date.now()}` },
    headers: SAME_ORIGIN,
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  const victim = await (await browser.newContext()).newPage();
  await signIn(victim, annotator);
  const progress = async () =>
    ((await (await victim.request.get(`/api/v1/campaigns/${id}/progress`)).json()) as { mine: { active: number } }).mine
      .active;
  const target = `${baseURL}/campaigns/${id}/next`;
  const { server, url } = await serveOnOtherPort(
    `<!doctype html><img src="${target}" alt=""><a href="${target}">Take a look</a>`,
  );
  try {
    await victim.goto(url);
    // The browser sent the request with the session cookie (same site) and got a page, not an image.
    await victim.waitForFunction(() => document.images[0]?.complete);
    expect(await progress()).toBe(0);
    // Reached by a link from elsewhere, the page asks first; its button (a POST) claims and opens the item.
    await victim.getByRole("link", { name: "Take a look" }).click();
  } finally {
    server.close();
  }
  await expect(victim.getByRole("heading", { name: "Start labelling" })).toBeVisible();
  expect(await progress()).toBe(0);
  await victim.getByRole("button", { name: "Start / next item" }).click();
  await expect(victim).toHaveURL(/\/items\//);
  expect(await progress()).toBe(1);
  await victim.context().close();
});

test("pages requested as prefetches carry the Content-Security-Policy", async ({ page }) => {
  await signIn(page, admin);
  const prefetches: Record<string, string>[] = [{ purpose: "prefetch" }, { "next-router-prefetch": "1", rsc: "1" }];
  for (const headers of prefetches) {
    const response = await page.request.get("/campaigns", { headers });
    expect(response.headers()["content-security-policy"], JSON.stringify(headers)).toContain("'strict-dynamic'");
  }
});
