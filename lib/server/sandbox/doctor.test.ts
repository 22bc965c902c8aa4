import { describe, expect, it } from "vitest";

import { firstLine } from "./doctor";

describe("firstLine", () => {
  it("returns the first non-empty line, trimmed", () => {
    expect(firstLine("\n\n  javac 17.0.15 \nmore")).toBe("javac 17.0.15");
    expect(firstLine(" \n")).toBeNull();
  });
});
