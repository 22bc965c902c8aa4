import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Readable } from "node:stream";
import { createGzip, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readItems, type RawItem } from "./reader";

const MB = 1024 * 1024;

async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  for (const part of parts) yield part;
}

async function* oneByteAtATime(data: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < data.length; i++) yield data.subarray(i, i + 1);
}

async function collect(source: AsyncIterable<string | Uint8Array>, options?: { maxLineBytes?: number }) {
  const items: RawItem[] = [];
  for await (const item of readItems(source, options)) items.push(item);
  return items;
}

function jsonl(values: unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join("\n") + "\n";
}

// A real collector, so heap figures measure what is retained rather than garbage not yet swept.
function getGc(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

// Buffer contents live outside the JS heap, so heapUsed alone would miss a reader hoarding bytes.
function retainedBytes(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

describe("readItems: JSONL", () => {
  it("parses each line, skips blank ones and numbers lines from 1", async () => {
    const items = await collect(chunks('{"a":1}\n\n   \n{"b":2}\n[3]\n"four"'));
    expect(items).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, value: { b: 2 } },
      { line: 5, value: [3] },
      { line: 6, value: "four" },
    ]);
  });

  it("counts leading blank lines", async () => {
    expect(await collect(chunks("\n\n\n{}\n"))).toEqual([{ line: 4, value: {} }]);
  });

  it("handles CRLF line endings", async () => {
    const items = await collect(chunks('{"a":"x"}\r\n\r\n{"b":2}\r\n'));
    expect(items).toEqual([
      { line: 1, value: { a: "x" } },
      { line: 3, value: { b: 2 } },
    ]);
  });

  it("ignores a UTF-8 byte order mark", async () => {
    const bom = Uint8Array.of(0xef, 0xbb, 0xbf);
    expect(await collect(chunks(bom, '{"a":1}\n'))).toEqual([{ line: 1, value: { a: 1 } }]);
    expect(await collect(oneByteAtATime(Buffer.concat([bom, Buffer.from('[{"a":1}]')])))).toEqual([
      { line: 1, value: { a: 1 } },
    ]);
  });

  it("reports a malformed line and carries on", async () => {
    const items = await collect(chunks('{"a":1}\n{"a":\n{"c":3}\n'));
    expect(items[0]).toEqual({ line: 1, value: { a: 1 } });
    expect(items[1]).toMatchObject({ line: 2 });
    expect("error" in items[1] && items[1].error).toMatch(/^invalid JSON: /);
    expect(items[2]).toEqual({ line: 3, value: { c: 3 } });
  });

  it("reports binary garbage and NUL bytes as not text, then reads on", async () => {
    const garbage = Uint8Array.of(0xff, 0xfe, 0x80, 0x41, 0xc3);
    const withNul = Buffer.from('{"a":"x\u0000y"}', "utf8");
    const items = await collect(chunks(garbage, "\n", withNul, '\n{"ok":true}\n'));
    expect(items).toEqual([
      { line: 1, error: "line is not UTF-8 text" },
      { line: 2, error: "line is not UTF-8 text" },
      { line: 3, value: { ok: true } },
    ]);
  });

  it("reports a line nested deeper than 64 levels, even 100,000 deep, and reads on", async () => {
    const deep = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const deepObject = `${'{"a":'.repeat(65)}1${"}".repeat(65)}`;
    const items = await collect(chunks(`${deep}\n${deepObject}\n{"ok":true}\n`));
    expect(items).toEqual([
      { line: 1, error: "nested deeper than 64 levels of arrays and objects" },
      { line: 2, error: "nested deeper than 64 levels of arrays and objects" },
      { line: 3, value: { ok: true } },
    ]);
  });

  it("accepts nesting of exactly 64 levels and does not count brackets inside strings", async () => {
    const value = JSON.parse(`${'{"a":'.repeat(64)}"${"[".repeat(100)}"${"}".repeat(64)}`);
    expect(await collect(chunks(JSON.stringify(value)))).toEqual([{ line: 1, value }]);
  });

  it("reads multibyte characters and lines split across 1-byte chunks", async () => {
    const values = [{ s: "héllo wörld" }, { s: "中文 😀 ∑" }, { s: '\u2028 and \\ and "' }];
    const data = Buffer.from(jsonl(values).replace(/\n/g, "\r\n"), "utf8");
    const items = await collect(oneByteAtATime(data));
    expect(items).toEqual(values.map((value, i) => ({ line: i + 1, value })));
  });

  it("reads string chunks that split a surrogate pair", async () => {
    const text = jsonl([{ s: "😀😀" }, { t: 1 }]);
    const units = text.split("");
    expect(units.some((u) => u.charCodeAt(0) >= 0xd800 && u.charCodeAt(0) <= 0xdbff)).toBe(true);
    expect(await collect(chunks(...units))).toEqual([
      { line: 1, value: { s: "😀😀" } },
      { line: 2, value: { t: 1 } },
    ]);
  });

  it("reports a line over the limit once and reads the next line", async () => {
    const long = JSON.stringify({ s: "x".repeat(500) });
    const data = Buffer.from(`{"a":1}\n${long}\n{"b":2}\n${long}`);
    for (const source of [chunks(data), oneByteAtATime(data)]) {
      expect(await collect(source, { maxLineBytes: 100 })).toEqual([
        { line: 1, value: { a: 1 } },
        { line: 2, error: "line is over the 100 bytes limit" },
        { line: 3, value: { b: 2 } },
        { line: 4, error: "line is over the 100 bytes limit" },
      ]);
    }
  });

  it("treats the limit as inclusive", async () => {
    const line = JSON.stringify({ s: "x".repeat(50) });
    expect(await collect(chunks(line + "\n"), { maxLineBytes: line.length })).toEqual([
      { line: 1, value: { s: "x".repeat(50) } },
    ]);
  });
});

describe("readItems: empty input", () => {
  it.each([
    ["no chunks", []],
    ["empty chunks", ["", new Uint8Array(0)]],
    ["only whitespace", [" \n\r\n\t\n"]],
    ["only a BOM", [Uint8Array.of(0xef, 0xbb, 0xbf), "\n"]],
  ])("reports %s as an empty file", async (_name, parts) => {
    expect(await collect(chunks(...(parts as (string | Uint8Array)[])))).toEqual([
      { line: 0, error: "the file is empty" },
    ]);
  });

  it("reports an empty gzip as an empty file", async () => {
    expect(await collect(chunks(gzipSync(Buffer.alloc(0))))).toEqual([{ line: 0, error: "the file is empty" }]);
  });
});

describe("readItems: JSON array", () => {
  const text = [
    "[",
    '  {"question": "uses [brackets], {braces} and \\"quotes\\"",',
    '   "n": [1, [2, 3]]},',
    "",
    '  {"b": "\\\\"},',
    "  42,",
    '  "a string, with a comma ]"',
    "]",
    "",
  ].join("\n");
  const expected = [
    { line: 2, value: { question: 'uses [brackets], {braces} and "quotes"', n: [1, [2, 3]] } },
    { line: 5, value: { b: "\\" } },
    { line: 6, value: 42 },
    { line: 7, value: "a string, with a comma ]" },
  ];

  it("yields each element with the line it starts on", async () => {
    expect(await collect(chunks(text))).toEqual(expected);
  });

  it("gives the same result when fed one byte at a time", async () => {
    expect(await collect(oneByteAtATime(Buffer.from(text)))).toEqual(expected);
  });

  it("gives the same result with CRLF line endings and leading blank lines", async () => {
    const items = await collect(chunks("\r\n\r\n" + text.replace(/\n/g, "\r\n")));
    expect(items).toEqual(expected.map((item) => ({ ...item, line: item.line + 2 })));
  });

  it("reads an element spread over many lines with multibyte text", async () => {
    const value = { question: "Σ of\nlines 😀", cases: Array.from({ length: 5 }, (_, i) => ({ i })) };
    const data = Buffer.from(`[\n${JSON.stringify(value, null, 2)},\n${JSON.stringify(value, null, 2)}\n]`);
    const items = await collect(oneByteAtATime(data));
    const linesPerElement = JSON.stringify(value, null, 2).split("\n").length;
    expect(items).toEqual([
      { line: 2, value },
      { line: 2 + linesPerElement, value },
    ]);
  });

  it("reads an empty array as no items", async () => {
    expect(await collect(chunks("[ \n ]\n"))).toEqual([]);
  });

  it("reports a malformed element at its line and reads the rest", async () => {
    const items = await collect(chunks('[\n{"a": 1},\n{"a": tru},\n{"a": 3}\n]'));
    expect(items[0]).toEqual({ line: 2, value: { a: 1 } });
    expect(items[1]).toMatchObject({ line: 3 });
    expect("error" in items[1] && items[1].error).toMatch(/^invalid JSON: /);
    expect(items[2]).toEqual({ line: 4, value: { a: 3 } });
    expect(items).toHaveLength(3);
  });

  it("reports a missing closing bracket after a whole element", async () => {
    expect(await collect(chunks('[{"a": 1},\n{"a": 2}\n'))).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, value: { a: 2 } },
      { line: 3, error: "the JSON array is missing its closing ]" },
    ]);
  });

  it("reports a file that ends inside an element", async () => {
    expect(await collect(chunks('[{"a": 1},\n{"a": "unfinished'))).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, error: "the file ends inside this element; the JSON array is missing its closing ]" },
    ]);
  });

  it("reports a missing closing bracket after a trailing comma", async () => {
    expect(await collect(chunks("[1,\n"))).toEqual([
      { line: 1, value: 1 },
      { line: 2, error: "the JSON array is missing its closing ]" },
    ]);
  });

  it("reports empty elements and text after the closing bracket", async () => {
    expect(await collect(chunks("[1,,2]\n\nextra"))).toEqual([
      { line: 1, value: 1 },
      { line: 1, error: "empty element in the JSON array (two commas in a row)" },
      { line: 1, value: 2 },
      { line: 3, error: "unexpected text after the closing ] of the JSON array" },
    ]);
  });

  it("reports an element over the limit and reads the next one", async () => {
    const items = await collect(chunks(`[${JSON.stringify({ s: "x".repeat(300) })},\n{"b": 2}]`), {
      maxLineBytes: 100,
    });
    expect(items).toEqual([
      { line: 1, error: "element is over the 100 bytes limit" },
      { line: 2, value: { b: 2 } },
    ]);
  });

  it("reports an element nested too deeply at its line and reads the rest", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    expect(await collect(chunks(`[\n{"a": 1},\n${deep},\n{"a": 3}\n]`))).toEqual([
      { line: 2, value: { a: 1 } },
      { line: 3, error: "nested deeper than 64 levels of arrays and objects" },
      { line: 4, value: { a: 3 } },
    ]);
  });

  it("reports an element that is not UTF-8 text", async () => {
    const data = Buffer.concat([Buffer.from('["a", "'), Buffer.from([0xff, 0xfe]), Buffer.from('", "b"]')]);
    expect(await collect(chunks(data))).toEqual([
      { line: 1, value: "a" },
      { line: 1, error: "element is not UTF-8 text" },
      { line: 1, value: "b" },
    ]);
  });
});

describe("readItems: gzip", () => {
  const values = Array.from({ length: 3000 }, (_, i) => ({ i, question: `problem ${i} ${"ä".repeat(i % 40)}` }));

  it("gunzips JSONL on the fly, in any chunking", async () => {
    const gz = gzipSync(Buffer.from(jsonl(values)));
    const expected = values.map((value, i) => ({ line: i + 1, value }));
    expect(await collect(chunks(gz))).toEqual(expected);
    const pieces: Uint8Array[] = [];
    for (let i = 0; i < gz.length; i += 777) pieces.push(gz.subarray(i, i + 777));
    expect(await collect(chunks(...pieces))).toEqual(expected);
    expect(await collect(oneByteAtATime(gzipSync(Buffer.from(jsonl(values.slice(0, 20))))))).toEqual(
      expected.slice(0, 20),
    );
  });

  it("gunzips a JSON array", async () => {
    const gz = gzipSync(Buffer.from(JSON.stringify(values.slice(0, 50), null, 1)));
    const items = await collect(chunks(gz));
    expect(items).toHaveLength(50);
    expect(items[1]).toEqual({ line: 6, value: values[1] });
  });

  it("reports truncated gzip data after the lines before it", async () => {
    const gz = gzipSync(Buffer.from(jsonl(values)));
    for (const cut of [gz.length - 4, Math.floor(gz.length / 2), 30]) {
      const items = await collect(chunks(gz.subarray(0, cut)));
      const last = items[items.length - 1];
      const before = items.slice(0, -1);
      expect(last).toMatchObject({ error: expect.stringMatching(/^the gzip data is truncated or corrupt: /) });
      expect(before).toEqual(values.slice(0, before.length).map((value, i) => ({ line: i + 1, value })));
      expect(last.line).toBe(before.length + 1);
    }
  });

  it("loses nothing when only the gzip trailer is cut off", async () => {
    const gz = gzipSync(Buffer.from(jsonl(values)));
    const items = await collect(chunks(gz.subarray(0, gz.length - 8)));
    // The final newline is decompressed, so every record arrives before the error.
    expect(items.slice(0, -1)).toHaveLength(values.length);
    expect(items[items.length - 1]).toMatchObject({ line: values.length + 1 });
  });

  it("reports corrupt gzip data and stops", async () => {
    const gz = Buffer.from(gzipSync(Buffer.from(jsonl(values))));
    for (let i = 200; i < 260; i++) gz[i] ^= 0x5a;
    const items = await collect(chunks(gz));
    const errors = items.filter((item) => "error" in item);
    expect(errors).toHaveLength(1);
    expect(items[items.length - 1]).toBe(errors[0]);
    expect(errors[0]).toMatchObject({ error: expect.stringMatching(/^the gzip data is truncated or corrupt: /) });
  });

  it("reports a gzip header with nothing after it", async () => {
    expect(await collect(chunks(Uint8Array.of(0x1f, 0x8b)))).toEqual([
      { line: 1, error: expect.stringMatching(/^the gzip data is truncated or corrupt: /) },
    ]);
  });
});

describe("readItems: streaming", () => {
  it("closes the source when the caller stops early", async () => {
    let isClosed = false;
    async function* source() {
      try {
        for (let i = 0; ; i++) yield `{"i":${i}}\n`;
      } finally {
        isClosed = true;
      }
    }
    let count = 0;
    for await (const item of readItems(source())) {
      expect(item).toEqual({ line: count + 1, value: { i: count } });
      if (++count === 3) break;
    }
    expect(isClosed).toBe(true);
  });

  it("lets a failing source's own error through", async () => {
    async function* source() {
      yield '{"a":1}\n';
      throw new Error("disk on fire");
    }
    await expect(collect(source())).rejects.toThrow("disk on fire");
  });

  it("skips a 200 MB line without buffering it", async () => {
    const gc = getGc();
    const block = Buffer.alloc(MB, "a");
    async function* source() {
      yield '{"first":1}\n"';
      for (let i = 0; i < 200; i++) yield block;
      yield '"\n{"after":2}\n';
    }
    gc();
    const before = retainedBytes();
    let peak = 0;
    const items: RawItem[] = [];
    for await (const item of readItems(source(), { maxLineBytes: MB })) {
      items.push(item);
      gc();
      peak = Math.max(peak, retainedBytes() - before);
    }
    expect(items).toEqual([
      { line: 1, value: { first: 1 } },
      { line: 2, error: "line is over the 1 MB limit" },
      { line: 3, value: { after: 2 } },
    ]);
    expect(peak).toBeLessThan(20 * MB);
  }, 60_000);

  it("reads a lazily generated 100 MB JSONL stream in flat memory", async () => {
    const gc = getGc();
    const total = 100 * MB;
    const padding = "p".repeat(900);
    let produced = 0;
    let lines = 0;
    async function* source() {
      let pending = "";
      while (produced < total) {
        pending += JSON.stringify({ n: lines++, question: `Problem ${lines} ✓`, padding }) + "\n";
        if (pending.length >= 64 * 1024) {
          const chunk = Buffer.from(pending);
          produced += chunk.length;
          pending = "";
          yield chunk;
        }
      }
      if (pending) yield pending;
    }
    gc();
    const before = retainedBytes();
    let peak = 0;
    let count = 0;
    for await (const item of readItems(source())) {
      if (!("value" in item) || (item.value as { n: number }).n !== count) throw new Error(`bad item at ${count}`);
      count++;
      if (count % 10_000 === 0) {
        gc();
        peak = Math.max(peak, retainedBytes() - before);
      }
    }
    expect(produced).toBeGreaterThanOrEqual(total);
    expect(count).toBe(lines);
    expect(count).toBeGreaterThan(100_000);
    expect(peak).toBeLessThan(50 * MB);
  }, 120_000);

  it("reads a lazily generated, gzipped 50 MB JSON array in flat memory", async () => {
    const gc = getGc();
    const padding = "p".repeat(900);
    let count = 0;
    async function* source() {
      yield "[\n";
      let produced = 0;
      while (produced < 50 * MB) {
        let text = "";
        for (let k = 0; k < 60; k++) text += (count ? ",\n" : "") + JSON.stringify({ n: count++, padding }, null, 1);
        produced += text.length;
        yield Buffer.from(text);
      }
      yield "\n]\n";
    }
    gc();
    const before = retainedBytes();
    let peak = 0;
    let seen = 0;
    // Node streams are async iterables already, so a gzip stream plugs straight in.
    for await (const item of readItems(Readable.from(source()).pipe(createGzip()))) {
      // Each pretty-printed element takes 4 lines plus the comma line break, after the "[" line.
      if (!("value" in item) || item.line !== 2 + seen * 4)
        throw new Error(`bad item ${seen}: ${JSON.stringify(item).slice(0, 80)}`);
      seen++;
      if (seen % 10_000 === 0) {
        gc();
        peak = Math.max(peak, retainedBytes() - before);
      }
    }
    expect(seen).toBe(count);
    expect(seen).toBeGreaterThan(50_000);
    expect(peak).toBeLessThan(50 * MB);
  }, 120_000);
});
