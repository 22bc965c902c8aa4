// The parts of a record a revision may change, under the input format's names. Pure: shared by the
// revision editor, the REST body, the server and the release writer.

/** The editable fields, in the order they are shown and diffed. */
export const REVISABLE_FIELDS = ["question", "canonical_solution", "demo_test_func", "full_test_func"] as const;
export type RevisableField = (typeof REVISABLE_FIELDS)[number];

/** A record's editable content under the input format's names. */
export type RevisableContent = Record<RevisableField, string>;

/** The stored column of each field. */
export const FIELD_COLUMNS = {
  question: "question",
  canonical_solution: "canonicalSolution",
  demo_test_func: "demoTestFunc",
  full_test_func: "fullTestFunc",
} as const satisfies Record<RevisableField, string>;

/** Content from stored columns (question, canonicalSolution, …). */
export function contentOfColumns(row: {
  question: string;
  canonicalSolution: string;
  demoTestFunc: string;
  fullTestFunc: string;
}): RevisableContent {
  return {
    question: row.question,
    canonical_solution: row.canonicalSolution,
    demo_test_func: row.demoTestFunc,
    full_test_func: row.fullTestFunc,
  };
}

/**
 * The base content with the given changes applied, and which fields really changed (a field sent
 * with its current text is no change). Pure.
 */
export function applyChanges(
  base: RevisableContent,
  changes: Partial<RevisableContent>,
): { content: RevisableContent; changed: RevisableField[] } {
  const content = { ...base };
  const changed: RevisableField[] = [];
  for (const field of REVISABLE_FIELDS) {
    const next = changes[field];
    if (next === undefined || next === base[field]) continue;
    content[field] = next;
    changed.push(field);
  }
  return { content, changed };
}
