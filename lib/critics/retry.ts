// When to ask a chat endpoint again: which answers are worth retrying and how long to wait first.

/** Rate limits (429) and server errors (5xx) are passing states of the endpoint; other 4xx are not. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * The wait a `Retry-After` header asks for, in ms: delta-seconds or an HTTP date (RFC 9110 §10.2.3);
 * null when absent or unreadable. A date in the past means no wait.
 */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1): what the server asked for when it
 * said (capped at `maxMs`, so a hostile header cannot stall a run), else exponential backoff from
 * `baseMs`, jittered between half and all of it (`random` in [0, 1)) so parallel requests spread out.
 */
export function backoffMs({
  attempt,
  retryAfter,
  baseMs,
  maxMs,
  random,
}: {
  attempt: number;
  retryAfter: number | null;
  baseMs: number;
  maxMs: number;
  random: number;
}): number {
  if (retryAfter !== null) return Math.min(retryAfter, maxMs);
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}
