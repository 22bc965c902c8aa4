import "server-only";

import { createReadStream, existsSync } from "node:fs";
import { join } from "node:path";

import { prisma } from "./client";
import { type ImportSummary, importRecords } from "./imports";

export const DEMO_DATASET = "demo";
const DEMO_FILE = join(process.cwd(), "prisma", "demo", "demo.jsonl");

/** Imports the demo dataset when the database holds no dataset yet (a fresh install); returns null otherwise. */
export async function loadDemoDatasetIfEmpty(): Promise<ImportSummary | null> {
  if (!existsSync(DEMO_FILE) || (await prisma().dataset.count()) > 0) return null;
  return importRecords({ actor: null, datasetName: DEMO_DATASET, source: createReadStream(DEMO_FILE), skipInvalid: false, origin: "demo", fileName: "demo.jsonl" });
}
