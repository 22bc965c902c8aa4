import { expect, type Locator, test } from "@playwright/test";

import { criticAnswer, type FakeOpenAI, startFakeOpenAI } from "../lib/testing/fake-openai";

import { admin, annotator, ensurePeople, SAME_ORIGIN, signIn } from "./people";

// Critics run from the app: the admin defines a critic pointed at a fake OpenAI-compatible endpoint
// started here, runs version 1, edits the prompt (version 2), runs it, and the ranking puts version 2
// first, because the fake answers a prompt that asks to "look hard" correctly and any other with
// "pass". People's labels come first, through the API; the validity report does not move.
test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const dataset = `e2e-critics-${run}`;
const criticName = `judge-${run}`;
const MARKER = "Look hard at the tests.";
let fake: FakeOpenAI;
let campaignId = "";

/** Adjacent column headers of a table whose words are less than 8 px apart, as "LEFT|RIGHT". */
function headerGaps(table: Locator): Promise<string[]> {
  return table.locator("thead th").evaluateAll((cells) => {
    const boxes = cells.map((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      const box = range.getBoundingClientRect();
      return { text: (cell.textContent ?? "").trim(), left: box.left, right: box.right };
    });
    return boxes.slice(1).flatMap((box, index) => {
      const before = boxes[index];
      return box.left - before.right < 8 ? [`${before.text}|${box.text}`] : [];
    });
  });
}

function record(name: string, isBroken: boolean) {
  return {
    question: `# Critics ${run} ${name}\n\nWrite \`${name}(a, b)\` in Python returning \`a + b\`.${isBroken ? " (broken)" : ""}`,
    canonical_solution: `def ${name}(a, b):\n    return a + b\n`,
    demo_test_func: `assert ${name}(1, 2) == 3\n`,
    full_test_func: `assert ${name}(2, 3) == 5\n`,
    language: "python",
    critic: JSON.parse(criticAnswer({ pass: true })),
  };
}

test.beforeAll(async ({ browser }) => {
  await ensurePeople(browser);
  fake = await startFakeOpenAI(({ prompt }) => {
    const isBroken = prompt.includes("(broken)");
    const looksHard = prompt.includes(MARKER);
    return {
      content: criticAnswer(looksHard && isBroken ? { pass: false, failedRules: ["Other Issues"] } : { pass: true }),
    };
  });
});

test.afterAll(async () => {
  await fake?.close();
});

test("people label a sample: two records valid, two invalid", async ({ browser, page }) => {
  await signIn(page, admin);
  const body = [record("cr_one", false), record("cr_two", true), record("cr_three", false), record("cr_four", true)]
    .map((item) => JSON.stringify(item))
    .join("\n");
  const imported = await page.request.post(`/api/v1/datasets/${dataset}/records`, {
    data: body,
    headers: { ...SAME_ORIGIN, "content-type": "application/x-ndjson" },
  });
  expect(imported.status()).toBe(201);
  const created = await page.request.post("/api/v1/campaigns", {
    headers: SAME_ORIGIN,
    data: { dataset, name: `Critics campaign ${run}`, languages: ["python"], seed: "e2e" },
  });
  expect(created.status()).toBe(201);
  campaignId = ((await created.json()) as { id: string }).id;

  const labeller = await (await browser.newContext()).newPage();
  await signIn(labeller, annotator);
  for (let index = 0; index < 4; index++) {
    const claim = await labeller.request.post(`/api/v1/campaigns/${campaignId}/claim`, { headers: SAME_ORIGIN });
    expect(claim.status()).toBe(200);
    const { item, record: claimed } = (await claim.json()) as { item: { id: string }; record: { question: string } };
    const isBroken = claimed.question.includes("(broken)");
    const saved = await labeller.request.post(`/api/v1/items/${item.id}/annotations`, {
      headers: SAME_ORIGIN,
      data: isBroken ? { valid: false, categories: ["other"], note: "broken" } : { valid: true },
    });
    expect(saved.status()).toBe(201);
  }
  // Critic pages are not for annotators.
  expect((await labeller.goto("/critics"))?.status()).toBe(404);
  expect((await labeller.goto(`/datasets/${dataset}/critics`))?.status()).toBe(404);
  await labeller.context().close();
});

test("the admin defines a critic, runs version 1 and version 2, and the ranking puts version 2 first", async ({
  page,
}) => {
  await signIn(page, admin);
  const reportBefore = await (await page.request.get(`/api/v1/datasets/${dataset}/report`)).json();

  await page.getByRole("link", { name: "Critics", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Critics", exact: true })).toBeVisible();
  const form = page.getByRole("form", { name: "Critic" });
  await form.getByLabel("Name").fill(criticName);
  await form.getByLabel("Base URL").fill(fake.baseUrl);
  await form.getByLabel("Model").fill("fake-judge");
  await form.getByLabel("Requests at once").fill("2");
  await form.getByRole("button", { name: "Save critic" }).click();
  await expect(form.getByRole("status")).toHaveText(`Saved ${criticName}, version 1.`);

  const startRun = async (version: number) => {
    await page.goto("/critics");
    const runForm = page.getByRole("form", { name: "Start a critic run" });
    await runForm.getByLabel("Critic").selectOption(criticName);
    await expect(runForm.getByLabel("Critic")).toContainText(`version ${version}`);
    await runForm.getByLabel("Dataset").selectOption(dataset);
    await runForm.getByLabel("Campaign id (optional)").fill(campaignId);
    await runForm.getByRole("button", { name: "Start run" }).click();
    await expect(page).toHaveURL(/\/critics\/runs\//);
    await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 60_000 });
    await expect(page.getByTestId("run-counts")).toContainText("4/4 records");
  };
  await startRun(1);
  await expect(page.getByTestId("run-counts")).toContainText("4 parsed (4 pass, 0 fail)");

  // Version 1 was used: editing its prompt makes version 2.
  await page.goto("/critics");
  await form.getByLabel("Edit").selectOption(criticName);
  const template = form.getByLabel("Prompt template");
  await template.fill(`${await template.inputValue()}\n${MARKER}`);
  await form.getByRole("button", { name: "Save critic" }).click();
  await expect(form.getByRole("status")).toHaveText(`Saved ${criticName}, version 2.`);
  await startRun(2);
  await expect(page.getByTestId("run-counts")).toContainText("4 parsed (2 pass, 2 fail)");

  // The run page names each reply's record by its statement's title, and on a phone, where the
  // columns shrink to their words, no two column headers run together ("UNREADABLESTARTED").
  const replies = page.getByRole("table", { name: "Critic replies" });
  await expect(replies.getByRole("link", { name: new RegExp(`^Critics ${run} `) }).first()).toBeVisible();
  const runPage = page.url();
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await headerGaps(replies)).toEqual([]);
  await page.goto("/critics");
  for (const name of ["Critics", "Critic runs"])
    expect(await headerGaps(page.getByRole("table", { name })), name).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(runPage);

  await page.getByRole("link", { name: "Which critic to trust →" }).click();
  await expect(page.getByRole("heading", { name: "Which critic to trust" })).toBeVisible();
  const rows = page.getByRole("table", { name: "Critic ranking" }).getByTestId("ranking-row");
  await expect(rows.first()).toContainText(`1. ${criticName} v2`);
  await expect(rows.first()).toContainText("open");
  await expect(rows.filter({ hasText: `${criticName} v1` })).toHaveCount(1);
  await expect(rows.filter({ hasText: "imported v1" })).toHaveCount(1);

  // The validity table's numbers are exactly as they were before the runs.
  const reportAfter = await (await page.request.get(`/api/v1/datasets/${dataset}/report`)).json();
  expect(reportAfter).toEqual(reportBefore);
});
