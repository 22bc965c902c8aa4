// Rate limits live in PostgreSQL: the same semantics as a token bucket in memory, and one budget for
// every app instance (two limiters on two separate connection pools stand in for two instances).
import { afterAll, describe, expect, it } from "vitest";

import { uniqueName } from "@/lib/testing/factories";
import { anotherInstance } from "@/lib/testing/another-instance";
import { prisma } from "@/lib/server/db/client";
import { pruneRateBuckets } from "@/lib/server/rate-limits/buckets";

import { createRateLimiter, takeAll } from "@/lib/server/rate-limits/rate-limit";

// A fixed clock far in the future: a bucket is pruned once its refill time has passed on the real
// clock, which a take anywhere may trigger (1 in 200), and a past clock let that empty a bucket mid-test.
const at = (ms: number) => new Date(Date.UTC(2100, 0, 1) + ms);

describe("createRateLimiter", () => {
  it("allows a burst up to capacity, then refuses with the wait", async () => {
    const limiter = createRateLimiter({ name: uniqueName("limit"), capacity: 2, perMinute: 6 });
    await limiter.take("ann", at(0));
    await limiter.take("ann", at(0));
    await expect(limiter.take("ann", at(0))).rejects.toThrow(/try again in 10 s/);
  });

  it("refills over time and keeps keys apart", async () => {
    const limiter = createRateLimiter({ name: uniqueName("limit"), capacity: 1, perMinute: 60 });
    await limiter.take("ann", at(0));
    await limiter.take("bob", at(0));
    await expect(limiter.take("ann", at(500))).rejects.toThrow();
    await expect(limiter.take("ann", at(1_600))).resolves.toBeUndefined();
  });
});

describe("refund", () => {
  it("gives a request back, never beyond capacity", async () => {
    const limiter = createRateLimiter({ name: uniqueName("limit"), capacity: 2, perMinute: 1 });
    await limiter.take("ann", at(0));
    await limiter.take("ann", at(0));
    await limiter.refund("ann", at(0));
    await limiter.take("ann", at(0));
    await expect(limiter.take("ann", at(0))).rejects.toThrow(/Too many attempts/);
    await limiter.refund("bob", at(0));
    await limiter.take("bob", at(0));
    await limiter.take("bob", at(0));
    await expect(limiter.take("bob", at(0))).rejects.toThrow();
  });
});

describe("reserve (slow-down)", () => {
  it("queues callers one slot apart once the burst is used, and refuses past the longest wait", async () => {
    const limiter = createRateLimiter({ name: uniqueName("limit"), capacity: 2, perMinute: 10 });
    expect(await limiter.reserve("ann", 12_000, at(0))).toBe(0);
    expect(await limiter.reserve("ann", 12_000, at(0))).toBe(0);
    expect(await limiter.reserve("ann", 12_000, at(0))).toBeCloseTo(6_000);
    expect(await limiter.reserve("ann", 12_000, at(0))).toBeCloseTo(12_000);
    await expect(limiter.reserve("ann", 12_000, at(0))).rejects.toThrow(/try again in 6 s/);
    // Slots free up as time passes.
    expect(await limiter.reserve("ann", 12_000, at(6_000))).toBeCloseTo(12_000);
  });
});

describe("takeAll", () => {
  it("takes from every budget or from none", async () => {
    const wide = createRateLimiter({ name: uniqueName("wide"), capacity: 5, perMinute: 1 });
    const narrow = createRateLimiter({ name: uniqueName("narrow"), capacity: 1, perMinute: 1 });
    await takeAll([wide.budget("k"), narrow.budget("k")], at(0));
    await expect(takeAll([wide.budget("k"), narrow.budget("k")], at(0))).rejects.toThrow(/Too many attempts/);
    // The refused attempt took nothing from the wide budget: four are left.
    for (let i = 0; i < 4; i++) await wide.take("k", at(0));
    await expect(wide.take("k", at(0))).rejects.toThrow();
  });
});

describe("across app instances", () => {
  // A second client with its own connection pool: what another app instance holds.
  const other = anotherInstance();
  afterAll(() => other.close());

  it("shares one budget between two instances taking at the same moment", async () => {
    const name = uniqueName("shared");
    const capacity = 10;
    // Instance A goes through the limiter; instance B calls the same SQL on its own pool.
    const limiter = createRateLimiter({ name, capacity, perMinute: 1 });
    const onA = () =>
      limiter.take("ann").then(
        () => true,
        () => false,
      );
    const onB = () => other.take([limiter.budget("ann")]);
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? onA() : onB())));
    expect(outcomes.filter(Boolean)).toHaveLength(capacity);
  });

  it("forgets buckets that have refilled completely", async () => {
    const limiter = createRateLimiter({ name: uniqueName("idle"), capacity: 2, perMinute: 60 });
    await limiter.take("ann", new Date(Date.now() - 60_000));
    await limiter.take("bob");
    await pruneRateBuckets();
    const keys = (
      await prisma().rateBucket.findMany({
        where: { key: { startsWith: limiter.budget("").key } },
        select: { key: true },
      })
    ).map((row) => row.key);
    expect(keys).toEqual([limiter.budget("bob").key]);
  });
});
