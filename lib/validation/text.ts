// Refinements shared by every schema that takes text to store or to query with: PostgreSQL refuses
// a NUL character and a lone surrogate, so they are refused here as a field error (422), before any
// query can fail with a 500. Names are one line of printable text.
import { z } from "zod";

import { unstorableCharacter } from "@/lib/records/json-limits";

// C0 controls (line breaks, tabs, NUL), DEL, and the Unicode line and paragraph separators.
const CONTROL_OR_LINE_BREAK = /[\u0000-\u001f\u007f\u2028\u2029]/;

/** A string PostgreSQL can store: no NUL, no unpaired surrogate. */
export function storableText() {
  return z.string().superRefine((text, context) => {
    const problem = unstorableCharacter(text);
    if (problem) context.addIssue({ code: "custom", message: `This holds ${problem}.` });
  });
}

/** A name: storable, on one line, with no control characters. */
export function singleLineText() {
  return storableText().refine((text) => !CONTROL_OR_LINE_BREAK.test(text), {
    message: "Keep it on one line, with no tabs or control characters.",
  });
}

/** The first key that appears twice in `keys`, or null. */
export function firstRepeated(keys: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return null;
}
