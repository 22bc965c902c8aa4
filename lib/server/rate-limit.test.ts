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

describe("check and spend", () => {
  it("counts only what is spent", () => {
    const limiter = createRateLimiter({ capacity: 2, perMinute: 1 });
    for (let i = 0; i < 5; i++) limiter.check("ann", 0);
    limiter.spend("ann", 0);
    limiter.spend("ann", 0);
    expect(() => limiter.check("ann", 0)).toThrow(/Too many attempts/);
  });
});
