import { gunzipSync } from "node:zlib";

import { type Browser, expect, type Page, test } from "@playwright/test";

import { invite, SAME_ORIGIN, signIn, signInAsAdmin } from "./people";

// Repair instead of discard: an annotator finds `fact(5) == 121` in the workspace, repairs it to
// 120 in the revision editor, runs it and submits it with a reason and a category; a second
// annotator checks the revised record in the repairs queue without seeing the reason or its author;
// the admin cuts a release on the dataset page, and the downloaded archive holds the record at
// revision 2 with a card that says one record is repaired. One test, its own dataset and people,
// so it runs alone or after any other spec.

const run = Date.now().toString(36);
const dataset = `e2e-repair-${run}`;
const campaignName = `Repair ${run}`;
const fixer = { email: `fixer-${run}@example.test`, password: "annotator-password-8", name: `Fay ${run}` };
const checker = { email: `checker-${run}@example.test`, password: "annotator-password-9", name: `Cole ${run}` };
const reason = `The statement says factorial; 5! is 120, not 121 (${run}).`;

// The flaw the issue names: the solution is right, the full test expects 5! to be 121.
const flawed = {
  question: `# Factorial ${run}\n\nWrite \`fact(n)\` in Python returning n! (with 0! = 1).`,
  canonical_solution: "def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\n",
  demo_test_func: "assert fact(3) == 6\n",
  full_test_func: "assert fact(0) == 1\nassert fact(5) == 121\n",
  language: "python",
  difficulty: "easy",
};

/** A fresh browser signed in as `user`. */
async function pageOf(browser: Browser, user: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, user);
  return page;
}

/** The files of a .tar.gz, by name (ustar: 512-byte headers, the size in octal at 124). */
function untar(archive: Buffer): Map<string, string> {
  const tar = gunzipSync(archive);
  const files = new Map<string, string>();
  for (let offset = 0; offset + 512 <= tar.length;) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const name = header.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
    const size = parseInt(header.subarray(124, 136).toString("utf8").replace(/\0.*$/s, "").trim() || "0", 8);
    files.set(name, tar.subarray(offset + 512, offset + 512 + size).toString("utf8"));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

test("fix 121 → 120 in the workspace, a second annotator accepts it blind, and the release carries the repair", async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  await signInAsAdmin(page);
  const imported = await page.request.post(`/api/v1/datasets/${dataset}/records`, {
    data: `${JSON.stringify(flawed)}\n`,
    headers: { ...SAME_ORIGIN, "content-type": "application/x-ndjson" },
  });
  expect(imported.status()).toBe(201);
  const created = await page.request.post("/api/v1/campaigns", {
    data: { dataset, name: campaignName, languages: ["python"], seed: "repair" },
    headers: SAME_ORIGIN,
  });
  expect(created.status()).toBe(201);
  const campaignId = ((await created.json()) as { id: string }).id;
  await invite(page, browser, fixer, "ANNOTATOR");
  await invite(page, browser, checker, "ANNOTATOR");

  // The fixer opens the item in the workspace and repairs the full test in the diff editor.
  const fix = await pageOf(browser, fixer);
  await fix.goto(`/campaigns/${campaignId}/next`);
  await expect(fix).toHaveURL(/\/items\/itm_/);
  await expect(fix.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
  const repair = fix.getByRole("region", { name: "Repair this record" });
  await repair.getByRole("button", { name: "Propose a revision" }).click();
  await expect(repair.getByRole("tab", { name: "Full test" })).toHaveAttribute("aria-selected", "true");
  // The edited side; a narrow pane shows the diff inline, with the old lines in a view zone of their own.
  const edited = repair.getByTestId("diff-revise-full-test").locator(".editor.modified .view-lines:not(.line-delete)");
  await expect(edited).toContainText("fact(5) == 121");
  await edited.click();
  // To the end of "121" on the second line, then one character changed.
  await fix.keyboard.press("ControlOrMeta+End");
  await fix.keyboard.press("ArrowUp");
  await fix.keyboard.press("End");
  await fix.keyboard.press("Backspace");
  await fix.keyboard.type("0");
  await expect(edited).toContainText("fact(5) == 120");
  await expect(repair.getByRole("tab", { name: "Full test •" })).toBeVisible();

  // Run as a scratch run: the revised solution against the revised demo and full tests.
  await repair.getByRole("button", { name: "Run revised tests" }).click();
  const demoRun = repair.getByTestId("run-result").filter({ hasText: "Revised demo test" });
  const fullRun = repair.getByTestId("run-result").filter({ hasText: "Revised full test" });
  await expect(demoRun).toContainText("PASSED", { timeout: 90_000 });
  await expect(fullRun).toContainText("PASSED", { timeout: 90_000 });

  await repair.getByLabel("Reason").fill(reason);
  await repair.getByRole("checkbox", { name: "Wrong expected output" }).check();
  await repair.getByRole("button", { name: "Submit revision" }).click();
  await expect(repair.getByRole("status")).toContainText("Revision 2 proposed (demo PASSED, full PASSED)", {
    timeout: 90_000,
  });
  await expect(repair.getByRole("status")).toContainText("waits in the repairs queue");
  // The fixer's own repair is not theirs to check.
  await fix.goto("/repairs");
  await expect(fix.getByRole("link", { name: `Check Factorial ${run}` })).toHaveCount(0);

  // The checker labels the revised record from the repairs queue, blind to the reason and the author.
  const check = await pageOf(browser, checker);
  await check.goto("/repairs");
  await check.getByRole("link", { name: `Check Factorial ${run}` }).click();
  await expect(check).toHaveURL(/\/repairs\/[^/]+$/);
  await expect(check.getByRole("heading", { name: /Check record \d+, revision 2/ })).toBeVisible();
  await expect(check.getByTestId("revision-evidence")).toHaveText("Demo test: PASSED · Full test: PASSED");
  await expect(check.getByTestId("code-full-test").locator(".view-lines")).toContainText("fact(5) == 120");
  const shown = await check.locator("body").innerText();
  expect(shown).not.toContain(reason);
  expect(shown).not.toContain(fixer.name);
  expect(shown).not.toContain(fixer.email);
  const form = check.getByRole("form", { name: "Check the revision" });
  await form.getByRole("radio", { name: "Valid", exact: true }).check();
  await form.getByRole("button", { name: "Submit check" }).click();
  await expect(check.getByRole("status")).toContainText("Revision accepted: the record now holds it");

  // The admin cuts a release on the dataset page; the same name again is refused.
  await page.goto(`/datasets/${dataset}`);
  const cut = page.getByRole("form", { name: "Cut a release" });
  await cut.getByLabel("Release name").fill("v1");
  await cut.getByRole("button", { name: "Cut a release" }).click();
  await expect(cut.getByRole("status")).toHaveText("Release v1 cut: 1 record in (1 at a repaired revision), 0 out.");
  const listed = page.getByRole("table", { name: "Releases" });
  await expect(listed.getByRole("row", { name: /v1/ })).toBeVisible();
  await cut.getByLabel("Release name").fill("v1");
  await cut.getByRole("button", { name: "Cut a release" }).click();
  await expect(cut).toContainText('This dataset has a release named "v1" already');

  // The archive the page links to holds the record at revision 2, and its card says so.
  const href = await listed.getByRole("link", { name: "v1.tar.gz" }).getAttribute("href");
  const download = await page.request.get(href!);
  expect(download.status()).toBe(200);
  const files = untar(await download.body());
  const top = `${dataset}-v1`;
  expect([...files.keys()].sort()).toEqual(
    [`${top}/`, `${top}/README.md`, `${top}/data.jsonl`, `${top}/excluded.jsonl`, `${top}/manifest.json`].sort(),
  );
  const lines = files.get(`${top}/data.jsonl`)!.trim().split("\n");
  expect(lines).toHaveLength(1);
  const record = JSON.parse(lines[0]) as {
    full_test_func: string;
    verification: { revision: number; revised: boolean };
  };
  expect(record.full_test_func).toBe("assert fact(0) == 1\nassert fact(5) == 120\n");
  expect(record.verification).toMatchObject({ revision: 2, revised: true });
  const card = files.get(`${top}/README.md`)!;
  expect(card).toContain("| All | 1 | 1 | 0 |");
  expect(card).toContain("1 record is included at a revision after its import");
  expect(card).toContain("1 revision accepted, 0 rejected, 0 waiting");
});
