import { describe, expect, it } from "vitest";

import { LANGUAGES } from "@/lib/records/languages";

import { JOB_EXPIRY_MARGIN_MS, longestLocalJobMs, verificationJobExpirySeconds } from "@/lib/server/workers/expiry";

describe("verification job expiry", () => {
  it("covers the slowest language's job: both tests time out and run again alone", () => {
    // Scala: 5 s + 25 s for its one step; each test once, then alone at 3 times the limit.
    expect(longestLocalJobMs("scala")).toBe(2 * 1 * 30_000 * 4);
    // C++ compiles, then runs: two steps of 5 s + 3 s.
    expect(longestLocalJobMs("cpp")).toBe(2 * 2 * 8_000 * 4);
    expect(verificationJobExpirySeconds() * 1000).toBeGreaterThanOrEqual(longestLocalJobMs("scala") + 60_000);
  });

  it("is the longest job of any language plus the margin", () => {
    const longest = Math.max(...LANGUAGES.map(longestLocalJobMs));
    expect(verificationJobExpirySeconds()).toBe(Math.ceil((longest + JOB_EXPIRY_MARGIN_MS) / 1000));
    expect(verificationJobExpirySeconds()).toBe(360);
  });
});
