// The Jobs list's keyset cursor: the last row's (createdAt, kind, id), newest first, written as
// "<epoch ms>.<kind>.<id>". A cursor that does not parse is a clear error, never an empty page.
import { JOB_KINDS, type JobKind } from "./types";

export type JobCursor = { createdAt: Date; kind: JobKind; id: string };

const CURSOR = /^(\d{1,15})\.([a-z]+)\.([A-Za-z0-9_-]{1,64})$/;

/** The cursor that continues after this job. */
export function encodeJobCursor({ createdAt, kind, id }: JobCursor): string {
  return `${createdAt.getTime()}.${kind}.${id}`;
}

/** The job a cursor continues after, or null when it is not one this list handed out. */
export function decodeJobCursor(cursor: string): JobCursor | null {
  const match = CURSOR.exec(cursor);
  if (!match) return null;
  const [, ms, kind, id] = match;
  if (!JOB_KINDS.includes(kind as JobKind)) return null;
  const createdAt = new Date(Number(ms));
  if (Number.isNaN(createdAt.getTime())) return null;
  return { createdAt, kind: kind as JobKind, id };
}

/**
 * Whether job `a` comes before job `b` in the list: newest first, and at the same instant by kind,
 * then id, both descending. Every kind's query and the merge of their pages use this order.
 */
export function isBefore(a: JobCursor, b: JobCursor): boolean {
  const at = a.createdAt.getTime() - b.createdAt.getTime();
  if (at !== 0) return at > 0;
  if (a.kind !== b.kind) return a.kind > b.kind;
  return a.id > b.id;
}
