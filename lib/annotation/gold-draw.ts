import { createHash } from "node:crypto";

/**
 * Whether an annotator's claim number `claimIndex` (0-based: how many items of the campaign they
 * held before) is served from the gold records: a draw uniform in [0, 1) from the campaign's seed,
 * the annotator and the index, compared with the share. Deterministic, so a campaign replays the
 * same mix; spread like random draws, so gold items fall at no fixed rhythm an annotator could learn.
 */
export function isGoldTurn({
  seed,
  userId,
  claimIndex,
  share,
}: {
  seed: string;
  userId: string;
  claimIndex: number;
  share: number;
}): boolean {
  if (share <= 0) return false;
  const digest = createHash("sha256").update(`${seed}:gold:${userId}:${claimIndex}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32 < share;
}
