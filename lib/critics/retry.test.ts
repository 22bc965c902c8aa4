import { describe, expect, it } from "vitest";

import { backoffMs, isRetryableStatus, retryAfterMs } from "./retry";

describe("retries", () => {
  it("retries rate limits and server errors only", () => {
    expect([429, 500, 502, 503, 599].every(isRetryableStatus)).toBe(true);
    expect([200, 400, 401, 404, 422].some(isRetryableStatus)).toBe(false);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const date = "Wed, 21 Oct 2015 07:28:00 GMT";
    expect(retryAfterMs("2", 0)).toBe(2000);
    expect(retryAfterMs(" 0.5 ", 0)).toBe(500);
    expect(retryAfterMs(date, Date.parse(date) - 5000)).toBe(5000);
    expect(retryAfterMs(date, Date.parse(date) + 5000)).toBe(0);
    expect(retryAfterMs("soon", 0)).toBeNull();
    expect(retryAfterMs(null, 0)).toBeNull();
  });

  it("waits what the server asked (capped), else doubles from the base with jitter", () => {
    const policy = { baseMs: 1000, maxMs: 60_000 };
    expect(backoffMs({ attempt: 1, retryAfter: 3000, random: 0.9, ...policy })).toBe(3000);
    expect(backoffMs({ attempt: 1, retryAfter: 3_600_000, random: 0.9, ...policy })).toBe(60_000);
    // Attempt 3: ceiling 1000·2² = 4000, between half of it and all of it.
    expect(backoffMs({ attempt: 3, retryAfter: null, random: 0, ...policy })).toBe(2000);
    expect(backoffMs({ attempt: 3, retryAfter: null, random: 0.5, ...policy })).toBe(3000);
    expect(backoffMs({ attempt: 20, retryAfter: null, random: 0, ...policy })).toBe(30_000);
  });
});
