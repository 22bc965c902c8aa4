import { describe, expect, it } from "vitest";

import { type DiffEntry, diffReleases } from "./diff";

const entry = (recordId: number, revision: number, included = true): DiffEntry => ({
  recordId,
  key: `k${recordId}`,
  line: recordId,
  language: "python",
  revision,
  included,
});

describe("diffReleases", () => {
  it("lists records added, removed and revised, in record order", () => {
    const a = [entry(1, 1), entry(2, 1), entry(3, 1), entry(4, 1, false), entry(5, 2)];
    const b = [entry(5, 3), entry(1, 1), entry(3, 1, false), entry(4, 1), entry(6, 1), entry(2, 2)];
    const diff = diffReleases(a, b);
    expect(diff.added.map((record) => record.key)).toEqual(["k4", "k6"]);
    expect(diff.removed.map((record) => record.key)).toEqual(["k3"]);
    expect(diff.revised).toEqual([
      { key: "k2", line: 2, language: "python", revision: 2, fromRevision: 1 },
      { key: "k5", line: 5, language: "python", revision: 3, fromRevision: 2 },
    ]);
  });

  it("finds nothing between a release and itself", () => {
    const a = [entry(1, 1), entry(2, 3), entry(3, 1, false)];
    expect(diffReleases(a, a)).toEqual({ added: [], removed: [], revised: [] });
  });
});
