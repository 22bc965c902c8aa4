import "server-only";

import { createHash, randomBytes } from "node:crypto";

import { drawKey } from "@/lib/annotation/gold-draw";

/** A random URL-safe secret with a readable prefix, e.g. `vty_…` for API tokens. */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString("base64url")}`;
}

/**
 * sha256 of a high-entropy secret (API token, invitation token). Enough at rest: unlike passwords
 * these cannot be guessed, and a fast hash allows lookup by hash.
 */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

// Without NEXTAUTH_SECRET (a script or test that is not the app), draws are still unpredictable,
// under a secret of this process alone.
const processSecret = randomBytes(32).toString("base64url");

/**
 * The key of one of the queue's secret draws (gold turns, which gold record, sample order; see
 * lib/annotation/gold-draw.ts), derived from the session secret NEXTAUTH_SECRET, which every app
 * instance shares and no annotator can read.
 */
export function queueDrawKey(...use: string[]): Buffer {
  return drawKey(process.env.NEXTAUTH_SECRET || processSecret, ...use);
}
