import { createGzip, gzipSync } from "node:zlib";

import { describe, expect, it } from "vitest";

import { GzipError, INFLATE_FREE_BYTES, PushbackReader, gunzip } from "./byte-source";

/** A gzip bomb of `total` bytes of zeros, built fast: gzip members of 1 MiB each, concatenated (~1000:1). */
function gzipZeros(total: number): Buffer {
  const member = gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
  return Buffer.concat(Array.from({ length: Math.ceil(total / (1024 * 1024)) }, () => member));
}

async function* inChunks(bytes: Buffer, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

describe("gunzip", () => {
  it("refuses a gzip bomb once it has inflated past the free allowance, not at its end", async () => {
    const bomb = gzipZeros(512 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    let inflated = 0;
    let failure: unknown = null;
    try {
      for await (const part of gunzip(new PushbackReader(inChunks(bomb)))) inflated += part.length;
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(GzipError);
    expect(String(failure)).toMatch(/gzip bomb/);
    expect(inflated).toBeLessThan(INFLATE_FREE_BYTES + 8 * 1024 * 1024);
    // Inflating 64 MiB takes well under a second on an idle machine; the bound allows a busy one.
  }, 30_000);

  it("inflates ordinary compressible text in full", async () => {
    const text = Array.from({ length: 20_000 }, (_, i) =>
      JSON.stringify({ question: `Write f${i}(x) returning x * ${i}.`, language: "python" }),
    ).join("\n");
    const zipped = await new Promise<Buffer>((resolve) => {
      const zip = createGzip();
      const parts: Buffer[] = [];
      zip.on("data", (part: Buffer) => parts.push(part));
      zip.on("end", () => resolve(Buffer.concat(parts)));
      zip.end(text);
    });
    const parts: Uint8Array[] = [];
    for await (const part of gunzip(new PushbackReader(inChunks(zipped)))) parts.push(part);
    expect(Buffer.concat(parts).toString("utf8")).toBe(text);
  });
});
