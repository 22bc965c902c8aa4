import "server-only";

import { createHash, randomBytes } from "node:crypto";

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
