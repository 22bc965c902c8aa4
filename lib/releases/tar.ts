// A tar (ustar) writer for release archives: the same files give the same bytes (fixed owner, mode
// and the release's own time on every entry), and a body is streamed, so a release of any size is
// archived with flat memory. No I/O of its own: the caller hands each file's size and its bytes.

export type TarEntry = {
  /** Path inside the archive; a folder ends with "/". */
  name: string;
  /** Bytes of the body (0 for a folder). */
  size: number;
  /** Seconds since the epoch, the same for every entry of a release. */
  mtime: number;
  body?: () => AsyncIterable<Uint8Array>;
};

const BLOCK = 512;
const encoder = new TextEncoder();

function writeText(header: Uint8Array, offset: number, length: number, text: string): void {
  const bytes = encoder.encode(text);
  if (bytes.length > length) throw new Error(`"${text}" does not fit a tar header field of ${length} bytes.`);
  header.set(bytes, offset);
}

/** An octal number field: zero-padded digits and a NUL, as tar readers expect. */
function writeOctal(header: Uint8Array, offset: number, length: number, value: number): void {
  const digits = value.toString(8);
  if (digits.length > length - 1) throw new Error(`${value} is too large for a tar header field.`);
  writeText(header, offset, length, `${digits.padStart(length - 1, "0")}\0`);
}

/** Splits a long path into ustar's prefix and name (at a "/"), or refuses it. */
function splitPath(path: string): { prefix: string; name: string } {
  if (encoder.encode(path).length <= 100) return { prefix: "", name: path };
  const cut = path.lastIndexOf("/", 155);
  if (cut <= 0 || encoder.encode(path.slice(cut + 1)).length > 100)
    throw new Error(`The path "${path}" is too long for a tar archive.`);
  return { prefix: path.slice(0, cut), name: path.slice(cut + 1) };
}

/** The 512-byte ustar header of an entry. */
function tarHeader(entry: TarEntry): Uint8Array {
  const header = new Uint8Array(BLOCK);
  const isFolder = entry.name.endsWith("/");
  const { prefix, name } = splitPath(entry.name);
  writeText(header, 0, 100, name);
  writeOctal(header, 100, 8, isFolder ? 0o755 : 0o644);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeOctal(header, 124, 12, isFolder ? 0 : entry.size);
  writeOctal(header, 136, 12, entry.mtime);
  // The checksum is computed with its own field read as eight spaces.
  header.fill(0x20, 148, 156);
  header[156] = (isFolder ? "5" : "0").charCodeAt(0);
  writeText(header, 257, 6, "ustar\0");
  writeText(header, 263, 2, "00");
  writeText(header, 265, 32, "root");
  writeText(header, 297, 32, "root");
  writeText(header, 345, 155, prefix);
  const sum = header.reduce((total, byte) => total + byte, 0);
  writeText(header, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return header;
}

/**
 * The archive of `entries`, in their order: a header per entry, its body padded to a block, and the
 * two empty blocks that end an archive. A body whose length differs from its size is refused.
 */
export async function* tarStream(entries: TarEntry[]): AsyncGenerator<Uint8Array> {
  for (const entry of entries) {
    yield tarHeader(entry);
    if (entry.name.endsWith("/")) continue;
    let written = 0;
    if (entry.body)
      for await (const chunk of entry.body()) {
        written += chunk.length;
        yield chunk;
      }
    if (written !== entry.size)
      throw new Error(`${entry.name}: ${written} bytes written where its header says ${entry.size}.`);
    const padding = (BLOCK - (entry.size % BLOCK)) % BLOCK;
    if (padding) yield new Uint8Array(padding);
  }
  yield new Uint8Array(2 * BLOCK);
}
