// How each critic version does against people: client-safe shapes, no server code.
import type { DetectionCounts, DetectionFigures, reliability } from "@/lib/metrics/critic-calibration";

/** A figure's origin: how many of its items were labelled in blind campaigns (the critic hidden until the first label) and in open ones. */
export type Provenance = { blind: number; open: number };

export type CalibrationFigures = DetectionFigures & { counts: DetectionCounts; provenance: Provenance };

export type RuleCalibration = CalibrationFigures & {
  rule: string;
  categories: string[];
  byLanguage: Record<string, CalibrationFigures>;
};

export type CriticVersionCalibration = {
  versionId: string;
  critic: string;
  kind: "ENDPOINT" | "IMPORTED";
  version: number;
  model: string;
  /** The version's replies on these items that did not parse: left out of every figure. */
  unreadable: number;
  invalid: CalibrationFigures;
  /** The same figures on the items of blind campaigns only (people decided before seeing the imported critic). */
  blindOnly: CalibrationFigures;
  byLanguage: Record<string, CalibrationFigures>;
  byRule: RuleCalibration[];
  /** Per language, the mapped rule that disagrees with people most often (false positives + false negatives). */
  mostWrongRule: Record<string, { rule: string; wrong: number; n: number } | null>;
  reliability: ReturnType<typeof reliability>;
};

export type DatasetCalibration = {
  dataset: string;
  /** Final labels counted (resolved items, one per record). */
  items: number;
  provenance: Provenance;
  /** Best first: κ on "invalid", then F1, then n. */
  versions: CriticVersionCalibration[];
};
