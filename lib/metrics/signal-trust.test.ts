import { describe, expect, it } from "vitest";

import { addSignalCounts, signalTrust } from "./signal-trust";

describe("signalTrust", () => {
  it("gives precision and recall for invalid with Wilson intervals, and κ, from the cells", () => {
    // 10 items: the signal flags 4 (3 invalid, 1 valid); people found 5 invalid (2 missed).
    const trust = signalTrust({ truePositives: 3, falsePositives: 1, falseNegatives: 2, trueNegatives: 4 });
    expect(trust).toMatchObject({ n: 10, flagged: 4, precision: 0.75, recall: 0.6 });
    // κ by hand: observed agreement 7/10; chance (4·5 + 6·5)/100 = 0.5; κ = (0.7 − 0.5)/(1 − 0.5) = 0.4.
    expect(trust.kappa).toBeCloseTo(0.4, 12);
    // Wilson 95% for 3/4: (0.3006, 0.9544); for 3/5: (0.2307, 0.8824).
    expect(trust.precisionInterval![0]).toBeCloseTo(0.3006, 3);
    expect(trust.precisionInterval![1]).toBeCloseTo(0.9544, 3);
    expect(trust.recallInterval![0]).toBeCloseTo(0.2307, 3);
    expect(trust.recallInterval![1]).toBeCloseTo(0.8824, 3);
  });

  it("leaves undefined figures null: a signal that never fires has no precision", () => {
    const trust = signalTrust({ truePositives: 0, falsePositives: 0, falseNegatives: 3, trueNegatives: 7 });
    expect(trust).toMatchObject({ precision: null, precisionInterval: null, recall: 0, flagged: 0 });
    expect(signalTrust({ truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 0 }).kappa).toBeNull();
  });

  it("adds rows cell by cell", () => {
    expect(
      addSignalCounts([
        { truePositives: 1, falsePositives: 2, falseNegatives: 3, trueNegatives: 4 },
        { truePositives: 10, falsePositives: 20, falseNegatives: 30, trueNegatives: 40 },
      ]),
    ).toEqual({ truePositives: 11, falsePositives: 22, falseNegatives: 33, trueNegatives: 44 });
  });
});
