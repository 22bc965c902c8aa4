import { createHash } from "node:crypto";

import { describe, expect, it } from "vitest";

import { drawKey, goldTurnsAhead, isGoldTurn } from "./gold-draw";

const key = drawKey("server secret", "gold-turn", "campaign-1", "user-1");

/** The claims an annotator gets by the queue's rule: gold at a gold turn while sample items remain. */
function simulate(fromIndex: number, sampleLeft: number, goldLeft: number, share: number): ("gold" | "sample")[] {
  const served: ("gold" | "sample")[] = [];
  for (let index = fromIndex; sampleLeft > 0; index++) {
    if (isGoldTurn({ key, claimIndex: index, share }) && goldLeft > 0) {
      served.push("gold");
      goldLeft--;
    } else {
      served.push("sample");
      sampleLeft--;
    }
  }
  return served;
}

describe("isGoldTurn", () => {
  it("serves about the share over many claims, the same way every time, differently under another key", () => {
    const draws = (k: Buffer) =>
      Array.from({ length: 2000 }, (_, claimIndex) => isGoldTurn({ key: k, claimIndex, share: 0.2 }));
    const gold = draws(key).filter(Boolean).length;
    expect(gold / 2000).toBeGreaterThan(0.17);
    expect(gold / 2000).toBeLessThan(0.23);
    expect(draws(key)).toEqual(draws(key));
    expect(draws(drawKey("another secret", "gold-turn", "campaign-1", "user-1"))).not.toEqual(draws(key));
    expect(draws(drawKey("server secret", "gold-turn", "campaign-1", "user-2"))).not.toEqual(draws(key));
  });

  it("never serves gold at share 0", () => {
    expect(
      Array.from({ length: 500 }, (_, claimIndex) => isGoldTurn({ key, claimIndex, share: 0 })).some(Boolean),
    ).toBe(false);
  });

  it("cannot be told from what an annotator sees: the old seed formula predicts it no better than chance", () => {
    // The formula gold turns used to follow: sha256(seed:gold:userId:claimIndex) below the share.
    const oldFormula = (claimIndex: number) =>
      createHash("sha256").update(`seed:gold:user-1:${claimIndex}`).digest().readUInt32BE(0) / 2 ** 32 < 0.3;
    const agree = Array.from(
      { length: 4000 },
      (_, claimIndex) => oldFormula(claimIndex) === isGoldTurn({ key, claimIndex, share: 0.3 }),
    ).filter(Boolean).length;
    // Independent draws agree 0.3² + 0.7² = 58 % of the time.
    expect(agree / 4000).toBeGreaterThan(0.54);
    expect(agree / 4000).toBeLessThan(0.62);
  });
});

describe("goldTurnsAhead", () => {
  it("is exactly the gold items the queue will still serve, and every claim lowers sample + gold by one", () => {
    for (const share of [0.1, 0.3, 0.5])
      for (const [fromIndex, sampleLeft, goldLeft] of [
        [0, 20, 12],
        [3, 5, 40],
        [4095, 300, 7],
        [17, 1, 1],
        [0, 0, 5],
        [9, 6, 0],
      ]) {
        const served = simulate(fromIndex, sampleLeft, goldLeft, share);
        const ahead = goldTurnsAhead({ key, fromIndex, sampleLeft, goldLeft, share });
        expect(ahead, `${share} ${fromIndex} ${sampleLeft} ${goldLeft}`).toBe(
          served.filter((k) => k === "gold").length,
        );
        // After the first claim the forecast still adds up: one fewer to come, whichever kind it was.
        if (served.length > 0) {
          const wasGold = served[0] === "gold";
          const next = goldTurnsAhead({
            key,
            fromIndex: fromIndex + 1,
            sampleLeft: sampleLeft - (wasGold ? 0 : 1),
            goldLeft: goldLeft - (wasGold ? 1 : 0),
            share,
          });
          expect(sampleLeft - (wasGold ? 0 : 1) + next).toBe(sampleLeft + ahead - 1);
        }
      }
  });

  it("serves no gold once no sample item remains", () => {
    expect(goldTurnsAhead({ key, fromIndex: 0, sampleLeft: 0, goldLeft: 10, share: 0.5 })).toBe(0);
  });
});
