import { createGunzip } from "node:zlib";

/** One top-level value read from an input file, or why the text at that line could not be read. */
export type RawItem = { line: number; value: unknown } | { line: number; error: string };

/** Options for {@link readItems}. */
export type ReadItemsOptions = {
  /** Longest accepted JSONL line or JSON-array element, in bytes; longer ones become error items. */
  maxLineBytes?: number;
};

/** Default for {@link ReadItemsOptions.maxLineBytes}. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const BOM = [0xef, 0xbb, 0xbf];

// Bounds how much one zlib write can inflate to (deflate tops out near 1032:1), so a
// gzip bomb cannot push more than a few megabytes into memory between two reads.
const GUNZIP_SLICE_BYTES = 4 * 1024;

const NOT_TEXT = "line is not UTF-8 text";
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Raised inside the pipeline when zlib rejects the data; turned into an error item, never thrown out. */
class GzipError extends Error {}

/**
 * Streams the top-level values of a JSONL or JSON-array file (optionally gzipped) with flat memory.
 * Bad input becomes `{ line, error }` items; only failures of the source itself are thrown.
 */
export async function* readItems(
  source: AsyncIterable<Uint8Array | string>,
  options?: ReadItemsOptions,
): AsyncGenerator<RawItem> {
  const maxLineBytes = options?.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const input = new PushbackReader(toBytes(source));
  try {
    const head = await input.peek(2);
    const isGzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
    const text = isGzip ? new PushbackReader(gunzip(input)) : input;
    try {
      yield* parseText(text, maxLineBytes);
    } finally {
      if (text !== input) await text.close();
    }
  } finally {
    await input.close();
  }
}

async function* parseText(text: PushbackReader, maxLineBytes: number): AsyncGenerator<RawItem> {
  let newlines = 0;
  let scanner: LineSplitter | ArrayScanner | null = null;
  try {
    const bom = await text.peek(3);
    if (bom.length === 3 && bom.every((b, i) => b === BOM[i])) await text.skip(3);

    // Find the first meaningful byte, dropping leading whitespace as it streams past.
    for (;;) {
      const chunk = await text.next();
      if (chunk === null) {
        yield { line: 0, error: "the file is empty" };
        return;
      }
      let i = 0;
      while (i < chunk.length && isWhitespace(chunk[i])) {
        if (chunk[i] === LF) newlines++;
        i++;
      }
      if (i < chunk.length) {
        text.unshift(chunk.subarray(i));
        break;
      }
    }
    const first = (await text.peek(1))[0];
    scanner =
      first === OPEN_BRACKET
        ? new ArrayScanner(newlines + 1, maxLineBytes)
        : new LineSplitter(newlines + 1, maxLineBytes);
    for (let chunk = await text.next(); chunk !== null; chunk = await text.next()) {
      yield* scanner.push(chunk);
    }
    yield* scanner.finish();
  } catch (error) {
    if (!(error instanceof GzipError)) throw error;
    // Whatever was cut short is dropped; the error names the line being read when the data ended.
    yield { line: scanner ? scanner.currentLine : newlines + 1, error: error.message };
  }
}

// Splits JSONL on LF bytes (so multibyte characters may straddle chunks) and parses each line.
class LineSplitter {
  private parts: Uint8Array[] = [];
  private partBytes = 0;
  private isSkipping = false;

  constructor(
    private line: number,
    private readonly maxLineBytes: number,
  ) {}

  *push(chunk: Uint8Array): Generator<RawItem> {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(LF, start);
      const stop = end === -1 ? chunk.length : end;
      const piece = chunk.subarray(start, stop);
      if (this.isSkipping) {
        // The over-long line was reported already; drop its bytes until the newline.
      } else if (this.partBytes + piece.length > this.maxLineBytes) {
        yield { line: this.line, error: `line is over the ${formatLimit(this.maxLineBytes)} limit` };
        this.parts = [];
        this.partBytes = 0;
        this.isSkipping = true;
      } else if (end === -1) {
        // Copy, so a partial line never pins the producer's whole chunk in memory.
        this.parts.push(piece.slice());
        this.partBytes += piece.length;
      } else {
        const item = this.takeLine(piece);
        if (item) yield item;
      }
      if (end === -1) return;
      this.line++;
      this.isSkipping = false;
      start = end + 1;
    }
  }

  *finish(): Generator<RawItem> {
    if (!this.isSkipping && this.partBytes > 0) {
      const item = this.takeLine(new Uint8Array(0));
      if (item) yield item;
    }
  }

  /** The line number an error cut short would belong to: the line being read. */
  get currentLine(): number {
    return this.line;
  }

  private takeLine(tail: Uint8Array): RawItem | null {
    const bytes = this.parts.length === 0 ? tail : concat([...this.parts, tail], this.partBytes + tail.length);
    this.parts = [];
    this.partBytes = 0;
    return parseJsonBytes(bytes, this.line, NOT_TEXT);
  }
}

type ArrayState = "start" | "element" | "between" | "afterComma" | "closed" | "trailing";

// Walks a top-level JSON array byte by byte, tracking strings and nesting, and parses each
// element as soon as it closes, so the file is never held whole.
class ArrayScanner {
  private state: ArrayState = "start";
  private parts: Uint8Array[] = [];
  private partBytes = 0;
  private isSkipping = false;
  private depth = 0;
  private inString = false;
  private isEscaped = false;
  private elementLine = 0;

  constructor(
    private line: number,
    private readonly maxBytes: number,
  ) {}

  *push(chunk: Uint8Array): Generator<RawItem> {
    if (this.state === "trailing") return;
    let elementStart = this.state === "element" ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (this.state === "element") {
        if (this.inString) {
          if (this.isEscaped) this.isEscaped = false;
          else if (b === BACKSLASH) this.isEscaped = true;
          else if (b === QUOTE) this.inString = false;
          else if (b === LF) this.line++;
          continue;
        }
        if (b === QUOTE) this.inString = true;
        else if (b === OPEN_BRACE || b === OPEN_BRACKET) this.depth++;
        else if ((b === CLOSE_BRACE || b === CLOSE_BRACKET) && this.depth > 0) this.depth--;
        else if (this.depth === 0 && (b === COMMA || b === CLOSE_BRACKET)) {
          const item = this.endElement(chunk.subarray(elementStart, i));
          elementStart = -1;
          if (item) yield item;
          this.state = b === COMMA ? "afterComma" : "closed";
        } else if (b === LF) this.line++;
        continue;
      }
      if (b === LF) this.line++;
      if (isWhitespace(b)) continue;
      switch (this.state) {
        case "start":
          // The caller hands over the stream at the opening bracket.
          this.state = "between";
          if (b !== OPEN_BRACKET) this.state = "trailing";
          break;
        case "between":
        case "afterComma":
          if (b === CLOSE_BRACKET) {
            // A trailing comma loses no data, so it is forgiven.
            this.state = "closed";
          } else if (b === COMMA) {
            yield { line: this.line, error: "empty element in the JSON array (two commas in a row)" };
            this.state = "afterComma";
          } else {
            this.state = "element";
            this.elementLine = this.line;
            elementStart = i;
            i--; // Rescan this byte in element mode so quotes and brackets count.
          }
          break;
        case "closed":
          yield { line: this.line, error: "unexpected text after the closing ] of the JSON array" };
          this.state = "trailing";
          return;
        default:
          return;
      }
    }
    if (this.state === "element" && elementStart !== -1) this.keep(chunk.subarray(elementStart));
  }

  /** The line the scanner has reached. */
  get currentLine(): number {
    return this.line;
  }

  *finish(): Generator<RawItem> {
    if (this.state === "element") {
      const item = this.endElement(new Uint8Array(0));
      if (item && "value" in item) {
        // The element itself is whole; only the bracket is missing.
        yield item;
        yield { line: this.line, error: "the JSON array is missing its closing ]" };
      } else {
        yield {
          line: this.elementLine,
          error: "the file ends inside this element; the JSON array is missing its closing ]",
        };
      }
    } else if (this.state === "between" || this.state === "afterComma") {
      yield { line: this.line, error: "the JSON array is missing its closing ]" };
    }
  }

  private keep(piece: Uint8Array): void {
    if (this.isSkipping) return;
    if (this.partBytes + piece.length > this.maxBytes) {
      this.isSkipping = true;
      this.parts = [];
      this.partBytes = 0;
      return;
    }
    this.parts.push(piece.slice());
    this.partBytes += piece.length;
  }

  private endElement(tail: Uint8Array): RawItem | null {
    const wasSkipping = this.isSkipping;
    const total = this.partBytes + tail.length;
    const parts = this.parts;
    this.parts = [];
    this.partBytes = 0;
    this.isSkipping = false;
    this.depth = 0;
    this.inString = false;
    this.isEscaped = false;
    if (wasSkipping || total > this.maxBytes) {
      return { line: this.elementLine, error: `element is over the ${formatLimit(this.maxBytes)} limit` };
    }
    const bytes = parts.length === 0 ? tail : concat([...parts, tail], total);
    return parseJsonBytes(bytes, this.elementLine, "element is not UTF-8 text");
  }
}

function parseJsonBytes(bytes: Uint8Array, line: number, notTextMessage: string): RawItem | null {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === CR) end--;
  let hasContent = false;
  for (let i = 0; i < end; i++) {
    if (!isWhitespace(bytes[i])) {
      hasContent = true;
      break;
    }
  }
  if (!hasContent) return null;
  // A NUL is valid UTF-8 but never appears in a text record; it marks a binary file.
  if (bytes.indexOf(0) !== -1) return { line, error: notTextMessage };
  let text: string;
  try {
    text = decoder.decode(bytes.subarray(0, end));
  } catch {
    return { line, error: notTextMessage };
  }
  try {
    return { line, value: JSON.parse(text) };
  } catch (error) {
    return { line, error: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function isWhitespace(b: number): boolean {
  return b === SPACE || b === LF || b === CR || b === TAB;
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function formatLimit(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

// Encodes string chunks as UTF-8, carrying a split surrogate pair over to the next chunk.
async function* toBytes(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array> {
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

// Inflates gzip data chunk by chunk. Writes are awaited one small slice at a time, so every byte
// zlib produced before an error is delivered ahead of the GzipError (stream iterators drop it).
async function* gunzip(input: PushbackReader): AsyncGenerator<Uint8Array> {
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
  const gzipError = (error: Error) =>
    new GzipError(`the gzip data is truncated or corrupt: ${error.message}`);

  try {
    for (let chunk = await input.next(); chunk !== null; chunk = await input.next()) {
      for (let offset = 0; offset < chunk.length; offset += GUNZIP_SLICE_BYTES) {
        await settle((done) => zlib.write(chunk.subarray(offset, offset + GUNZIP_SLICE_BYTES), () => done()));
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

// An async byte source that can look ahead and put bytes back, for format sniffing.
class PushbackReader {
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
