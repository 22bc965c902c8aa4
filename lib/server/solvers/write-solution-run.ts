import "server-only";

import { executableValidity, summarizeOutcome, UNAVAILABLE } from "@/lib/records/verification";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor, SystemActor } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { countFinishedItem } from "@/lib/server/jobs/batch-progress";
import { escapeNul } from "@/lib/server/runs/runs";
import type { Verdict } from "@/lib/server/verification/batches";

const DETAIL_CHARACTERS = 4096;

function failureDetail(verdict: Extract<Verdict, { kind: "ran" }>): string | null {
  const failing =
    verdict.demo.outcome !== "PASSED" ? verdict.demo : verdict.full.outcome !== "PASSED" ? verdict.full : null;
  if (!failing) return null;
  return escapeNul(
    [failing.compileOutput, failing.stderr, failing.stdout].filter(Boolean).join("\n").slice(0, DETAIL_CHARACTERS),
  );
}

/**
 * Stores how one solution ran and moves its batch's counters, in one transaction; a second delivery
 * (or a solution replaced meanwhile) writes nothing. Scope: datasets:verify.
 */
export async function writeSolutionRun({
  actor,
  batchId,
  solutionId,
  verdict,
}: {
  actor: Actor | SystemActor;
  batchId: string;
  solutionId: string;
  verdict: Verdict;
}): Promise<void> {
  assertCan(actor, "datasets:verify");
  // Null when a time-out could not be told from a busy machine: the model neither solved nor failed it.
  const isPassed = verdict.kind === "ran" ? executableValidity(verdict.demo.outcome, verdict.full.outcome) : null;
  const counter =
    verdict.kind === "ran"
      ? isPassed === null
        ? "inconclusive"
        : isPassed
          ? "passed"
          : "failed"
      : verdict.kind === "unavailable"
        ? "unavailable"
        : "errored";
  await prisma().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "SolutionBatch" WHERE id = ${batchId} FOR UPDATE`;
    const data =
      verdict.kind === "ran"
        ? {
            outcome: summarizeOutcome(verdict.demo.outcome, verdict.full.outcome),
            demoOutcome: verdict.demo.outcome,
            fullOutcome: verdict.full.outcome,
            passed: isPassed,
            detail: failureDetail(verdict),
            timeMs: Math.round(verdict.demo.timeMs + verdict.full.timeMs),
          }
        : {
            outcome: verdict.kind === "unavailable" ? UNAVAILABLE : "INTERNAL_ERROR",
            passed: null,
            detail: verdict.kind === "unavailable" ? null : verdict.reason,
          };
    // SQL rules run by this update (prisma/sql): triggers/Solution.Solution_note_changes_update.sql,
    // running functions/verity_note_record_changes.sql (CampaignChange).
    const updated = await tx.solution.updateMany({
      where: { id: solutionId, batchId, ranAt: null },
      data: { ...data, ranAt: new Date() },
    });
    if (updated.count === 0) return;
    // A sandbox error stops the batch instead of closing it.
    await countFinishedItem(tx.solutionBatch, {
      batchId,
      counters: [counter],
      canSucceed: verdict.kind !== "sandbox-error",
    });
    if (verdict.kind === "sandbox-error")
      await tx.solutionBatch.updateMany({
        where: { id: batchId, status: "RUNNING" },
        data: {
          status: "FAILED",
          finishedAt: new Date(),
          stopReason: `Stopped: the sandbox failed before a program started (${verdict.reason}). Fix the sandbox (npx verity sandbox doctor) and import again.`,
        },
      });
  });
}
