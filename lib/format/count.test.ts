import { describe, expect, it } from "vitest";

import { countOf } from "./count";

describe("countOf", () => {
  it("puts the noun in the number it takes", () => {
    expect(countOf(1, "record")).toBe("1 record");
    expect(countOf(0, "record")).toBe("0 records");
    expect(countOf(12_345, "bad line")).toBe("12,345 bad lines");
    expect(countOf(2, "repair", "repairs")).toBe("2 repairs");
  });
});
