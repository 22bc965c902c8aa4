// What a verification run keeps for inspection: a client-safe shape, no server code.
import type { RunKind } from "@/lib/generated/prisma/enums";

/** What a verification run keeps for inspection (record page, batch page, export). */
export type VerificationRun = {
  id: string;
  recordId: number;
  kind: RunKind;
  batchId: string;
  backend: string;
  outcome: string;
  exitCode: number | null;
  signal: string | null;
  timeMs: number;
  compileMs: number | null;
  runMs: number | null;
  toolchain: string | null;
  limit: string | null;
  stdout: string;
  stderr: string;
  compileOutput: string | null;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  program: string;
  /** How long it waited for a sandbox slot and the machine's 1-minute load when it ended (null: not recorded). */
  waitMs: number | null;
  loadAverage: number | null;
  /** Why the outcome is not the program's own verdict (INCONCLUSIVE); null otherwise. */
  verdictNote: string | null;
  /** What the run failed for want of (lib/runs/environment-failure.ts); null when it did not. */
  environmentKind: string | null;
  environmentMissing: string | null;
  /** The dataset environment version it had mounted (null: none). */
  environmentVersion: number | null;
  createdAt: Date;
};
