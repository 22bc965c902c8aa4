// Number formatting for the review and agreement screens.

export const UNDEFINED_REASON = "undefined for these data";

/** A ratio or coefficient with `digits` decimals, or null when the metric is undefined. */
export function formatNumber(value: number | null, digits = 3): string | null {
  return value === null || !Number.isFinite(value) ? null : value.toFixed(digits);
}

/** A share (0–1) as a percentage with two decimals. */
export function formatPercent(value: number | null): string | null {
  return value === null || !Number.isFinite(value) ? null : `${(value * 100).toFixed(2)}%`;
}

/** Active time: "850 ms", "12.3 s", "4 min 05 s". */
export function formatDuration(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms)) return null;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}
