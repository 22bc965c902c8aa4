// A line diff between two versions of a text, for showing revisions as diffs where no editor runs
// (REST answers, the release's history, tests). Pure.

export type DiffLine = { kind: "same" | "added" | "removed"; text: string };

/** Beyond this many lines on a side, the middle is diffed as one replaced block: LCS is quadratic. */
const MAX_LCS_CELLS = 4_000_000;

/**
 * The lines of `before` and `after` as kept, removed and added lines, by longest common subsequence
 * after trimming the common head and tail (a repair usually touches a line or two of a long test).
 */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = before.split("\n");
  const b = after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const same = (text: string): DiffLine => ({ kind: "same", text });
  return [...a.slice(0, head).map(same), ...diffMiddle(midA, midB), ...a.slice(a.length - tail).map(same)];
}

function diffMiddle(a: string[], b: string[]): DiffLine[] {
  if ((a.length + 1) * (b.length + 1) > MAX_LCS_CELLS)
    return [
      ...a.map((text): DiffLine => ({ kind: "removed", text })),
      ...b.map((text): DiffLine => ({ kind: "added", text })),
    ];
  // lengths[i][j]: the LCS length of a[i..] and b[j..].
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i * width + j] =
        a[i] === b[j]
          ? lengths[(i + 1) * width + j + 1] + 1
          : Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1]);
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      lines.push({ kind: "same", text: a[i] });
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j] >= lengths[i * width + j + 1])
      lines.push({ kind: "removed", text: a[i++] });
    else lines.push({ kind: "added", text: b[j++] });
  }
  while (i < a.length) lines.push({ kind: "removed", text: a[i++] });
  while (j < b.length) lines.push({ kind: "added", text: b[j++] });
  return lines;
}

/** A diff as unified-diff text ("-" removed, "+" added, " " kept), with `context` kept lines around each change. */
export function unifiedDiff(before: string, after: string, context = 3): string {
  const lines = diffLines(before, after);
  const near = new Array<boolean>(lines.length).fill(false);
  lines.forEach((line, index) => {
    if (line.kind === "same") return;
    for (let k = Math.max(0, index - context); k <= Math.min(lines.length - 1, index + context); k++) near[k] = true;
  });
  const out: string[] = [];
  let skipped = false;
  lines.forEach((line, index) => {
    if (!near[index]) {
      if (!skipped) out.push("@@");
      skipped = true;
      return;
    }
    skipped = false;
    out.push(`${line.kind === "added" ? "+" : line.kind === "removed" ? "-" : " "}${line.text}`);
  });
  return out.join("\n");
}
