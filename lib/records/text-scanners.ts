import { concat } from "./byte-source";
import { isJsonTooDeep, TOO_DEEP_MESSAGE } from "./json-limits";
import type { RawItem } from "./reader";

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

const NOT_TEXT = "line is not UTF-8 text";
const decoder = new TextDecoder("utf-8", { fatal: true });

// Splits on LF bytes, not characters, so multibyte characters may straddle chunks.
/** Splits decompressed JSONL text into lines and parses each line as one item. */
export class LineSplitter {
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

// Tracks strings and nesting only, so the file is never held whole.
/** Walks a top-level JSON array byte by byte and parses each element as soon as it closes. */
export class ArrayScanner {
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
  // Refused before parsing: JSON.parse would build every level, and writing it back would overflow the stack.
  if (isJsonTooDeep(text)) return { line, error: TOO_DEEP_MESSAGE };
  try {
    return { line, value: JSON.parse(text) };
  } catch (error) {
    return { line, error: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** True for the four JSON whitespace bytes. */
export function isWhitespace(b: number): boolean {
  return b === SPACE || b === LF || b === CR || b === TAB;
}

function formatLimit(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}
