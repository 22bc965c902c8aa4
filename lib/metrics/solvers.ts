// pass@1 per model and language, the table AutoCodeBench's evaluation prints: of a model's
// solutions that ran, the share that pass both the demo and the full test. One sample per record
// and model, so pass@1 is solved ÷ attempted (the unbiased pass@k estimator at k = n = 1).
// Solutions that could not run here (no toolchain) or are still waiting are not attempts.

import { wilsonInterval } from "./intervals";

export type SolverCountsRow = {
  model: string;
  language: string;
  attempted: number;
  solved: number;
  unavailable: number;
  pending: number;
};

export type PassAtOne = {
  attempted: number;
  solved: number;
  /** solved ÷ attempted; null with no attempt. */
  passAtOne: number | null;
  /** Wilson 95% interval of pass@1; null with no attempt. */
  interval: [number, number] | null;
  unavailable: number;
  pending: number;
};

export type ModelPassAtOne = PassAtOne & { model: string; byLanguage: Record<string, PassAtOne> };

function figures(counts: Omit<SolverCountsRow, "model" | "language">): PassAtOne {
  return {
    attempted: counts.attempted,
    solved: counts.solved,
    passAtOne: counts.attempted === 0 ? null : counts.solved / counts.attempted,
    interval: wilsonInterval(counts.solved, counts.attempted),
    unavailable: counts.unavailable,
    pending: counts.pending,
  };
}

/** Per model (sorted by name): pass@1 over all its solutions and per language. */
export function passAtOneByModel(rows: SolverCountsRow[]): ModelPassAtOne[] {
  const models = new Map<string, SolverCountsRow[]>();
  for (const row of rows) models.set(row.model, [...(models.get(row.model) ?? []), row]);
  return [...models.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([model, languages]) => {
      const total = { attempted: 0, solved: 0, unavailable: 0, pending: 0 };
      const byLanguage: Record<string, PassAtOne> = {};
      for (const row of [...languages].sort((a, b) => (a.language < b.language ? -1 : 1))) {
        total.attempted += row.attempted;
        total.solved += row.solved;
        total.unavailable += row.unavailable;
        total.pending += row.pending;
        byLanguage[row.language] = figures(row);
      }
      return { model, ...figures(total), byLanguage };
    });
}
