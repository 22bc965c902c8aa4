import "server-only";

// Program output is kept as a head and a tail: the start shows what the program was doing, the end
// shows how it stopped (the assertion, the stack trace); the middle is what a flood repeats.

/** The line put where bytes were cut, saying how many. */
export function cutMarker(bytes: number): string {
  return `\n[… ${bytes} bytes cut …]\n`;
}

/** True for a byte that continues a UTF-8 sequence (10xxxxxx). */
function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** Length of `bytes` without a trailing incomplete UTF-8 sequence. */
function completeLength(bytes: Buffer): number {
  let start = bytes.length;
  while (start > 0 && bytes.length - start < 3 && isContinuation(bytes[start - 1])) start--;
  if (start === 0) return bytes.length;
  const lead = bytes[start - 1];
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - start + 1 >= needed ? bytes.length : start - 1;
}

/** Joins a head and a tail of a `total`-byte output with the cut marker between, on character boundaries. */
function joinCut(head: Buffer, tail: Buffer, total: number): string {
  const headEnd = completeLength(head);
  let tailStart = 0;
  while (tailStart < tail.length && isContinuation(tail[tailStart])) tailStart++;
  const cut = total - headEnd - (tail.length - tailStart);
  return `${head.subarray(0, headEnd).toString("utf8")}${cutMarker(cut)}${tail.subarray(tailStart).toString("utf8")}`;
}

/** Keeps the first `headBytes` and the last `tailBytes` of a text (UTF-8) with the cut marker between (pure). */
export function keepHeadAndTail(text: string, headBytes: number, tailBytes: number): { text: string; isCut: boolean } {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= headBytes + tailBytes) return { text, isCut: false };
  return {
    text: joinCut(bytes.subarray(0, headBytes), bytes.subarray(bytes.length - tailBytes), bytes.length),
    isCut: true,
  };
}

/**
 * Collects a stream's first `headBytes` and last `tailBytes`, counting (then dropping) the middle,
 * so a child that floods its output never blocks and never fills memory.
 */
export class HeadTailBuffer {
  private readonly head: Buffer[] = [];
  private headLength = 0;
  private readonly tail: Buffer[] = [];
  private tailLength = 0;
  private total = 0;

  constructor(
    private readonly headBytes: number,
    private readonly tailBytes: number,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headLength < this.headBytes) {
      const part = rest.subarray(0, this.headBytes - this.headLength);
      this.head.push(part);
      this.headLength += part.length;
      rest = rest.subarray(part.length);
    }
    if (rest.length === 0 || this.tailBytes === 0) return;
    this.tail.push(rest);
    this.tailLength += rest.length;
    // Drop whole chunks that lie before the last `tailBytes`.
    while (this.tailLength - this.tail[0].length >= this.tailBytes) {
      this.tailLength -= this.tail[0].length;
      this.tail.shift();
    }
  }

  get isTruncated(): boolean {
    return this.total > this.headBytes + this.tailBytes;
  }

  text(): string {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    if (!this.isTruncated) return Buffer.concat([head, tail]).toString("utf8");
    return joinCut(head, tail.subarray(tail.length - this.tailBytes), this.total);
  }
}

/** First non-empty line of a command's output (a toolchain's version line). */
export function firstLine(text: string): string | null {
  return (
    text
      .split("\n")
      .map((line) => line.trim())
      .find(Boolean) ?? null
  );
}
