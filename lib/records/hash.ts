import { createHash } from "node:crypto";
import type { Language } from "./languages";

/** The five fields that identify a record; released AutoCodeBench files carry no id. */
export type RecordKeyFields = {
  language: Language;
  question: string;
  canonicalSolution: string;
  demoTestFunc: string;
  fullTestFunc: string;
};

/** Content hash (sha256 hex) of a record's identifying fields; stable across runs and field order. */
export function recordKey(r: RecordKeyFields): string {
  // A JSON array keeps field boundaries unambiguous: ("ab","c") and ("a","bc") encode differently.
  const encoded = JSON.stringify([r.language, r.question, r.canonicalSolution, r.demoTestFunc, r.fullTestFunc]);
  return createHash("sha256").update(encoded, "utf8").digest("hex");
}
