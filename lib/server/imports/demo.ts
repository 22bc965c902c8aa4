import "server-only";

import { createReadStream, existsSync } from "node:fs";
import { join } from "node:path";

import type { Actor, SystemActor } from "@/lib/server/auth/permissions";

import { prisma } from "@/lib/server/db/client";
import { type ImportSummary, importRecords } from "@/lib/server/imports/imports";

export const DEMO_DATASET = "demo";
const DEMO_FILE = join(process.cwd(), "prisma", "demo", "demo.jsonl");
/** Model outputs for the demo dataset (a few "models" per record, right and wrong), loaded with it. */
export const DEMO_SOLUTIONS_FILE = join(process.cwd(), "prisma", "demo", "solutions.jsonl");

/**
 * Imports the demo dataset when the database holds no dataset yet (a fresh install); returns null
 * otherwise. Scope: imports:write (start-up passes SYSTEM_ACTOR.startup).
 */
export async function loadDemoDatasetIfEmpty({ actor }: { actor: Actor | SystemActor }): Promise<ImportSummary | null> {
  if (!existsSync(DEMO_FILE) || (await prisma().dataset.count()) > 0) return null;
  return importRecords({
    actor,
    datasetName: DEMO_DATASET,
    source: createReadStream(DEMO_FILE),
    skipInvalid: false,
    origin: "demo",
    fileName: "demo.jsonl",
  });
}

/** Imports the demo dataset unless a dataset of that name exists (benchmarks); returns null when it does. Scope: imports:write. */
export async function loadDemoDatasetIfMissing({
  actor,
}: {
  actor: Actor | SystemActor;
}): Promise<ImportSummary | null> {
  if ((await prisma().dataset.count({ where: { name: DEMO_DATASET } })) > 0) return null;
  return importRecords({
    actor,
    datasetName: DEMO_DATASET,
    source: createReadStream(DEMO_FILE),
    skipInvalid: false,
    origin: "cli",
  });
}
