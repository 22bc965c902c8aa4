import { expect, type Page } from "@playwright/test";

/** Imports records into a new dataset through the Import page, as an admin does, and waits for the answer. */
export async function importThroughPage(page: Page, dataset: string, records: readonly object[]): Promise<void> {
  await page.getByRole("link", { name: "Import", exact: true }).click();
  await page.getByLabel("File").setInputFiles({
    name: `${dataset}.jsonl`,
    mimeType: "application/json",
    buffer: Buffer.from(records.map((record) => JSON.stringify(record)).join("\n")),
  });
  await page.getByLabel("Dataset").fill(dataset);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toContainText(
    `Imported ${records.length} record${records.length === 1 ? "" : "s"}`,
  );
}
