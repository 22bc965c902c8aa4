import "server-only";

import { AppError } from "@/lib/server/errors";

type Bucket = { tokens: number; updatedAt: number };

/** Past this many keys, buckets that have refilled completely are forgotten (they hold no state). */
const MAX_IDLE_KEYS = 10_000;

/**
 * A per-key token bucket held in this process's memory: `capacity` requests at once, refilled at
 * `perMinute`. Several app instances each keep their own buckets (see docs/deploy.md). Requests are
 * taken before the work they pay for, so simultaneous requests cannot all pass one check.
 */
export function createRateLimiter({ capacity, perMinute }: { capacity: number; perMinute: number }) {
  const buckets = new Map<string, Bucket>();
  const level = (bucket: Bucket, now: number) => Math.min(capacity, bucket.tokens + ((now - bucket.updatedAt) / 60_000) * perMinute);
  const refill = (key: string, now: number): Bucket => {
    if (buckets.size > MAX_IDLE_KEYS) {
      for (const [other, bucket] of buckets) if (level(bucket, now) >= capacity) buckets.delete(other);
    }
    const bucket = buckets.get(key) ?? { tokens: capacity, updatedAt: now };
    bucket.tokens = level(bucket, now);
    bucket.updatedAt = now;
    buckets.set(key, bucket);
    return bucket;
  };
  const reserve = (key: string, maxWaitMs: number, now: number): number => {
    const bucket = refill(key, now);
    const waitMs = bucket.tokens >= 1 ? 0 : ((1 - bucket.tokens) / perMinute) * 60_000;
    if (waitMs > maxWaitMs) {
      const waitSeconds = Math.ceil((waitMs - maxWaitMs) / 1000);
      throw new AppError("RATE_LIMITED", `Too many attempts; try again in ${waitSeconds} s.`);
    }
    bucket.tokens -= 1;
    return waitMs;
  };
  return {
    /** Takes one request for `key` or throws RATE_LIMITED with the wait in the message. */
    take(key: string, now = Date.now()): void {
      reserve(key, 0, now);
    },
    /**
     * Takes the next free slot for `key` and returns how long to wait for it (0 when one is free
     * now): a slow-down in which simultaneous callers queue. Throws RATE_LIMITED when the wait
     * would exceed `maxWaitMs`.
     */
    reserve(key: string, maxWaitMs: number, now = Date.now()): number {
      return reserve(key, maxWaitMs, now);
    },
    /** Gives one request back, e.g. after a successful sign-in. */
    refund(key: string, now = Date.now()): void {
      const bucket = refill(key, now);
      bucket.tokens = Math.min(capacity, bucket.tokens + 1);
    },
  };
}
