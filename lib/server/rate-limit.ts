import "server-only";

import { AppError } from "@/lib/server/errors";

type Bucket = { tokens: number; updatedAt: number };

/**
 * A per-key token bucket held in this process's memory: `capacity` requests at once, refilled at
 * `perMinute`. Several app instances each keep their own buckets (see docs/deploy.md).
 */
export function createRateLimiter({ capacity, perMinute }: { capacity: number; perMinute: number }) {
  const buckets = new Map<string, Bucket>();
  const refill = (key: string, now: number): Bucket => {
    const bucket = buckets.get(key) ?? { tokens: capacity, updatedAt: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.updatedAt) / 60_000) * perMinute);
    bucket.updatedAt = now;
    buckets.set(key, bucket);
    return bucket;
  };
  const check = (key: string, now: number): Bucket => {
    const bucket = refill(key, now);
    if (bucket.tokens < 1) {
      const waitSeconds = Math.ceil(((1 - bucket.tokens) / perMinute) * 60);
      throw new AppError("RATE_LIMITED", `Too many attempts; try again in ${waitSeconds} s.`);
    }
    return bucket;
  };
  return {
    /** Takes one request for `key` or throws RATE_LIMITED with the wait in the message. */
    take(key: string, now = Date.now()): void {
      check(key, now).tokens -= 1;
    },
    /** Throws RATE_LIMITED when `key` has no request left, without using one (pair with `spend`). */
    check(key: string, now = Date.now()): void {
      check(key, now);
    },
    /** Uses one request for `key`, e.g. only after a failed sign-in. */
    spend(key: string, now = Date.now()): void {
      refill(key, now).tokens -= 1;
    },
  };
}
