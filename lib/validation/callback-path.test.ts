import { describe, expect, it } from "vitest";

import { safeCallbackPath } from "./callback-path";

describe("safeCallbackPath", () => {
  it("keeps same-origin paths with their query and fragment", () => {
    expect(safeCallbackPath("/campaigns/3?tab=items#top")).toBe("/campaigns/3?tab=items#top");
    expect(safeCallbackPath("/records/7")).toBe("/records/7");
  });

  it("falls back to /datasets when there is nothing to follow", () => {
    expect(safeCallbackPath(undefined)).toBe("/datasets");
    expect(safeCallbackPath(null)).toBe("/datasets");
    expect(safeCallbackPath("")).toBe("/datasets");
  });

  it.each([
    "/.//evil.example",
    "/./..//evil.example/x",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/%2F/evil.example",
    "https://evil.example/",
    "http:evil.example",
    "javascript:alert(1)",
    "evil.example",
    "/\tevil",
    " /datasets",
  ])("refuses %j", (value) => {
    const path = safeCallbackPath(value);
    expect(path === "/datasets" || (path.startsWith("/") && !path.startsWith("//"))).toBe(true);
    expect(path).not.toContain("evil.example/");
    expect(new URL(path, "https://verity.example").origin).toBe("https://verity.example");
  });

  it("refuses the reported bypass outright", () => {
    expect(safeCallbackPath("/.//evil.example")).toBe("/datasets");
  });

  it("admits absolute URLs only on the app's own origin", () => {
    expect(safeCallbackPath("https://verity.example/campaigns/1", "https://verity.example")).toBe("/campaigns/1");
    expect(safeCallbackPath("https://verity.example.evil.example/x", "https://verity.example")).toBe("/datasets");
    expect(safeCallbackPath("https://verity.example//evil.example", "https://verity.example")).toBe("/datasets");
    expect(safeCallbackPath("https://verity.example/campaigns/1")).toBe("/datasets");
  });
});
