import "server-only";

import { prisma } from "@/lib/server/db/client";

/** One token bucket: `capacity` requests at once, refilled at `perMinute`. */
export type RateBudget = { key: string; capacity: number; perMinute: number };

/** A request for one token of a bucket, waiting at most `maxWaitMs` for it (0: now or never). */
export type RateTake = RateBudget & { maxWaitMs: number };

export type RateTakeResult = { isTaken: true; waitMs: number } | { isTaken: false; refused: number; waitMs: number };

// Idle buckets that refilled completely hold no state; about one take in this many deletes them.
const PRUNE_ONE_IN = 200;

/**
 * Takes one token from every bucket, all or none, in one round trip shared by every app instance
 * (the SQL function verity_take_rate_budgets). Taken: how long the caller must wait for its slot
 * (0 when free now). Refused: the index of the first bucket that refused and how many ms until it
 * would admit. `at` replaces the database clock (tests only). No permission check: callers are the
 * limits themselves.
 */
export async function takeRateBudgets(takes: readonly RateTake[], at: Date | null = null): Promise<RateTakeResult> {
  const [row] = await prisma().$queryRaw<{ refused: number; wait_ms: number }[]>`
    SELECT refused, wait_ms FROM verity_take_rate_budgets(
      ${takes.map((take) => take.key)}::text[], ${takes.map((take) => take.capacity)}::float8[],
      ${takes.map((take) => take.perMinute)}::float8[], ${takes.map((take) => take.maxWaitMs)}::float8[], ${at}::timestamptz)`;
  if (Math.random() * PRUNE_ONE_IN < 1)
    void pruneRateBuckets().catch((error: unknown) =>
      console.error("rate limits: pruning idle buckets failed:", error),
    );
  return row.refused === 0
    ? { isTaken: true, waitMs: row.wait_ms }
    : { isTaken: false, refused: row.refused - 1, waitMs: row.wait_ms };
}

/** Gives one token back to each bucket (never beyond its capacity), e.g. after a successful sign-in. */
export async function refundRateBudgets(budgets: readonly RateBudget[], at: Date | null = null): Promise<void> {
  // Computed from the row being updated (its latest version, locked), not from a snapshot read
  // before: a take that commits meanwhile is not lost.
  await prisma().$executeRaw`
    UPDATE "RateBucket" b
       SET tokens = LEAST(r.capacity, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM r.at - b."updatedAt")) / 60 * r.per_minute + 1),
           "updatedAt" = r.at,
           "fullAt" = r.at + make_interval(secs => (r.capacity - LEAST(r.capacity, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM r.at - b."updatedAt")) / 60 * r.per_minute + 1)) / r.per_minute * 60)
      FROM (
        SELECT key, capacity, per_minute, COALESCE(${at}::timestamptz, clock_timestamp()) AS at
        FROM unnest(${budgets.map((budget) => budget.key)}::text[], ${budgets.map((budget) => budget.capacity)}::float8[], ${budgets.map((budget) => budget.perMinute)}::float8[]) AS u(key, capacity, per_minute)
      ) r
     WHERE b.key = r.key`;
}

/** Deletes buckets that have refilled completely (they hold no state); returns how many. */
export async function pruneRateBuckets(): Promise<number> {
  return prisma().$executeRaw`DELETE FROM "RateBucket" WHERE "fullAt" <= clock_timestamp()`;
}
