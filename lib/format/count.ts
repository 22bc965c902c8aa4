// Counts in sentences: "1 record", "2 records", never "1 records" or "1 bad line(s)".

/** `n` and the noun in the number it takes ("1 bad line", "14 bad lines"), digits grouped the English way. */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
