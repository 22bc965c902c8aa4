// Limits on JSON input that the database or the JavaScript runtime cannot honour: nesting deep enough
// to overflow the stack of JSON.stringify (or to build millions of arrays in JSON.parse), the NUL
// character, which PostgreSQL text and jsonb cannot hold, and unpaired surrogates (from escapes such
// as "\ud800"), which jsonb refuses and text would silently turn into U+FFFD.

/** Deepest accepted nesting of arrays and objects in one input line; the record object is level 1. */
const MAX_JSON_DEPTH = 64;

/** The message for a value over {@link MAX_JSON_DEPTH}. */
export const TOO_DEEP_MESSAGE = `nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`;

const NUL_MESSAGE = "a NUL character (\\u0000), which cannot be stored";
const SURROGATE_MESSAGE = "an unpaired surrogate (a lone \\ud800–\\udfff escape), which is not Unicode text";
// With the u flag a class of surrogates matches only unpaired ones; a pair is one code point.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** Why a string cannot be stored as PostgreSQL text or jsonb ("a NUL character …"), or null when it can. */
export function unstorableCharacter(text: string): string | null {
  if (text.includes("\u0000")) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return SURROGATE_MESSAGE;
  return null;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when JSON text opens more than {@link MAX_JSON_DEPTH} arrays/objects at once. Brackets inside
 * strings do not count. Run before JSON.parse, so a hostile line is refused in one linear scan.
 */
export function isJsonTooDeep(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i);
      if (i === -1) return false; // Unterminated: JSON.parse reports it better.
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

// Index of the quote closing the string opened at `start`, or -1; native indexOf keeps long strings fast.
function endOfString(text: string, start: number): number {
  for (let end = text.indexOf('"', start + 1); end !== -1; end = text.indexOf('"', end + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
  }
  return -1;
}

/** What {@link checkJsonValue} found wrong: an unstorable character in a string or a key (where, and why), or too deep nesting. */
export type JsonValueProblem =
  { kind: "character"; path: string; inKey: boolean; message: string } | { kind: "tooDeep" };

/**
 * Walks a parsed JSON value without recursion and reports the first {@link unstorableCharacter} (in a
 * string or a key) or nesting past {@link MAX_JSON_DEPTH} levels below `depth` (circular values count as too deep).
 * `path` names the value in messages, e.g. `meta` → `meta.tags[1]`.
 */
export function checkJsonValue(value: unknown, path: string, depth = 0): JsonValueProblem | null {
  type Entry = { value: unknown; path: string; depth: number; badKey: { path: string; message: string } | null };
  const stack: Entry[] = [{ value, path, depth, badKey: null }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    // A bad key is reported on the object holding it, when its turn comes in reading order.
    if (item.badKey) return { kind: "character", path: item.badKey.path, inKey: true, message: item.badKey.message };
    if (typeof item.value === "string") {
      const message = unstorableCharacter(item.value);
      if (message) return { kind: "character", path: item.path, inKey: false, message };
      continue;
    }
    if (typeof item.value !== "object" || item.value === null) continue;
    if (item.depth + 1 > MAX_JSON_DEPTH) return { kind: "tooDeep" };
    const isArray = Array.isArray(item.value);
    const entries = Object.entries(item.value);
    // Pushed in reverse, so the first problem in reading order is the one reported.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      const keyMessage = isArray ? null : unstorableCharacter(key);
      stack.push({
        value: child,
        path: isArray ? `${item.path}[${key}]` : `${item.path}.${key}`,
        depth: item.depth + 1,
        badKey: keyMessage ? { path: item.path, message: keyMessage } : null,
      });
    }
  }
  return null;
}
