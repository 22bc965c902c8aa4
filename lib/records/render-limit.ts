// Markdown rendering costs far more than storing: a 1 MB question held the server for seconds per
// page view. Pages render the head of long text as Markdown and offer the rest as plain text.

/** How many characters of a question are rendered as Markdown (real statements are a few thousand). */
export const MARKDOWN_RENDER_LIMIT = 12_000;

/**
 * Splits `text` into a head of at most `limit` characters, cut at a paragraph or line break when
 * one falls in the last fifth, and the rest (empty when the text fits).
 */
export function splitForRendering(text: string, limit = MARKDOWN_RENDER_LIMIT): { head: string; rest: string } {
  if (text.length <= limit) return { head: text, rest: "" };
  const paragraph = text.lastIndexOf("\n\n", limit);
  const line = text.lastIndexOf("\n", limit);
  const nearEnough = limit * 0.8;
  let cut = paragraph >= nearEnough ? paragraph : line >= nearEnough ? line : limit;
  // Never split a surrogate pair: the halves would render as two replacement characters.
  const before = text.charCodeAt(cut - 1);
  if (before >= 0xd800 && before <= 0xdbff) cut -= 1;
  return { head: text.slice(0, cut), rest: text.slice(cut) };
}
