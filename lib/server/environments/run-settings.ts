import "server-only";

import { type HarnessProfile, profileFor } from "@/lib/records/harness";
import { prisma } from "@/lib/server/db/client";
import type { RunEnvironment } from "@/lib/server/sandbox/environment";

import { runEnvironmentOf } from "./environments";

/**
 * What a dataset chose for how its records run: the harness profile of the record's language and the
 * environment version its runs mount. Every kind of run (live, verification, flaky reruns, mutants,
 * solver runs, a repair's evidence) takes these, so a record runs the same way wherever it runs.
 */
export type RunSettings = { profile: HarnessProfile | null; environment: RunEnvironment | null };

/** A dataset's run settings for one language. No permission check: callers run records they may run. */
async function runSettingsOf(datasetId: string, language: string): Promise<RunSettings> {
  const dataset = await prisma().dataset.findUnique({ where: { id: datasetId }, select: { harness: true } });
  return { profile: profileFor(dataset?.harness, language), environment: await runEnvironmentOf(datasetId) };
}

/** The same, for a record by id (null settings when it is gone). */
export async function runSettingsOfRecord(recordId: number): Promise<RunSettings> {
  const record = await prisma().record.findUnique({
    where: { id: recordId },
    select: { datasetId: true, language: true },
  });
  return record ? runSettingsOf(record.datasetId, record.language) : { profile: null, environment: null };
}
