import { GzipError, PushbackReader, gunzip, toBytes } from "./byte-source";
import { ArrayScanner, LineSplitter, isWhitespace } from "./text-scanners";

/** One top-level value read from an input file, or why the text at that line could not be read. */
export type RawItem = { line: number; value: unknown } | { line: number; error: string };

/** Options for {@link readItems}. */
export type ReadItemsOptions = {
  /** Longest accepted JSONL line or JSON-array element, in bytes; longer ones become error items. */
  maxLineBytes?: number;
};

/** Default for {@link ReadItemsOptions.maxLineBytes}. */
const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

const LF = 0x0a;
const OPEN_BRACKET = 0x5b;
const BOM = [0xef, 0xbb, 0xbf];

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
