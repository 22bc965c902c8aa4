// The review queues, in the order the tabs show them. Client-safe.
export const QUEUES = ["annotators", "critic", "execution", "flagged"] as const;
export type QueueName = (typeof QUEUES)[number];

/** Where a page of a review queue starts: after the item with this many reasons at this position. */
export type QueueCursor = { reasons: number; position: number };

/** "3.1042": the cursor as it travels in a query string. */
export function formatQueueCursor(cursor: QueueCursor): string {
  return `${cursor.reasons}.${cursor.position}`;
}

/** The cursor of a query string, or null for one that is not a cursor. */
export function parseQueueCursor(text: string | undefined): QueueCursor | null {
  const match = /^(\d{1,2})\.(\d{1,10})$/.exec(text ?? "");
  if (!match) return null;
  const cursor = { reasons: Number(match[1]), position: Number(match[2]) };
  return cursor.position <= 2_147_483_647 ? cursor : null;
}
