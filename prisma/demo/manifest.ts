// The demo manifest's shape and its one reader, for the demo sandbox test and bench:mutation.
import { readFileSync } from "node:fs";

/** What the demo sandbox test expects of a record's evidence (absent: not checked). */
export type ExpectedEvidence = { mutation: "weak" | "strong" | null; flaky: boolean | null };

/** One record of `manifest.json`, named by its line in `demo.jsonl`. */
export type DemoManifestEntry = {
  line: number;
  language: string;
  title: string;
  valid: boolean;
  flaw: string | null;
  explanation: string;
  criticAgrees: boolean;
  expectedExecution: "pass" | "fail" | "any";
  expectedEvidence?: ExpectedEvidence;
};

export function readDemoManifest(): DemoManifestEntry[] {
  const manifest = JSON.parse(readFileSync(new URL("./manifest.json", import.meta.url), "utf8")) as {
    records: DemoManifestEntry[];
  };
  return manifest.records;
}
