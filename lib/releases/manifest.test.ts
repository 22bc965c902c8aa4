import { describe, expect, it } from "vitest";

import { releaseManifest } from "./manifest";

describe("releaseManifest", () => {
  it("lists files in path order whatever order they come in, with the release's one timestamp", () => {
    const files = [
      { path: "excluded.jsonl", bytes: 2, sha256: "b".repeat(64) },
      { path: "README.md", bytes: 1, sha256: "a".repeat(64) },
      { path: "data.jsonl", bytes: 3, sha256: "c".repeat(64) },
    ];
    const text = releaseManifest({ dataset: "d", name: "v1", createdAt: "2026-12-01T00:00:00.000Z", files });
    const parsed = JSON.parse(text) as { files: { path: string }[]; created_at: string };
    expect(parsed.files.map((file) => file.path)).toEqual(["README.md", "data.jsonl", "excluded.jsonl"]);
    expect(parsed.created_at).toBe("2026-12-01T00:00:00.000Z");
    expect(
      releaseManifest({ dataset: "d", name: "v1", createdAt: parsed.created_at, files: [...files].reverse() }),
    ).toBe(text);
  });
});
