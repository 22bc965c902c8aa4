import "server-only";

import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";

import { prisma } from "@/lib/server/db/client";
import { executionHiddenRecordIds } from "@/lib/server/auth/visibility";

const runViewSelect = {
  id: true,
  kind: true,
  outcome: true,
  exitCode: true,
  signal: true,
  timeMs: true,
  stdout: true,
  stderr: true,
  compileOutput: true,
  limit: true,
  stdoutTruncated: true,
  stderrTruncated: true,
  program: true,
  backend: true,
} as const;

/**
 * The newest run of the canonical solution against each of a record's tests (demo, full), by
 * anyone or by batch verification, for the workspace's "latest run". Scratch runs are left out:
 * they ran someone's edited code. While a campaign showing "nothing" hides the record's execution
 * from the actor (visibility.ts), only the actor's own runs count. Scope: records:read.
 */
export async function listLatestCanonicalRuns({ actor, recordId }: { actor: Actor; recordId: number }) {
  assertCan(actor, "records:read");
  const isHidden = (await executionHiddenRecordIds({ actor, recordIds: [recordId] })).has(recordId);
  const latest = await Promise.all(
    (["DEMO", "FULL"] as const).map((kind) =>
      prisma().runResult.findFirst({
        where: { recordId, kind, ...(isHidden ? { userId: actor.id } : {}) },
        orderBy: { createdAt: "desc" },
        select: runViewSelect,
      }),
    ),
  );
  return latest.filter((run) => run !== null);
}
