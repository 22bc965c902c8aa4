import { createGzip } from "node:zlib";

import { describe, expect, it } from "vitest";

import { GzipError, INFLATE_FREE_BYTES, PushbackReader, gunzip } from "./byte-source";

/** Gzips `total` bytes of zeros without holding them: a bomb of about total/1000 bytes. */
async function gzipZeros(total: number): Promise<Buffer> {
  const zip = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  zip.on("data", (part: Buffer) => parts.push(part));
  const done = new Promise((resolve) => zip.on("end", resolve));
  const block = Buffer.alloc(1024 * 1024);
  for (let written = 0; written < total; written += block.length) {
    if (!zip.write(block)) await new Promise((resolve) => zip.once("drain", resolve));
  }
  zip.end();
  await done;
  return Buffer.concat(parts);
}

async function* inChunks(bytes: Buffer, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

describe("gunzip", () => {
  it("refuses a gzip bomb once it has inflated past the free allowance, not at its end", async () => {
    const bomb = await gzipZeros(512 * 1024 * 1024);
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
  });

  it("inflates ordinary compressible text in full", async () => {
    const text = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ question: `Write f${i}(x) returning x * ${i}.`, language: "python" })).join("\n");
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
