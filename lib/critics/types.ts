// How each critic version does against people: client-safe shapes, no server code.
import type { DetectionCounts, DetectionFigures, reliability } from "@/lib/metrics/critic-calibration";

/**
 * A figure's origin: how many of its items were labelled with the critic hidden from every author
 * (pre-reveal labels: blind campaigns, and open ones over records a blind campaign also holds) and
 * how many with it shown to at least one.
 */
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
  /** The same figures on the blind items only (every label given before its author saw the imported critic). */
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
