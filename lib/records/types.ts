// The record browser's shapes: what the dataset page reads (lib/server/records) and hands to its
// components.

/** One row of the record browser: a record as the actor may see it. */
export type RecordListItem = {
  id: number;
  key: string;
  line: number;
  language: string;
  difficulty: string | null;
  title: string;
  criticPass: boolean | null;
  hasCritic: boolean;
  isCriticHidden: boolean;
  isExecutionHidden: boolean;
  executableValid: boolean | null;
  verificationOutcome: string | null;
  /** Repeated runs gave different outcomes (true), the same (false); null until checked. */
  flaky: boolean | null;
};

/** What the record browser's filters offer: each language with its record count, and the difficulties present. */
export type DatasetFacets = {
  languages: Array<{ language: string; count: number }>;
  difficulties: string[];
};
