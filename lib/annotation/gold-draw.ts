import { createCipheriv, createHmac } from "node:crypto";

// The queue's secret draws: whether an annotator's next claim is a gold item, which gold record,
// and the order of a campaign's sample. Each is keyed by a key derived from a server-side secret,
// so nothing an annotator can read (the campaign's seed, their own user id, record keys) predicts
// them, while the same key replays the same draws (a claim and the "still available" count agree).

/** A 256-bit key for one use (e.g. "gold-turn", campaign id, user id), derived from the server secret by HMAC-SHA256. */
export function drawKey(secret: string, ...use: string[]): Buffer {
  const master = createHmac("sha256", secret).update("verity queue draws").digest();
  return createHmac("sha256", master).update(use.join("\u0000")).digest();
}

const BYTES_PER_DRAW = 4;
const DRAWS_PER_BLOCK = 16 / BYTES_PER_DRAW;

/**
 * Uniform draws in [0, 1) for claim numbers `from` … `from + count - 1`: four bytes of an AES-256-CTR
 * keystream under the key per claim number (a pseudorandom function of the key and the number,
 * cheap enough to look thousands of claims ahead).
 */
function drawsFrom(key: Buffer, from: number, count: number): number[] {
  const firstBlock = Math.floor(from / DRAWS_PER_BLOCK);
  const skip = (from % DRAWS_PER_BLOCK) * BYTES_PER_DRAW;
  const counter = Buffer.alloc(16);
  counter.writeUIntBE(firstBlock, 10, 6);
  const stream = createCipheriv("aes-256-ctr", key, counter).update(Buffer.alloc(skip + count * BYTES_PER_DRAW));
  return Array.from({ length: count }, (_, n) => stream.readUInt32BE(skip + n * BYTES_PER_DRAW) / 2 ** 32);
}

/**
 * Whether an annotator's claim number `claimIndex` (0-based: how many items of the campaign they
 * held before) is a gold turn: its draw under their key falls below the share. Spread like random
 * draws, so gold items fall at no rhythm an annotator could learn.
 */
export function isGoldTurn({ key, claimIndex, share }: { key: Buffer; claimIndex: number; share: number }): boolean {
  return share > 0 && drawsFrom(key, claimIndex, 1)[0] < share;
}

/**
 * How many gold items the annotator will still be served, from claim number `fromIndex` on, when
 * `sampleLeft` sample items remain for them and `goldLeft` gold items: gold comes only at a gold turn
 * while sample items remain, so this counts the gold turns before the last sample item is taken
 * (a gold turn with no gold left takes a sample item), at most `goldLeft`. Each claim lowers
 * sample + this forecast by exactly one, gold or not.
 */
export function goldTurnsAhead({
  key,
  fromIndex,
  sampleLeft,
  goldLeft,
  share,
}: {
  key: Buffer;
  fromIndex: number;
  sampleLeft: number;
  goldLeft: number;
  share: number;
}): number {
  if (share <= 0 || sampleLeft <= 0 || goldLeft <= 0) return 0;
  let gold = 0;
  let sample = 0;
  const chunk = 4096;
  for (let from = fromIndex; ; from += chunk) {
    for (const draw of drawsFrom(key, from, chunk)) {
      if (draw < share) {
        if (++gold === goldLeft) return gold;
      } else if (++sample === sampleLeft) return gold;
    }
  }
}
