import { describe, expect, it } from "vitest";
import { recordKey } from "./hash";

const base = {
  language: "python" as const,
  question: "Write `add(a, b)`.",
  canonicalSolution: "def add(a, b):\n    return a + b\n",
  demoTestFunc: "assert add(1, 2) == 3",
  fullTestFunc: "assert add(-1, 1) == 0",
};

describe("recordKey", () => {
  it("is a sha256 hex digest", () => {
    expect(recordKey(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("is stable across calls and property order", () => {
    const reordered = {
      fullTestFunc: base.fullTestFunc,
      demoTestFunc: base.demoTestFunc,
      canonicalSolution: base.canonicalSolution,
      question: base.question,
      language: base.language,
    };
    expect(recordKey(reordered)).toBe(recordKey(base));
    // Pinned (computed independently in Python: sha256 of the compact JSON array): a change of
    // the encoding would silently re-key every imported dataset.
    expect(recordKey(base)).toBe("a1624cc05e6a88d4b84378acfaced9a166b35b0e69a2e81a1d4e51460aab427d");
  });

  it("changes when any of the five fields changes", () => {
    const key = recordKey(base);
    expect(recordKey({ ...base, language: "ruby" })).not.toBe(key);
    expect(recordKey({ ...base, question: base.question + " " })).not.toBe(key);
    expect(recordKey({ ...base, canonicalSolution: base.canonicalSolution.trimEnd() })).not.toBe(key);
    expect(recordKey({ ...base, demoTestFunc: "assert add(1, 2) == 4" })).not.toBe(key);
    expect(recordKey({ ...base, fullTestFunc: "" })).not.toBe(key);
  });

  it("keeps field boundaries unambiguous", () => {
    const a = recordKey({ ...base, demoTestFunc: "ab", fullTestFunc: "c" });
    const b = recordKey({ ...base, demoTestFunc: "a", fullTestFunc: "bc" });
    expect(a).not.toBe(b);
  });
});
