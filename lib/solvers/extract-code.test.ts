import { describe, expect, it } from "vitest";

import { extractCodeFromReply } from "./extract-code";

const ELIXIR_SOLUTION = "defmodule Adder do\n  def add(a, b), do: a + b\nend\n";

describe("extractCodeFromReply (AutoCodeBench's evaluation rule)", () => {
  it("takes the first fenced block with a language tag, trimmed", () => {
    const reply =
      "Here you go:\n\n```python\n\ndef f():\n    return 1\n\n```\n\nand a test:\n```python\nassert f() == 1\n```";
    expect(extractCodeFromReply(reply, "python", "")).toBe("def f():\n    return 1");
  });

  it("skips a block whose body is blank and takes the next one", () => {
    const reply = "```python\n   \n```\n```python\nx = 2\n```";
    expect(extractCodeFromReply(reply, "python", "")).toBe("x = 2");
  });

  it("does not count a fence without a word-character tag as a block; falls back to dropping the first line", () => {
    // "```\n" has no tag and "```c++" has a `+`, so neither is a block: the fallback strips the outer
    // fences and drops the first line, which here is the tag line itself.
    expect(extractCodeFromReply("```c++\nint f() { return 1; }\n```", "cpp", "")).toBe("int f() { return 1; }");
    expect(extractCodeFromReply("```\nprint(1)\nprint(2)\n```", "python", "")).toBe("print(2)");
  });

  it("falls back on a reply with no fence: the first line is dropped when there are several", () => {
    expect(extractCodeFromReply("I would use a map.\nThen sum it.", "python", "")).toBe("Then sum it.");
    expect(extractCodeFromReply("  x = 1  ", "python", "")).toBe("x = 1");
  });

  it("gives nothing for an empty reply", () => {
    expect(extractCodeFromReply("", "python", "")).toBe("");
  });

  it("Elixir: puts the reply's code in the canonical solution's module", () => {
    const own = "```elixir\ndefmodule Whatever do\n  def add(a, b), do: b + a\nend\n```";
    expect(extractCodeFromReply(own, "elixir", ELIXIR_SOLUTION)).toBe(
      "defmodule Adder do\n  def add(a, b), do: b + a\nend",
    );
    const bare = "```elixir\ndef add(a, b), do: a + b\n```";
    expect(extractCodeFromReply(bare, "elixir", ELIXIR_SOLUTION)).toBe(
      "defmodule Adder do\n  def add(a, b), do: a + b\nend",
    );
  });

  it("Elixir is decided by the block's tag when there is a block (as the reference does)", () => {
    const taggedOther = "```ex\ndef add(a, b), do: a + b\n```";
    expect(extractCodeFromReply(taggedOther, "elixir", ELIXIR_SOLUTION)).toBe("def add(a, b), do: a + b");
  });
});
