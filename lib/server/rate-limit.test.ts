import { describe, expect, it } from "vitest";

import { createRateLimiter } from "./rate-limit";

describe("createRateLimiter", () => {
  it("allows a burst up to capacity, then refuses with the wait", () => {
    const limiter = createRateLimiter({ capacity: 2, perMinute: 6 });
    limiter.take("ann", 0);
    limiter.take("ann", 0);
    expect(() => limiter.take("ann", 0)).toThrow(/try again in 10 s/);
  });

  it("refills over time and keeps keys apart", () => {
    const limiter = createRateLimiter({ capacity: 1, perMinute: 60 });
    limiter.take("ann", 0);
    limiter.take("bob", 0);
    expect(() => limiter.take("ann", 500)).toThrow();
    expect(() => limiter.take("ann", 1_600)).not.toThrow();
  });
});

describe("refund", () => {
  it("gives a request back, never beyond capacity", () => {
    const limiter = createRateLimiter({ capacity: 2, perMinute: 1 });
    limiter.take("ann", 0);
    limiter.take("ann", 0);
    limiter.refund("ann", 0);
    limiter.take("ann", 0);
    expect(() => limiter.take("ann", 0)).toThrow(/Too many attempts/);
    limiter.refund("bob", 0);
    limiter.take("bob", 0);
    limiter.take("bob", 0);
    expect(() => limiter.take("bob", 0)).toThrow();
  });
});

describe("reserve (slow-down)", () => {
  it("queues callers one slot apart once the burst is used, and refuses past the longest wait", () => {
    const limiter = createRateLimiter({ capacity: 2, perMinute: 10 });
    expect(limiter.reserve("ann", 12_000, 0)).toBe(0);
    expect(limiter.reserve("ann", 12_000, 0)).toBe(0);
    expect(limiter.reserve("ann", 12_000, 0)).toBe(6_000);
    expect(limiter.reserve("ann", 12_000, 0)).toBe(12_000);
    expect(() => limiter.reserve("ann", 12_000, 0)).toThrow(/try again in 6 s/);
    // Slots free up as time passes.
    expect(limiter.reserve("ann", 12_000, 6_000)).toBe(12_000);
  });
});
