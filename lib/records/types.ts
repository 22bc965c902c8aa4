// What the record pages show of a record: client-safe shapes, no server code.
import type { CriticRule } from "@/lib/records";

export type CriticView = {
  overallPass: boolean | null;
  failedRules: string[];
  rules: CriticRule[];
  keyPoints: string[];
  reasoning: string | null;
  raw: string;
};
