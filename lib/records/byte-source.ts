import { createGunzip } from "node:zlib";

// Bounds how much one zlib write can inflate to (deflate tops out near 1032:1), so a
// gzip bomb cannot push more than a few megabytes into memory between two reads.
const GUNZIP_SLICE_BYTES = 4 * 1024;

/**
 * Gzip bomb guard: past the first {@link INFLATE_FREE_BYTES}, the text may be at most
 * {@link MAX_INFLATE_RATIO} times the compressed bytes read so far. Real JSONL of code records
 * compresses 5–20×; a bomb approaches deflate's limit near 1000× and is refused within a second
 * instead of being inflated to gigabytes first.
 */
const MAX_INFLATE_RATIO = 100;
export const INFLATE_FREE_BYTES = 64 * 1024 * 1024;

/** Raised inside the pipeline when zlib rejects the data; the reader turns it into an error item. */
export class GzipError extends Error {}

/** Joins byte arrays whose total length is known. */
export function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

// Encodes string chunks as UTF-8, carrying a split surrogate pair over to the next chunk.
/** The source as UTF-8 bytes, whatever mix of strings and byte arrays it yields. */
export async function* toBytes(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  let pending = "";
  for await (const chunk of source) {
    if (typeof chunk !== "string") {
      if (pending !== "") {
        yield encoder.encode(pending);
        pending = "";
      }
      if (chunk.length > 0) yield chunk;
      continue;
    }
    let text = pending + chunk;
    pending = "";
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      pending = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (text !== "") yield encoder.encode(text);
  }
  if (pending !== "") yield encoder.encode(pending);
}

// Inflates gzip data chunk by chunk. Writes are awaited one small slice at a time and output is
// taken from "data" events, so what earlier slices produced is delivered ahead of the GzipError
// (a stream's async iterator drops buffered output on error). zlib discards the output of the slice
// that fails, so at most one slice's worth of text before corruption is lost.
/** Inflates a gzip byte stream; a corrupt or truncated one ends in a {@link GzipError}. */
export async function* gunzip(input: PushbackReader): AsyncGenerator<Uint8Array> {
  const zlib = createGunzip();
  const output: Uint8Array[] = [];
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const signal = () => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  let hasEnded = false;
  zlib.on("data", (chunk: Uint8Array) => output.push(chunk));
  zlib.on("error", (error: Error) => {
    failure = error;
    signal();
  });
  zlib.on("end", () => {
    hasEnded = true;
    signal();
  });
  const settle = (start: (done: () => void) => void) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      start(signal);
    });
  const gzipError = (error: Error) => new GzipError(`the gzip data is truncated or corrupt: ${error.message}`);
  let bytesIn = 0;
  let bytesOut = 0;
  const assertPlausibleRatio = () => {
    if (bytesOut > INFLATE_FREE_BYTES && bytesOut > bytesIn * MAX_INFLATE_RATIO) {
      throw new GzipError(
        `the gzip data inflates more than ${MAX_INFLATE_RATIO} times its size (${bytesIn} bytes to over ${bytesOut}); refused as a likely gzip bomb`,
      );
    }
  };

  try {
    for (let chunk = await input.next(); chunk !== null; chunk = await input.next()) {
      for (let offset = 0; offset < chunk.length; offset += GUNZIP_SLICE_BYTES) {
        const slice = chunk.subarray(offset, offset + GUNZIP_SLICE_BYTES);
        bytesIn += slice.length;
        await settle((done) => zlib.write(slice, () => done()));
        bytesOut += output.reduce((sum, part) => sum + part.length, 0);
        assertPlausibleRatio();
        while (output.length > 0) yield output.shift()!;
        if (failure) throw gzipError(failure);
      }
    }
    if (!hasEnded) await settle(() => zlib.end());
    while (output.length > 0) yield output.shift()!;
    if (failure) throw gzipError(failure);
  } finally {
    zlib.destroy();
  }
}

/** An async byte source that can look ahead and put bytes back, for format sniffing. */
export class PushbackReader {
  private readonly iterator: AsyncIterator<Uint8Array>;
  private readonly buffered: Uint8Array[] = [];
  private isDone = false;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  async next(): Promise<Uint8Array | null> {
    if (this.buffered.length > 0) return this.buffered.shift()!;
    while (!this.isDone) {
      const result = await this.iterator.next();
      if (result.done) {
        this.isDone = true;
        break;
      }
      if (result.value.length > 0) return result.value;
    }
    return null;
  }

  unshift(chunk: Uint8Array): void {
    if (chunk.length > 0) this.buffered.unshift(chunk);
  }

  /** Returns up to `count` leading bytes without consuming them (fewer only at the end of input). */
  async peek(count: number): Promise<Uint8Array> {
    const taken: Uint8Array[] = [];
    let size = 0;
    while (size < count) {
      const chunk = await this.next();
      if (chunk === null) break;
      taken.push(chunk);
      size += chunk.length;
    }
    for (let i = taken.length - 1; i >= 0; i--) this.unshift(taken[i]);
    return concat(taken, size).subarray(0, count);
  }

  async skip(count: number): Promise<void> {
    let left = count;
    while (left > 0) {
      const chunk = await this.next();
      if (chunk === null) return;
      if (chunk.length > left) this.unshift(chunk.subarray(left));
      left -= chunk.length;
    }
  }

  async close(): Promise<void> {
    if (!this.isDone) {
      this.isDone = true;
      await this.iterator.return?.();
    }
  }
}
