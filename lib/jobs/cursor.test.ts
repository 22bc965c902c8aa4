import { describe, expect, it } from "vitest";

import { decodeJobCursor, encodeJobCursor, isBefore } from "./cursor";

describe("the jobs cursor", () => {
  it("round-trips a job's place in the list", () => {
    const place = { createdAt: new Date("2026-12-07T02:00:00.123Z"), kind: "critic" as const, id: "cmabc_12-x" };
    expect(decodeJobCursor(encodeJobCursor(place))).toEqual(place);
  });

  it("refuses what it did not hand out", () => {
    for (const bad of [
      "",
      "abc",
      "12.nokind.x",
      "12.critic.",
      "12.critic.a b",
      "x.critic.a",
      `1.critic.${"a".repeat(65)}`,
    ])
      expect(decodeJobCursor(bad), bad).toBeNull();
  });

  it("orders newest first, then kind and id descending at the same instant", () => {
    const at = new Date("2026-12-07T02:00:00Z");
    const later = new Date("2026-12-07T02:00:01Z");
    expect(
      isBefore({ createdAt: later, kind: "import", id: "a" }, { createdAt: at, kind: "verification", id: "z" }),
    ).toBe(true);
    expect(isBefore({ createdAt: at, kind: "verification", id: "a" }, { createdAt: at, kind: "critic", id: "z" })).toBe(
      true,
    );
    expect(isBefore({ createdAt: at, kind: "critic", id: "b" }, { createdAt: at, kind: "critic", id: "a" })).toBe(true);
    expect(isBefore({ createdAt: at, kind: "critic", id: "a" }, { createdAt: at, kind: "critic", id: "a" })).toBe(
      false,
    );
  });
});
