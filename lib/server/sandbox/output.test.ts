import { describe, expect, it } from "vitest";

import { cutMarker, HeadTailBuffer, keepHeadAndTail } from "./output";

describe("keepHeadAndTail", () => {
  it("leaves a text that fits alone", () => {
    expect(keepHeadAndTail("abcdef", 3, 3)).toEqual({ text: "abcdef", isCut: false });
  });

  it("keeps the head and the tail and says how many bytes were cut", () => {
    expect(keepHeadAndTail("abcdefghij", 3, 2)).toEqual({ text: `abc${cutMarker(5)}ij`, isCut: true });
  });

  it("never splits a character", () => {
    // "é" is two bytes and "€" three: a byte cut would land inside them.
    const { text } = keepHeadAndTail("aé€bcdefg€é", 2, 3);
    expect(text).toBe(`a${cutMarker(Buffer.byteLength("é€bcdefg€"))}é`);
    expect(text).not.toContain("\uFFFD");
  });
});

describe("HeadTailBuffer", () => {
  it("keeps the first and last bytes of a stream and flags the rest as truncated", () => {
    const buffer = new HeadTailBuffer(3, 2);
    for (const chunk of ["ab", "cdef", "g", "hij"]) buffer.push(Buffer.from(chunk));
    expect(buffer.isTruncated).toBe(true);
    expect(buffer.text()).toBe(`abc${cutMarker(5)}ij`);
  });

  it("is not truncated at exactly the cap", () => {
    const buffer = new HeadTailBuffer(3, 2);
    buffer.push(Buffer.from("abcde"));
    expect(buffer.isTruncated).toBe(false);
    expect(buffer.text()).toBe("abcde");
  });

  it("holds no more than the cap however much comes in", () => {
    const buffer = new HeadTailBuffer(4, 4);
    for (let index = 0; index < 10_000; index++) buffer.push(Buffer.from(`line ${index}\n`));
    const text = buffer.text();
    expect(text.startsWith("line")).toBe(true);
    expect(text.endsWith("999\n")).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(8 + Buffer.byteLength(cutMarker(1_000_000)));
  });
});
