import { expect, test } from "@playwright/test";

import { admin, annotator, ensurePeople, SAME_ORIGIN, signIn } from "./people";

test.beforeAll(async ({ browser }) => ensurePeople(browser));

// Generated text is untrusted: script injected into a question, the critic's reasoning, an error
// category's label or a note must render as text and never run. Also checks the CSP header.
const PAYLOAD = `<script>window.__pwned = "script"</script><img src=x onerror="window.__pwned='img'"><a href="javascript:window.__pwned='link'">click</a>`;

test("injected script in generated text and labels stays inert", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signIn(page, admin);
  const dataset = `xss-${Date.now()}`;
  const record = {
    question: `# Hostile ${dataset}\n\n${PAYLOAD}\n\nWrite \`f()\`.`,
    canonical_solution: "def f():\n    return 1\n",
    demo_test_func: "assert f() == 1\n",
    full_test_func: "assert f() == 1\n",
    language: "python",
    critic_result: { summary: { overall_pass: false, failed_rules: [PAYLOAD], key_points: [PAYLOAD] } },
    critic_reasoning: PAYLOAD,
  };
  const imported = await page.request.post(`/api/v1/datasets/${dataset}/records`, {
    data: JSON.stringify(record),
    headers: { ...SAME_ORIGIN, "content-type": "application/x-ndjson" },
  });
  expect(imported.status()).toBe(201);

  const response = await page.goto(`/datasets/${dataset}`);
  expect(response?.headers()["content-security-policy"]).toContain("'strict-dynamic'");
  await page.getByRole("link", { name: `Hostile ${dataset}` }).click();
  await expect(page.getByRole("heading", { name: `Hostile ${dataset}` })).toBeVisible();
  await page.getByText("Reasoning").click();
  await expect(page.getByText('<script>window.__pwned = "script"</script>').first()).toBeVisible();
  // Monaco still loads under the policy.
  await expect(page.getByTestId("code-canonical-solution").locator(".view-lines")).toContainText("def f():");
  expect(await page.evaluate(() => Reflect.get(window, "__pwned"))).toBeUndefined();
  expect(dialogs).toEqual([]);
});

test("injected script in an error category's label and an annotator's note stays inert", async ({ page, browser }) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signIn(page, admin);
  const dataset = `xss-labels-${Date.now()}`;
  const record = {
    question: `# Labels ${dataset}`,
    canonical_solution: "def f():\n    return 1\n",
    demo_test_func: "assert f() == 1\n",
    full_test_func: "assert f() == 1\n",
    language: "python",
  };
  expect(
    (
      await page.request.post(`/api/v1/datasets/${dataset}/records`, {
        data: JSON.stringify(record),
        headers: { ...SAME_ORIGIN, "content-type": "application/x-ndjson" },
      })
    ).status(),
  ).toBe(201);
  const hostileLabel = `<img src=x onerror="window.__pwned='label'">`;
  const created = await page.request.post("/api/v1/campaigns", {
    headers: SAME_ORIGIN,
    data: {
      dataset,
      name: dataset,
      categories: [
        {
          key: "hostile",
          label: hostileLabel,
          description: PAYLOAD.slice(0, 300),
          invalidating: true,
          criticRule: null,
        },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const campaign = (await created.json()) as { id: string };

  const annotatorPage = await (await browser.newContext()).newPage();
  annotatorPage.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signIn(annotatorPage, annotator);
  const claim = await annotatorPage.request.post(`/api/v1/campaigns/${campaign.id}/claim`, { headers: SAME_ORIGIN });
  const { item } = (await claim.json()) as { item: { id: string } };
  expect(
    (
      await annotatorPage.request.post(`/api/v1/items/${item.id}/annotations`, {
        headers: SAME_ORIGIN,
        data: { valid: false, categories: ["hostile"], note: PAYLOAD },
      })
    ).status(),
  ).toBe(201);
  await annotatorPage.goto(`/campaigns/${campaign.id}/items/${item.id}`);
  await expect(annotatorPage.getByText(hostileLabel).first()).toBeVisible();
  expect(await annotatorPage.evaluate(() => Reflect.get(window, "__pwned"))).toBeUndefined();

  await page.goto(`/campaigns/${campaign.id}/review/${item.id}`);
  await expect(page.getByText('<script>window.__pwned = "script"</script>').first()).toBeVisible();
  expect(await page.evaluate(() => Reflect.get(window, "__pwned"))).toBeUndefined();
  expect(dialogs).toEqual([]);
});
