import { describe, expect, it } from "vitest";

import { isGoldTurn } from "./gold-draw";

describe("isGoldTurn", () => {
  it("serves about the share over many claims, the same way every time", () => {
    const draws = (seed: string) =>
      Array.from({ length: 2000 }, (_, claimIndex) => isGoldTurn({ seed, userId: "u1", claimIndex, share: 0.2 }));
    const gold = draws("s").filter(Boolean).length;
    expect(gold / 2000).toBeGreaterThan(0.17);
    expect(gold / 2000).toBeLessThan(0.23);
    expect(draws("s")).toEqual(draws("s"));
    expect(draws("t")).not.toEqual(draws("s"));
  });

  it("never serves gold at share 0", () => {
    expect(
      Array.from({ length: 500 }, (_, claimIndex) =>
        isGoldTurn({ seed: "s", userId: "u1", claimIndex, share: 0 }),
      ).some(Boolean),
    ).toBe(false);
  });
});
