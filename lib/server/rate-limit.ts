import "server-only";

import { AppError } from "@/lib/server/errors";

type Bucket = { tokens: number; updatedAt: number };

/**
 * A per-key token bucket held in this process's memory: `capacity` requests at once, refilled at
 * `perMinute`. Several app instances each keep their own buckets (see docs/deploy.md).
 */
export function createRateLimiter({ capacity, perMinute }: { capacity: number; perMinute: number }) {
  const buckets = new Map<string, Bucket>();
  return {
    /** Takes one request for `key` or throws RATE_LIMITED with the wait in the message. */
    take(key: string, now = Date.now()): void {
      const bucket = buckets.get(key) ?? { tokens: capacity, updatedAt: now };
      bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.updatedAt) / 60_000) * perMinute);
      bucket.updatedAt = now;
      if (bucket.tokens < 1) {
        const waitSeconds = Math.ceil(((1 - bucket.tokens) / perMinute) * 60);
        buckets.set(key, bucket);
        throw new AppError("RATE_LIMITED", `Too many runs; try again in ${waitSeconds} s.`);
      }
      bucket.tokens -= 1;
      buckets.set(key, bucket);
    },
  };
}
