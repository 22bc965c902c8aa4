import "server-only";

import { setTimeout as sleep } from "node:timers/promises";

import { prisma } from "./client";
import { databaseFailure } from "./failures";

// Batch work while PostgreSQL is away (restarting, failing over, a full disk): a job does not fail
// and wait out its expiry, nor crash the process; it waits for the database and carries on.

const POLL_MS = 1_000;

/** Whether an error means the database cannot be reached right now (not a bug, not bad input). */
export function isDatabaseAway(error: unknown): boolean {
  return databaseFailure(error)?.code === "UNAVAILABLE";
}

/**
 * Runs `work`; while it fails because the database is away, waits until the database answers and
 * runs it again, for at most `maxWaitMs` in all (then the last failure is thrown). `work` must be
 * safe to repeat, as every queued job's is. No permission check: the workers' own plumbing.
 */
export async function retryWhileDatabaseAway<T>(
  work: () => Promise<T>,
  { maxWaitMs }: { maxWaitMs: number },
): Promise<T> {
  const deadline = Date.now() + maxWaitMs;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseAway(error) || Date.now() >= deadline) throw error;
      console.error("job queue: the database is not reachable; the job waits for it and carries on");
      while (Date.now() < deadline) {
        await sleep(POLL_MS);
        const isBack = await prisma().$queryRaw`SELECT 1`.then(
          () => true,
          () => false,
        );
        if (isBack) break;
      }
    }
  }
}
