import "server-only";

import { refundRateBudgets, takeRateBudgets, type RateTake } from "@/lib/server/rate-limits/buckets";
import { AppError } from "@/lib/server/errors";

export type RateLimiter = {
  /** The bucket of `key` under this limiter's name, for `takeAll`. */
  budget(key: string, maxWaitMs?: number): RateTake;
  /** Takes one request for `key` or throws RATE_LIMITED with the wait in the message. */
  take(key: string, at?: Date): Promise<void>;
  /**
   * Takes the next free slot for `key` and returns how long to wait for it (0 when one is free
   * now): a slow-down in which simultaneous callers queue. Throws RATE_LIMITED when the wait
   * would exceed `maxWaitMs`.
   */
  reserve(key: string, maxWaitMs: number, at?: Date): Promise<number>;
  /** Gives one request back, e.g. after a successful sign-in. */
  refund(key: string, at?: Date): Promise<void>;
};

/**
 * A per-key token bucket kept in PostgreSQL, so every app instance draws on the same budget:
 * `capacity` requests at once, refilled at `perMinute`. `name` keeps the keys of different limits
 * apart. Requests are taken before the work they pay for, so simultaneous requests cannot all
 * pass one check. `at` replaces the database clock (tests only).
 */
export function createRateLimiter({
  name,
  capacity,
  perMinute,
}: {
  name: string;
  capacity: number;
  perMinute: number;
}): RateLimiter {
  const budget = (key: string, maxWaitMs = 0): RateTake => ({ key: `${name}:${key}`, capacity, perMinute, maxWaitMs });
  const reserve = async (key: string, maxWaitMs: number, at?: Date) => takeAll([budget(key, maxWaitMs)], at);
  return {
    budget,
    async take(key, at) {
      await reserve(key, 0, at);
    },
    reserve,
    refund: (key, at) => refundRateBudgets([budget(key)], at ?? null),
  };
}

/**
 * Takes one token from each budget, all or none, in one database round trip; returns the longest
 * wait (the slow-down) or throws RATE_LIMITED naming how long until the refusing budget admits.
 */
export async function takeAll(takes: readonly RateTake[], at?: Date): Promise<number> {
  const result = await takeRateBudgets(takes, at ?? null);
  if (result.isTaken) return result.waitMs;
  throw new AppError("RATE_LIMITED", `Too many attempts; try again in ${Math.ceil(result.waitMs / 1000)} s.`);
}

/** Gives one token back to each budget (never beyond its capacity). */
export async function refundAll(takes: readonly RateTake[], at?: Date): Promise<void> {
  await refundRateBudgets(takes, at ?? null);
}
