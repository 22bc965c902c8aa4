/** A batch's state in a word: running, paused, cancelled, or its status. */
export function batchStateWord(progress: { status: string; isPaused?: boolean; isCancelled?: boolean }): string {
  if (progress.status === "RUNNING") return progress.isPaused ? "paused" : "running";
  return progress.isCancelled ? "cancelled" : progress.status.toLowerCase();
}
