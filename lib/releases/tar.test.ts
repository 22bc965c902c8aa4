import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { tarStream, type TarEntry } from "./tar";

const folder = mkdtempSync(join(tmpdir(), "verity-tar-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function archive(entries: TarEntry[]): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of tarStream(entries)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const file = (name: string, text: string, mtime = 1_764_600_000): TarEntry => {
  const bytes = Buffer.from(text);
  return {
    name,
    size: bytes.length,
    mtime,
    body: async function* () {
      yield bytes;
    },
  };
};

describe("tarStream", () => {
  it("writes an archive GNU tar lists and extracts byte for byte, with the given time", async () => {
    const long = `release-v1/${"nested/".repeat(16)}deep.txt`;
    const bytes = await archive([
      { name: "release-v1/", size: 0, mtime: 1_764_600_000 },
      file("release-v1/data.jsonl", '{"question":"fact(5) == 120 ✓"}\n'),
      file("release-v1/empty.txt", ""),
      file(long, "x".repeat(1500)),
    ]);
    expect(bytes.length % 512).toBe(0);
    const path = join(folder, "a.tar");
    writeFileSync(path, bytes);
    const listing = execFileSync("tar", ["-tvf", path, "--utc"], { encoding: "utf8" });
    expect(listing).toContain("2025-12-01 14:40 release-v1/data.jsonl");
    expect(listing).toContain(long);
    execFileSync("tar", ["-xf", path, "-C", folder]);
    expect(readFileSync(join(folder, "release-v1/data.jsonl"), "utf8")).toBe('{"question":"fact(5) == 120 ✓"}\n');
    expect(readFileSync(join(folder, long), "utf8")).toBe("x".repeat(1500));
    expect(readFileSync(join(folder, "release-v1/empty.txt"), "utf8")).toBe("");
  });

  it("gives the same bytes for the same entries", async () => {
    const entries = () => [file("r/a.txt", "one"), file("r/b.txt", "two")];
    expect((await archive(entries())).equals(await archive(entries()))).toBe(true);
  });

  it("refuses a body shorter than its size", async () => {
    await expect(archive([{ ...file("r/a.txt", "one"), size: 10 }])).rejects.toThrow(/3 bytes written/);
  });
});
