import { describe, expect, it } from "vitest";

import { CappedBuffer } from "./run-step";

describe("CappedBuffer", () => {
  it("keeps the first bytes up to the cap and flags the rest as truncated", () => {
    const buffer = new CappedBuffer(5);
    buffer.push(Buffer.from("abc"));
    buffer.push(Buffer.from("defgh"));
    buffer.push(Buffer.from("ij"));
    expect(buffer.text()).toBe("abcde");
    expect(buffer.isTruncated).toBe(true);
  });

  it("is not truncated at exactly the cap", () => {
    const buffer = new CappedBuffer(3);
    buffer.push(Buffer.from("abc"));
    expect(buffer.isTruncated).toBe(false);
    expect(buffer.text()).toBe("abc");
  });
});
