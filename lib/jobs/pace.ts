// A job's rate and ETA from its counters and clock: pure, so the page, the API and the CLI agree.
import type { JobStatus } from "./types";

/**
 * Below this much elapsed time a running job's rate is noise (one item in the first second is not 60
 * a minute). A finished job's whole run is known, however short: its rate is what it did.
 */
const MIN_ELAPSED_MS = 5_000;

/**
 * Items per minute since the job started (until it finished, for a finished one), and for a running
 * job the seconds left at that rate. No rate before anything was done or within a running job's
 * first seconds;
 * no ETA for a job that is not running (a paused job is not moving) or has nothing left.
 */
export function jobPace({
  status,
  done,
  total,
  startedAt,
  finishedAt,
  now,
}: {
  status: JobStatus;
  done: number;
  total: number;
  startedAt: Date;
  finishedAt: Date | null;
  now: Date;
}): { perMinute: number | null; etaSeconds: number | null } {
  const end = finishedAt ?? now;
  const elapsedMs = end.getTime() - startedAt.getTime();
  const isTooSoon = finishedAt === null && elapsedMs < MIN_ELAPSED_MS;
  if (done <= 0 || elapsedMs <= 0 || isTooSoon) return { perMinute: null, etaSeconds: null };
  const perMinute = (done * 60_000) / elapsedMs;
  const left = Math.max(0, total - done);
  const etaSeconds = status === "RUNNING" && left > 0 ? Math.ceil((left / perMinute) * 60) : null;
  return { perMinute, etaSeconds };
}

/** A duration in seconds as people read it: "45 s", "12 min", "3 h 20 min", "2 d 4 h". */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** A rate as people read it: "1,234/min", "0.5/min", and per hour below one a minute ("12/h"). */
export function formatRate(perMinute: number, unit: string): string {
  if (perMinute >= 1) return `${Math.round(perMinute).toLocaleString("en-US")} ${unit}/min`;
  const perHour = perMinute * 60;
  return perHour >= 1 ? `${Math.round(perHour)} ${unit}/h` : `< 1 ${unit}/h`;
}
